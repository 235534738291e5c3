/**
 * `ctxprune bench rank` and `bench speed` (were training/rank_eval.mjs and training/speed.mjs) and
 * `bench abort` (packages/core/bench/abort.mjs): each runs through the CLI on a tiny input.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { abortBench, abortInputs, formatAbortRow } from '../../src/bench/abort.js';
import { CtxpruneError } from '../../src/errors.js';
import { LexicalScorer } from '../../src/scorers/lexical.js';
import { main } from '../../src/cli/main.js';

const source = Array.from({ length: 40 }, (_, i) => `def handler_${i}(request):\n    return render(request, "page_${i}.html")\n`).join('\n');
function casesFile(): string {
  const p = join(mkdtempSync(join(tmpdir(), 'ctxprune-suites-')), 'cases.jsonl');
  writeFileSync(p, JSON.stringify({ id: 'c1', query: 'which page does handler_7 render', file_text: source, gold_lines: [22, 23], language: 'python' }) + '\n');
  return p;
}
async function run(argv: string[]): Promise<string> {
  const out: string[] = [];
  expect(await main(argv, { out: (s) => out.push(s), err: () => undefined })).toBe(0);
  return out.join('\n');
}

describe('bench suites', { timeout: 120_000 }, () => {
  it('rank: the neural ranking, its semantic head alone and the lexical one, at 4× and 8×', async () => {
    const rows = JSON.parse(await run(['bench', 'rank', '--cases', casesFile(), '--json'])) as {
      scorer: string;
      cases: number;
      recall: Record<string, number>;
    }[];
    expect(rows.map((r) => r.scorer)).toEqual(['neural', 'lexical', 'neural_sem']);
    for (const r of rows) {
      expect(r.cases).toBe(1);
      expect(Object.keys(r.recall)).toEqual(['4', '8']);
      for (const v of Object.values(r.recall)) expect(v).toBeGreaterThanOrEqual(0);
    }
    expect(await run(['bench', 'rank', '--cases', casesFile(), '--by', 'tokens'])).toMatch(/\| scorer \(ranking alone\) \| 4× \| 8× \|/);
  });

  it('speed: no 1,000-line file here, the model measured on the closest one', async () => {
    const r = JSON.parse(await run(['bench', 'speed', '--cases', casesFile(), '--scorer', 'lexical', '--runs', '1', '--json'])) as {
      files: string | null;
      model: { case: string; lines: number; runs: number; backend: string };
    };
    expect(r.files).toBeNull();
    expect(r.model).toMatchObject({ case: 'c1', lines: 120, runs: 1, backend: 'wasm' });
  });

  it('abort: every abort rejects, and the row says how late', async () => {
    const rows = await abortBench([{ name: 'a.py', text: source.repeat(20), query: 'handler_7' }], new LexicalScorer(), { points: 3 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ input: 'a.py', lines: source.repeat(20).split('\n').length });
    expect(rows[0].aborted + rows[0].completedBeforeAbort).toBe(3);
    expect(formatAbortRow(rows[0], 'lexical', 8)).toMatch(/^a\.py: \d+ chars, \d+ lines, prune \d+ ms \(lexical, 8×\); /);
  });

  it('abort: a row where every prune finished before its abort was due says so, with no latency', () => {
    const row = {
      input: 'a.py',
      chars: 10,
      lines: 2,
      pruneMs: 3,
      keptLines: 1,
      aborted: 0,
      completedBeforeAbort: 3,
      finishedAfterAbortDue: 0,
      medianMs: null,
      p90Ms: null,
      maxMs: null,
      worstAt: null,
      longestStallMs: 1.5,
      longestStallCpuMs: 1.2,
    };
    expect(formatAbortRow(row, 'lexical', 8)).toBe(
      'a.py: 10 chars, 2 lines, prune 3 ms (lexical, 8×); no abort was due before its prune ended; longest stretch without a yield 1.5 ms (1.2 ms CPU); 3 finished before their abort was due',
    );
  });

  it('abort: without the package sources (an installed package), a clear error, not ENOENT', () => {
    const src = join(tmpdir(), 'ctxprune-no-such-src');
    expect(() => abortInputs(src)).toThrow(
      new CtxpruneError(
        'INVALID_OPTION',
        `bench abort concatenates the TypeScript sources at ${src}, which the npm package does not ship: run it from a repository checkout`,
      ),
    );
    expect(abortInputs().map((x) => x.name)).toEqual(['python-1MB.py', 'typescript-1MB.ts']);
  });
});
