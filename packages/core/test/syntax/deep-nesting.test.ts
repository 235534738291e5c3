import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/syntax/index.js';
import { LineKind } from '../../src/syntax/types.js';
import { MAX_WALK_DEPTH } from '../../src/syntax/statements.js';
import { prune } from '../../src/index.js';
import { outputOrigin } from '../../src/text/elision.js';

/**
 * Definitions nested far deeper than any real file: the structure walk recursed once per level
 * and overflowed the call stack at ~1,000 levels, and the whole file lost its syntax. Statements
 * deeper than MAX_WALK_DEPTH are now walked later from the top, with the same structure.
 */
describe('definitions nested thousands deep', () => {
  /** `depth` nested functions, each with a statement before its child; the innermost returns. */
  function nestedFunctions(depth: number): { lines: string[]; headers: number[]; closers: number[]; inner: number } {
    const lines: string[] = [];
    const headers: number[] = [];
    for (let i = 0; i < depth; i++) {
      headers.push(lines.length);
      lines.push(`function f${i}() {`);
      lines.push(`const v${i} = ${i};`);
    }
    const inner = lines.length;
    lines.push('return retryAfter;');
    const closers: number[] = [];
    for (let i = depth - 1; i >= 0; i--) {
      closers[i] = lines.length;
      lines.push('}');
    }
    lines.push('');
    return { lines, headers, closers, inner };
  }

  for (const depth of [MAX_WALK_DEPTH + 2, 3000]) {
    it(`typescript, ${depth} levels: every header, closer and parent as the nesting says`, async () => {
      const { lines, headers, closers, inner } = nestedFunctions(depth);
      const st = await analyze(lines, 'typescript');
      expect(st.source).toBe('tree-sitter');
      expect(st.errorCount).toBe(0);
      for (let i = 0; i < depth; i++) {
        const h = headers[i];
        expect(st.kind[h]).toBe(LineKind.DefHeader);
        expect(st.parent[h]).toBe(i === 0 ? -1 : headers[i - 1]);
        expect(st.parent[h + 1]).toBe(h);
        expect(st.closer[h]).toBe(closers[i]);
        expect(st.blockEnd[h]).toBe(closers[i]);
        expect(st.kind[closers[i]]).toBe(LineKind.Closer);
        expect(st.definedNames.get(h)).toEqual([`f${i}`]);
      }
      expect(st.parent[inner]).toBe(headers[depth - 1]);
    });
  }

  // tree-sitter-python itself gives up past ~510 levels (the file then has an ERROR node).
  it('python, 500 levels: every class header parents the next', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 500; i++) lines.push(`${' '.repeat(i)}class C${i}:`);
    lines.push(`${' '.repeat(500)}x = retry_after`, '');
    const st = await analyze(lines, 'python');
    expect(st.source).toBe('tree-sitter');
    expect(st.errorCount).toBe(0);
    for (let i = 0; i < 500; i++) {
      expect(st.kind[i]).toBe(LineKind.DefHeader);
      expect(st.parent[i]).toBe(i - 1);
      expect(st.blockEnd[i]).toBe(500);
    }
    expect(st.parent[500]).toBe(499);
  });

  it('prune keeps its syntax for a 1,000-deep file and maps every kept line back', async () => {
    const { lines } = nestedFunctions(1000);
    const text = lines.join('\n');
    const r = await prune(text, { query: 'retry after', language: 'typescript', ratio: 4, scorer: 'lexical' });
    expect(r.stats.syntax).toBe('tree-sitter');
    expect(r.stats.degraded.map((d) => d.code)).not.toContain('SYNTAX_UNAVAILABLE');
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    expect(r.keptLines.length).toBeGreaterThan(0);
    const out = r.text.split('\n');
    outputOrigin(r.keptLines, lines.length - 1).forEach((t, k) => expect(t < 0 ? out[k].includes('…') : out[k] === lines[t]).toBe(true));
  }, 60_000);

  it('a line whose headers and closers alone exceed the budget is kept without them, and said', async () => {
    const { lines, inner } = nestedFunctions(300);
    const r = await prune(lines.join('\n'), { query: 'retry after', language: 'typescript', ratio: 4, scorer: 'lexical' });
    expect(r.keptLines).toContain(inner + 1);
    expect(r.stats.outputTokens).toBeLessThanOrEqual(r.stats.budgetTokens);
    // Bare repair still closes every brace the line sits in: the output parses.
    expect(r.stats.outputParseOk).toBe(true);
    const said = r.stats.degraded.find((d) => d.code === 'BUDGET_TOO_SMALL');
    expect(said?.message).toMatch(/kept its best line with fewer of the lines around it/);
  }, 60_000);
});
