import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const SAMPLES = join(import.meta.dirname, '../fixtures/samples');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

// 60 s: the first test loads the model (scorer auto), which took over 5 s at load ≈ 20 on 2 cores.
describe('ctxprune prune', { timeout: 60_000 }, () => {
  it('--json prints text, keptLines, lines and stats', async () => {
    const c = capture();
    const code = await main(['prune', join(SAMPLES, 'server.go'), '--query', 'expired keys returned by Get', '--ratio', '4', '--json'], c.io);
    expect(code).toBe(0);
    const r = JSON.parse(c.out.join(''));
    expect(typeof r.text).toBe('string');
    expect(r.keptLines.length).toBeGreaterThan(0);
    // One entry per line; the empty string after a final newline is no line (text/lines lineCount).
    const goSrc = readFileSync(join(SAMPLES, 'server.go'), 'utf8');
    expect(r.lines.length).toBe(goSrc.split('\n').length - (goSrc.endsWith('\n') ? 1 : 0));
    expect(r.stats.language).toBe('go');
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    const src = readFileSync(join(SAMPLES, 'server.go'), 'utf8').split('\n');
    for (const l of r.keptLines) expect(r.text.split('\n')).toContain(src[l - 1]);
  });

  it('prints the pruned text and a summary on stderr without --json', async () => {
    const c = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'pop empty', '--tokens', '120'], c.io)).toBe(0);
    expect(c.out.join('')).toContain('pub fn pop');
    expect(c.err.join('')).toMatch(/→ \d+ tokens \(budget 120/);
    expect(c.err.join('')).toMatch(/\nelided lines: \d+(-\d+)?(, \d+(-\d+)?)*$/);
    // Bare markers by default; --elision compact puts the ranges in the text.
    const markers = (t: string) =>
      t
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('// …'));
    expect(new Set(markers(c.out.join('')))).toEqual(new Set(['// …']));
    const d = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'pop empty', '--tokens', '120', '--elision', 'compact'], d.io)).toBe(0);
    for (const m of markers(d.out.join(''))) expect(m).toMatch(/^\/\/ … lines? \d+(–\d+)?$/);
    const e = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'x', '--elision', 'tiny'], e.io)).toBe(2);
    expect(e.err.join('')).toMatch(/elision must be one of bare, indented, compact, verbose.*\[INVALID_OPTION\]/);
  });

  it('rejects a bad budget with a typed error and exit code 2', async () => {
    const c = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'x', '--ratio', '0.5'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/ratio must be a finite number ≥ 1.*\[INVALID_BUDGET\]/);
  });

  it('rejects a missing file and an unknown scorer clearly', async () => {
    let c = capture();
    expect(await main(['prune', join(SAMPLES, 'nope.py'), '--query', 'x'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/cannot read .*nope\.py/);
    c = capture();
    expect(await main(['prune', join(SAMPLES, 'ring.rs'), '--query', 'x', '--scorer', 'magic'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/unknown scorer "magic" \(available: lexical/);
  });
});

describe('ctxprune bench', () => {
  it('writes one JSON line per case and prints recall, compliance and parse validity', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxprune-bench-'));
    const text = readFileSync(join(SAMPLES, 'rate_limiter.py'), 'utf8');
    const lines = text.split('\n');
    const ifLine = lines.findIndex((l) => l.includes('if seconds < 0:')) + 1;
    const gold = [ifLine, ifLine + 1];
    const cases = [
      { id: 'a', query: 'negative Retry-After seconds', file_text: text, gold_lines: gold, language: 'python', path: 'rate_limiter.py' },
      {
        id: 'b',
        query: 'cache entries expire',
        file_text: readFileSync(join(SAMPLES, 'cache.ts'), 'utf8'),
        gold_lines: [40],
        language: 'typescript',
        path: 'cache.ts',
      },
    ];
    writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
    const c = capture();
    const code = await main(['bench', '--cases', join(dir, 'cases.jsonl'), '--ratio', '4', '--out', join(dir, 'out.jsonl')], c.io);
    expect(code).toBe(0);
    const rows = readFileSync(join(dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.id)).toEqual(['a', 'b']);
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual([
        'bm25WindowRecall',
        'id',
        'inputParseOk',
        'keptLines',
        'kind',
        'language',
        'ms',
        'originalTokens',
        'outputTokens',
        'parseOk',
        'rankingRecall',
        'ratio',
        'recall',
      ]);
      expect(r.kind).toBe('commit');
      expect(r.ratio).toBe(4);
      expect(r.outputTokens).toBeLessThanOrEqual(Math.floor(r.originalTokens / 4));
      expect(r.parseOk).toBe(true);
    }
    expect(rows[0].keptLines).toEqual(expect.arrayContaining(gold));
    const printed = c.out.join('\n');
    // run | cases | recall | ranking | window | all kept | budget ok | input parses | output parses
    expect(printed).toMatch(/\| neural \| 2 \| [01]\.\d{3} \| [01]\.\d{3} \| [01]\.\d{3} \| [01]\.\d{3} \| 100\.0% \| 100\.0% \| 100\.0% \|/);
    expect(printed).toMatch(/\| {3}python \| 1 \|/);
    expect(printed).toMatch(/\| {3}typescript \| 1 \|/);
  }, 60_000);

  it('says how to get cases when the file is missing', async () => {
    const c = capture();
    expect(await main(['bench', '--cases', '/nonexistent/cases.jsonl', '--ratio', '4'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/Materialize them first/);
  });
});
