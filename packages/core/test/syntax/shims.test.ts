import { describe, expect, it } from 'vitest';
import { shimForGrammar } from '../../src/syntax/shims.js';
import { analyze, isValidTree, parse } from '../../src/syntax/index.js';
import { prune } from '../../src/prune/pipeline.js';

describe('shimForGrammar: TypeScript variance annotations', () => {
  it('blanks in / out / in out before a type parameter, keeping every offset', () => {
    const src = 'interface Z<out O = unknown, in I, in out T extends object> {}';
    const out = shimForGrammar('typescript', src);
    expect(out).toBe('interface Z<    O = unknown,    I,        T extends object> {}');
    expect(out.length).toBe(src.length);
  });
  it('across lines and with const type parameters', () => {
    const src = 'export interface ZodType<\n  out Output = unknown,\n  out Internals extends core.$Z<Output> = core.$Z<Output>,\n> {}\nfunction f<in const T>(x: T) {}';
    expect(shimForGrammar('tsx', src)).toBe(
      'export interface ZodType<\n      Output = unknown,\n      Internals extends core.$Z<Output> = core.$Z<Output>,\n> {}\nfunction f<   const T>(x: T) {}',
    );
  });
  it('leaves code that only looks alike, and other languages, as they are', () => {
    for (const src of ['for (const k in obj) {}', 'f(a, out)', 'if (a < in_b) {}', 'const o = { in: 1, out: 2 }', 'x = a <out> b']) {
      expect(shimForGrammar('typescript', src)).toBe(src);
    }
    expect(shimForGrammar('python', 'class A(Generic[T]): pass  # <out T>')).toBe('class A(Generic[T]): pass  # <out T>');
  });
});

describe('variance annotations parse through the shim', () => {
  const src = [
    "import * as core from './core';",
    'export interface ZodType<',
    '  out Output = unknown,',
    '  in Input = unknown,',
    '> extends core.$ZodType<Output, Input> {',
    '  parse(data: unknown): Output;',
    '}',
    'export function check<in T = never>(value: T): boolean {',
    '  if (value === undefined) {',
    '    return false;',
    '  }',
    '  return true;',
    '}',
    '',
  ].join('\n');
  it('parse() gives a tree without ERROR nodes', async () => {
    const tree = await parse('typescript', src);
    try { expect(isValidTree(tree)).toBe(true); } finally { tree.delete(); }
  });
  it('the structure sees the interface and the function as blocks', async () => {
    const s = await analyze(src, 'typescript');
    expect(s.errorCount).toBe(0);
    expect(s.closer[1]).toBe(6);
    expect(s.parent[9]).toBe(8);
    expect(s.parent[8]).toBe(7);
  });
  it('prune keeps lines byte-identical and reports the input as parsed', async () => {
    const r = await prune(src, { query: 'check returns false for undefined', tokens: 60, language: 'typescript' });
    expect(r.stats.inputParseOk).toBe(true);
    expect(r.stats.outputParseOk).toBe(true);
    const lines = src.split('\n');
    expect(r.keptLines).toContain(10);
    for (const l of r.keptLines) expect(r.text.split('\n')).toContain(lines[l - 1]);
  });
});
