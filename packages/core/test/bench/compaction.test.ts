import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { buildTranscripts, goldShare, type DevCase } from '../../src/bench/compaction.js';

const file = (name: string, n: number) => Array.from({ length: n }, (_, i) => `def ${name}_${i}(x):\n    return x + ${i}\n`).join('\n');
const cases: DevCase[] = [
  { id: 'c1', repo: 'o/r', path: 'pkg/a.py', query: 'a_3 returns the wrong value', file_text: file('a', 10), gold_lines: [10, 11, 12] },
  { id: 'c2', repo: 'o/r', path: 'pkg/b.py', query: 'b_1 crashes', file_text: file('b', 10), gold_lines: [1] },
  { id: 'c3', repo: 'o/r', path: 'pkg/c.py', query: 'c fails', file_text: file('c', 5), gold_lines: [] },
];

describe('compaction bench transcripts', () => {
  it('issue text as the user turn, a grep, reads of the gold file and other files of the repo, a test log', () => {
    const [t] = buildTranscripts(cases, { otherFiles: 2 });
    const roles = t.messages.map((m) => `${m.role}${m.toolName ? ':' + m.toolName : ''}`);
    expect(roles).toEqual([
      'system',
      'user',
      'assistant',
      'tool:grep',
      'assistant',
      'tool:read_file',
      'assistant',
      'tool:read_file',
      'assistant',
      'tool:read_file',
      'assistant',
      'tool:run_tests',
    ]);
    expect(t.messages[1].content).toBe('a_3 returns the wrong value');
    const reads = t.messages
      .filter((m) => m.toolName === 'read_file')
      .map((m) => m.content)
      .sort();
    expect(reads).toEqual([file('a', 10), file('b', 10), file('c', 5)].sort());
    expect(t.messages.find((m) => m.id === t.goldMessageId)!.content).toBe(file('a', 10));
    // gold lines 10..12: "def a_3(x):", "    return x + 3", "" → the blank one is not counted
    expect(t.goldLines).toEqual(['def a_3(x):', '    return x + 3']);
    // deterministic
    expect(buildTranscripts(cases, { otherFiles: 2 })[0]).toEqual(t);
  });

  it('gold share: exact line text surviving in the gold file read', () => {
    const [t] = buildTranscripts(cases, { otherFiles: 2 });
    const ms = t.messages.map((m) => (m.id === t.goldMessageId ? { ...m, content: '[3 lines pruned; use read_overflow k to retrieve]\n    return x + 3' } : m));
    expect(goldShare(t, ms)).toBe(0.5);
    expect(goldShare(t, t.messages)).toBe(1);
    expect(
      goldShare(
        t,
        t.messages.filter((m) => m.id !== t.goldMessageId),
      ),
    ).toBe(0);
    expect(Number.isNaN(goldShare(buildTranscripts(cases)[2], t.messages))).toBe(true);
  });
});

/** The cases in a temporary cases file, and an io that collects what the CLI prints. */
function benchDir() {
  const dir = mkdtempSync(join(tmpdir(), 'ctxprune-bench-'));
  const path = join(dir, 'cases.jsonl');
  writeFileSync(path, cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const out: string[] = [];
  return { dir, path, out, io: { out: (s: string) => out.push(s), err: () => undefined } };
}

describe('ctxprune bench compaction (the suite that replaced bench/compaction/run.mjs)', { timeout: 120_000 }, () => {
  it('runs the four strategies on transcripts built from a cases file', async () => {
    const { dir, path, out, io } = benchDir();
    expect(await main(['bench', 'compaction', '--cases', path, '--pools', join(dir, 'none'), '--limit', '1', '--json'], io)).toBe(0);
    const { rows, perCase } = JSON.parse(out.join('')) as { rows: { strategy: string; cases: number; overBudget: number }[]; perCase: unknown[] };
    expect(perCase).toHaveLength(4);
    expect(rows.map((r) => r.strategy)).toEqual(['reactive', 'task_aware', 'mig', 'task_aware_mig']);
    for (const r of rows) expect(r).toMatchObject({ cases: 1, overBudget: 0 });
  });

  it('--reuse times an agent loop and budget moves without and with a preparation cache, whose results must match', async () => {
    const { dir, path, out, io } = benchDir();
    const argv = ['bench', 'compaction', '--reuse', '--cases', path, '--pools', join(dir, 'none'), '--limit', '1', '--scorer', 'lexical', '--json'];
    expect(await main(argv, io)).toBe(0);
    const rows = JSON.parse(out.join('')) as { session: string; calls: number; freshMs: number; reusedMs: number; differ: number }[];
    expect(rows.map((r) => r.session)).toEqual(['agent loop', 'budget moves']);
    // One transcript: a call at every second turn from the sixth message; 7 timed moves after the first.
    const [t] = buildTranscripts(cases);
    expect(rows[0].calls).toBe(Math.floor((t.messages.length - 6) / 2) + 1);
    expect(rows[1].calls).toBe(7);
    for (const r of rows) expect(r.differ).toBe(0);
  });

  it('an unknown suite is refused with the list of suites', async () => {
    const err: string[] = [];
    expect(await main(['bench', 'nosuch'], { out: () => undefined, err: (s) => err.push(s) })).toBe(2);
    expect(err.join('')).toMatch(/unknown benchmark suite "nosuch" \(suites: prune, compaction, locate, pack, rank, speed, abort, languages, compare\)/);
  });
});
