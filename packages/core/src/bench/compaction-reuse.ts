/**
 * What a preparation cache across compact() calls (CompactOptions.preparations) saves a session:
 * an agent loop that compacts its transcript every second turn, and a budget moved back and
 * forth over one transcript (the playground's slider). Each call runs twice, without and with
 * the session's cache, in alternating order (this machine's timing drifts); the two results must
 * be the same.
 */
import { compact } from '../compaction/compact.js';
import { createPreparationCache, type PreparationCache } from '../compaction/preparations.js';
import type { CompactOptions, CompactResult } from '../compaction/types.js';
import type { TokenCounter } from '../text/tokens.js';
import type { BenchTranscript } from './compaction.js';

export interface ReuseRow {
  /** 'agent loop' or 'budget moves'. */
  session: string;
  calls: number;
  freshMs: number;
  reusedMs: number;
  /** Calls whose two results differed (messages or dump), timed or not: 0 unless the cache is wrong. */
  differ: number;
}

/** The budget of each move, as 1/ratio of the transcript (the first call prepares, the rest reuse). */
const MOVES = [4, 5, 6, 8, 10, 3, 2.5, 4];

export async function runReuseBench(
  transcripts: BenchTranscript[],
  counter: TokenCounter,
  options: Pick<CompactOptions, 'strategy' | 'scorer'>,
  ratio = 4,
): Promise<ReuseRow[]> {
  const loop: ReuseRow = { session: 'agent loop', calls: 0, freshMs: 0, reusedMs: 0, differ: 0 };
  const moves: ReuseRow = { session: 'budget moves', calls: 0, freshMs: 0, reusedMs: 0, differ: 0 };
  const tokensOf = (ms: BenchTranscript['messages']) => ms.reduce((a, m) => a + counter.count(m.content), 0);
  let order = 0;
  /** One call both ways; `timed` false: checked, not counted (a slider's first position prepares everything). */
  const both = async (row: ReuseRow, messages: BenchTranscript['messages'], tokens: number, preparations: PreparationCache, timed = true) => {
    const o = { ...options, tokens, tokenCounter: counter };
    const run = async (shared: boolean): Promise<[CompactResult, number]> => {
      const t0 = performance.now();
      const r = await compact(messages, shared ? { ...o, preparations } : o);
      return [r, performance.now() - t0];
    };
    const first = order++ % 2 === 0;
    const [a, ta] = await run(!first);
    const [b, tb] = await run(first);
    const [fresh, freshMs, reused, reusedMs] = first ? [a, ta, b, tb] : [b, tb, a, ta];
    if (timed) {
      row.calls++;
      row.freshMs += freshMs;
      row.reusedMs += reusedMs;
    }
    if (JSON.stringify([fresh.messages, fresh.dump]) !== JSON.stringify([reused.messages, reused.dump])) row.differ++;
  };
  for (const t of transcripts) {
    const session = createPreparationCache();
    for (let k = 6; k <= t.messages.length; k += 2) {
      const prefix = t.messages.slice(0, k);
      await both(loop, prefix, Math.floor(tokensOf(prefix) / ratio), session);
    }
    const slider = createPreparationCache();
    const total = tokensOf(t.messages);
    // The first position prepares; what a user waits for is each move after it.
    for (let i = 0; i < MOVES.length; i++) await both(moves, t.messages, Math.floor(total / MOVES[i]), slider, i > 0);
  }
  return [loop, moves];
}

export function formatReuseRows(rows: readonly ReuseRow[]): string {
  const lines = ['| session | calls | ms a call, fresh | ms a call, with the cache | results that differ |', '|---|---|---|---|---|'];
  for (const r of rows) {
    lines.push(`| ${r.session} | ${r.calls} | ${(r.freshMs / r.calls).toFixed(1)} | ${(r.reusedMs / r.calls).toFixed(1)} | ${r.differ} |`);
  }
  return lines.join('\n');
}
