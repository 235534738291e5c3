/**
 * Abort latency on 1 MB inputs (`ctxprune bench abort`, was packages/core/bench/abort.mjs; issue
 * #16: "abort honoured within 100 ms of the signal on a 1 MB input"). For each input, one full
 * prune gives its duration D; then prunes are aborted by a timer set to fire at evenly spaced
 * points of D, and the latency is the time from the moment the timer was due to the moment
 * prune() rejected with ABORTED. Measured from when the timer was due, not from when it ran: a
 * timer runs only when the pipeline yields, so a stage that does not yield shows up as a late
 * timer. The inputs are generated (no data needed): ~1 MB of Python classes, and ~1 MB of this
 * package's own TypeScript sources (packages/core/src), concatenated.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CtxpruneError, isCtxpruneError } from '../errors.js';
import { prune } from '../prune/pipeline.js';
import type { PruneOptions, PruneResult } from '../prune/types.js';
import type { Scorer } from '../scorers/types.js';

export interface AbortInput {
  name: string;
  text: string;
  query: string;
}

export interface AbortRow {
  input: string;
  chars: number;
  lines: number;
  pruneMs: number;
  keptLines: number;
  aborted: number;
  completedBeforeAbort: number;
  finishedAfterAbortDue: number;
  /** Latencies of the aborts that were due before their prune ended; null when none was (every prune finished first). */
  medianMs: number | null;
  p90Ms: number | null;
  maxMs: number | null;
  worstAt: number | null;
  longestStallMs: number;
  longestStallCpuMs: number;
}

function pythonMb(): string {
  const parts = ['import os\nimport sys\n\n'];
  let size = parts[0].length;
  for (let i = 0; size < 1_000_000; i++) {
    const s = `class Handler${i}:\n    """Handles case ${i}."""\n\n    def __init__(self, value_${i}):\n        self.value = value_${i}\n        self.count = ${i}\n\n    def run(self, items):\n        total = 0\n        for item in items:\n            if item > ${i}:\n                total += item * self.count\n        return total + len(os.environ)\n\n\n`;
    parts.push(s);
    size += s.length;
  }
  return parts.join('');
}

/** ~1 MB of the TypeScript sources under `src` (sorted walk), each file's import lines dropped so the concatenation parses as one module. */
function typescriptMb(src: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.ts')) files.push(readFileSync(p, 'utf8'));
    }
  };
  walk(src);
  const bodies = files.map((t) =>
    t
      .split('\n')
      .filter((l) => !/^import\s/.test(l))
      .join('\n'),
  );
  const out: string[] = [];
  let size = 0;
  for (let k = 0; size < 1_000_000; k++) {
    const b = bodies[k % bodies.length];
    out.push(b);
    size += b.length + 1;
  }
  return out.join('\n');
}

/**
 * The two inputs; `src` is the TypeScript tree to concatenate (default: this package's src/, beside
 * dist/: a repository checkout has it, the npm package does not ship it).
 */
export function abortInputs(src = fileURLToPath(new URL('../../src', import.meta.url))): AbortInput[] {
  if (!existsSync(src)) {
    throw new CtxpruneError(
      'INVALID_OPTION',
      `bench abort concatenates the TypeScript sources at ${src}, which the npm package does not ship: run it from a repository checkout`,
    );
  }
  return [
    { name: 'python-1MB.py', text: pythonMb(), query: 'count of items above the threshold' },
    { name: 'typescript-1MB.ts', text: typescriptMb(src), query: 'abort the prune when the signal fires' },
  ];
}

const pct = (xs: readonly number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(p * xs.length) - 1))];

/** Abort each input at `points` evenly spaced moments of its prune. */
export async function abortBench(inputs: readonly AbortInput[], scorer: Scorer, opts: { points?: number; ratio?: number } = {}): Promise<AbortRow[]> {
  const points = opts.points ?? 24;
  const ratio = opts.ratio ?? 8;
  await prune('def f():\n    return 1\n', { query: 'f', fileName: 'w.py', scorer });
  await prune('export const f = () => 1;\n', { query: 'f', fileName: 'w.ts', scorer });
  const report: AbortRow[] = [];
  for (const input of inputs) {
    const options: PruneOptions = { query: input.query, ratio, fileName: input.name, scorer };
    // Its duration: the shorter of two runs (the first also warms up the JIT). Meanwhile a
    // macrotask ticker notes the longest time the prune held the thread: wall, and the process's
    // CPU time in that stretch (on a shared machine the wall time also counts other processes').
    let duration = Infinity;
    let full: PruneResult | undefined;
    let stall = { wall: 0, cpu: 0 };
    for (let rep = 0; rep < 2; rep++) {
      let on = true;
      let last = performance.now();
      let lastCpu = process.cpuUsage();
      const tick = () => {
        const now = performance.now();
        const cpu = process.cpuUsage(lastCpu);
        if (rep === 1 && now - last > stall.wall) stall = { wall: now - last, cpu: (cpu.user + cpu.system) / 1000 };
        last = now;
        lastCpu = process.cpuUsage();
        if (on) setImmediate(tick);
      };
      setImmediate(tick);
      const t0 = performance.now();
      // With a signal that never fires: a prune that can be aborted is what the aborts below run
      // (the neural scorer makes smaller model calls when there is a signal to check).
      full = await prune(input.text, { ...options, signal: new AbortController().signal });
      duration = Math.min(duration, performance.now() - t0);
      on = false;
    }
    const latencies: { at: number; latency: number }[] = [];
    let completed = 0;
    let late = 0;
    for (let k = 0; k < points; k++) {
      const at = ((k + 0.5) / points) * duration;
      const ac = new AbortController();
      const start = performance.now();
      const due = start + at;
      const timer = setTimeout(() => ac.abort(), at);
      const outcome = await prune(input.text, { ...options, signal: ac.signal }).then(
        () => 'done' as const,
        (e: unknown) => (isCtxpruneError(e) && e.code === 'ABORTED' ? ('aborted' as const) : { error: e }),
      );
      const end = performance.now();
      clearTimeout(timer);
      if (typeof outcome === 'object') throw outcome.error;
      // A prune that ended before its abort was due is left out; one that ended after it without
      // seeing it counts, with the time it kept the caller waiting.
      if (end < due) {
        completed++;
        continue;
      }
      if (outcome === 'done') late++;
      latencies.push({ at: Math.round(at), latency: end - due });
    }
    const ls = latencies.map((l) => l.latency).sort((a, b) => a - b);
    const round1 = (x: number) => +x.toFixed(1);
    // A prune faster than the measured duration (a warmer JIT) can finish before every abort is due.
    const some = ls.length > 0;
    report.push({
      input: input.name,
      chars: input.text.length,
      lines: input.text.split('\n').length,
      pruneMs: Math.round(duration),
      keptLines: full!.keptLines.length,
      aborted: ls.length,
      completedBeforeAbort: completed,
      finishedAfterAbortDue: late,
      medianMs: some ? round1(pct(ls, 0.5)) : null,
      p90Ms: some ? round1(pct(ls, 0.9)) : null,
      maxMs: some ? round1(ls[ls.length - 1]) : null,
      worstAt: some ? latencies.reduce((a, b) => (b.latency > a.latency ? b : a)).at : null,
      longestStallMs: round1(stall.wall),
      longestStallCpuMs: round1(stall.cpu),
    });
  }
  return report;
}

/** One line per input, as abort.mjs printed it. */
export function formatAbortRow(row: AbortRow, scorer: string, ratio: number): string {
  const { completedBeforeAbort: completed, finishedAfterAbortDue: late } = row;
  return (
    `${row.input}: ${row.chars} chars, ${row.lines} lines, prune ${row.pruneMs} ms (${scorer}, ${ratio}×); ` +
    (row.aborted > 0
      ? `${row.aborted} aborts due at evenly spaced points: latency median ${row.medianMs} ms, p90 ${row.p90Ms} ms, max ${row.maxMs} ms ` +
        `(abort due at ${row.worstAt} ms); `
      : 'no abort was due before its prune ended; ') +
    `longest stretch without a yield ${row.longestStallMs} ms (${row.longestStallCpuMs} ms CPU)` +
    `${completed ? `; ${completed} finished before their abort was due` : ''}${late ? `; ${late} finished without seeing it` : ''}`
  );
}
