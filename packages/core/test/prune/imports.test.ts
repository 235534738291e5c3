/**
 * Imports are evidence only when the query names what they import (#21: at 8× the playground's
 * default sample kept 6 import lines of 14, 5 of them labelled evidence, for a query about
 * Retry-After).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unnamedImports } from '../../src/prune/imports.js';
import { prune } from '../../src/prune/pipeline.js';
import { resolveScorer } from '../../src/scorers/registry.js';
import { analyze, splitLines } from '../../src/syntax/index.js';

const SAMPLE = readFileSync(new URL('../../../../apps/playground/src/samples/fetcher.py', import.meta.url), 'utf8');
const QUERY = 'Retry-After sent as an HTTP date is ignored, so we retry a 429 too soon';
const lines = SAMPLE.split('\n');
const isImport = (n: number) => /^(import|from) \S/.test(lines[n - 1]);

describe('imports are evidence only when the query names them', { timeout: 60_000 }, () => {
  for (const scorer of ['lexical', 'auto'] as const) {
    for (const ratio of [4, 8]) {
      it(`${scorer}: at ${ratio}× no import kept is labelled evidence`, async () => {
        const r = await prune(SAMPLE, { query: QUERY, ratio, fileName: 'fetcher.py', scorer: await resolveScorer(scorer) });
        const imports = r.lines.filter((l) => l.kept && isImport(l.line));
        expect(imports.filter((l) => l.reason === 'evidence')).toEqual([]);
        // With the model (the playground's default engine), only what the kept code needs: was 6 of 14 at 8×.
        if (scorer === 'auto') expect(imports.length).toBeLessThanOrEqual(2);
        // Where the HTTP-date parsing is missing is kept: backoff(), lines 98-103; at 8× the model's
        // pipeline leaves out its docstring (line 100; docstrings weigh less, prune/documentation.ts).
        for (let n = 98; n <= 103; n++) if (!(n === 100 && scorer === 'auto' && ratio === 8)) expect(r.keptLines, `line ${n}`).toContain(n);
        // At 4× the Retry-After call site in get() fits too (at 8×, 133 tokens, backoff() alone does).
        if (ratio === 4) expect(lines[120 - 1]).toContain('response.headers.get("Retry-After")');
        if (ratio === 4) expect(r.keptLines).toContain(120);
      });
    }
  }
  it('an import the query names is not marked down', async () => {
    const st = await analyze(SAMPLE, 'python');
    const unnamed = unnamedImports(st, splitLines(SAMPLE), 'use hashlib.blake2b instead of sha256 for the cache paths');
    const at = (text: string) => unnamed[lines.indexOf(text)];
    expect(at('import hashlib')).toBe(0);
    expect(at('import json')).toBe(1);
    expect(at('from typing import Callable, Optional')).toBe(1);
    // An empty query names nothing and marks nothing.
    expect([...unnamedImports(st, splitLines(SAMPLE), '')].every((x) => x === 0)).toBe(true);
  });
});
