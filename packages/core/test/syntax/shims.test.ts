import { describe, expect, it } from 'vitest';
import { shimForGrammar } from '../../src/syntax/shims.js';
import { blankBareAmpersands, blankEscapes } from '../../src/syntax/shims-typescript.js';
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
    const src =
      'export interface ZodType<\n  out Output = unknown,\n  out Internals extends core.$Z<Output> = core.$Z<Output>,\n> {}\nfunction f<in const T>(x: T) {}';
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
    try {
      expect(isValidTree(tree)).toBe(true);
    } finally {
      tree.delete();
    }
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

describe('shimForGrammar: the other constructs the grammar fails on', () => {
  it('variance after a comment, and after const', () => {
    const src = 'interface O<\n  /** @ts-ignore Cast variance */\n  out Shape extends S = S,\n> {}\nclass R<\n\tconst in out Code extends number,\n> {}';
    const out = shimForGrammar('typescript', src);
    expect(out).toBe('interface O<\n  /** @ts-ignore Cast variance */\n      Shape extends S = S,\n> {}\nclass R<\n\tconst        Code extends number,\n> {}');
  });
  it('export type * from', () => {
    expect(shimForGrammar('typescript', 'export type * from "./types";\nexport type { A } from "./a";')).toBe(
      'export      * from "./types";\nexport type { A } from "./a";',
    );
  });
  it('using as an identifier, but not a using declaration', () => {
    expect(shimForGrammar('typescript', 'using(using: X): this { this.using = using; using += 1 }\nusing res = get();\nawait using conn = open();')).toBe(
      'usin_(usin_: X): this { this.usin_ = usin_; usin_ += 1 }\nusing res = get();\nawait using conn = open();',
    );
    expect(shimForGrammar('javascript', 'using += (using ? "," : "using ");')).toBe('usin_ += (usin_ ? "," : "usin_ ");'); // (inside a string too: the parse copy only);
  });
  it('a generic call signature after another member gets its separator, in .ts only', () => {
    const src = 'const lookup: {\n  (k: string): <A>(r: R<A>) => O<A>\n  <A>(k: string, r: R<A>): O<A>\n} = RR.lookup';
    expect(shimForGrammar('typescript', src)).toBe('const lookup: {\n  (k: string): <A>(r: R<A>) => O<A>\n; <A>(k: string, r: R<A>): O<A>\n} = RR.lookup');
    expect(shimForGrammar('tsx', src)).toBe(src);
    // A type parameter list that opens alone on its line, with a default.
    const broken = 'interface O {\n  (a: A): B\n  <\n    T extends E = D,\n  >(b: T): C\n}';
    expect(shimForGrammar('typescript', broken)).toBe('interface O {\n  (a: A): B\n; <\n    T extends E = D,\n  >(b: T): C\n}');
    // Curried generic arrows and continued expressions are left alone.
    for (const same of [
      'const f = <T>(x: T) =>\n  <U>(y: U) => y',
      'f(a\n  <\n  b)',
      'const a = b,\n  <T>(x: T) => x',
      'x = y\n  < z',
      // A member already closed by ';', with comment lines between (got's GotPaginate).
      'interface P {\n\tall<T>(url: string): Promise<T[]>;\n\n\t// A bug.\n\t// eslint-disable-next-line adjacent-overload-signatures\n\t<T>(options?: O<T>): I<T>;\n}',
    ]) {
      expect(shimForGrammar('typescript', same)).toBe(same);
    }
  });
  it('every shimmed snippet parses without errors', async () => {
    for (const src of [
      'export interface O<\n  /** c */\n  out Shape extends S = S,\n> { a: Shape }\n',
      'export class R<\n\tconst in out Code extends number,\n\tT = Code,\n> { c!: Code }\n',
      'export type * from "./types";\n',
      'class A {\n  using(using: string): this { this.u = using; return this }\n}\nlet using = 1; using += 2;\n',
      'export const lookup: {\n  (k: string): <A>(r: Record<string, A>) => Option<A>\n  <A>(k: string, r: Record<string, A>): Option<A>\n} = RR.lookup\n',
      'export const filter: {\n  <A, B extends A>(r: Refinement<A, B>): (fa: Array<A>) => Array<B>\n  <A>(p: Predicate<A>): (fa: Array<A>) => Array<A>\n} = f\n',
      'interface O {\n  (a: A): B\n  <\n    T extends E = D,\n  >(b: T): C\n}\n',
    ]) {
      const tree = await parse('typescript', src);
      try {
        expect([src, isValidTree(tree)]).toEqual([src, true]);
      } finally {
        tree.delete();
      }
    }
  });
});

describe('TypeScript in a .tsx file', () => {
  it('is parsed as TSX, so its JSX does not count as errors', async () => {
    const src = 'export function Card({ title }: { title: string }) {\n  const label = title.trim();\n  return <div className="card">{label}</div>;\n}\n';
    const r = await prune(src, { query: 'card label', tokens: 40, language: 'typescript', fileName: 'src/Card.tsx' });
    expect(r.stats.language).toBe('tsx');
    expect(r.stats.inputParseOk).toBe(true);
  });
});

describe('recovery shims of the JavaScript family (tried only on a parse with errors)', () => {
  it('blankBareAmpersands: a bare & becomes a space; &&, &= and character references stay', () => {
    expect(blankBareAmpersands('      <h3>Side & Align</h3>')).toBe('      <h3>Side   Align</h3>');
    expect(blankBareAmpersands('<p>R&D &amp; more &#38; &#x26;</p>')).toBe('<p>R D &amp; more &#38; &#x26;</p>');
    expect(blankBareAmpersands('if (a && b) x &= y;')).toBe('if (a && b) x &= y;');
    expect(blankBareAmpersands('no ampersand')).toBe('no ampersand');
  });
  it('blankEscapes: an escape becomes two spaces, but not a quote’s', () => {
    expect(blankEscapes('  `Please install \\`${T}\\` to connect`;')).toBe('  `Please install   ${T}   to connect`;');
    expect(blankEscapes('type E = `a\\nb`; const s = "it\\"s", t = \'it\\\'s\';')).toBe('type E = `a  b`; const s = "it\\"s", t = \'it\\\'s\';');
  });
  it('JSX text with a bare & parses, in TSX and JavaScript', async () => {
    const src = 'export function Terms() {\n  return (\n    <div>\n      <p>Terms & Conditions</p>\n      <p>R&D</p>\n    </div>\n  );\n}\n';
    for (const lang of ['tsx', 'javascript'] as const) {
      const tree = await parse(lang, src);
      expect(isValidTree(tree)).toBe(true);
      expect(tree.rootNode.descendantsOfType('jsx_element').length).toBe(3);
      tree.delete();
    }
  });
  it('a template literal type with escapes parses', async () => {
    const src = 'export type ImportError<P extends string> =\n  `Please install \\`${P}\\` first`;\nexport type Lines = `a\\nb`;\n';
    const tree = await parse('typescript', src);
    expect(isValidTree(tree)).toBe(true);
    expect(tree.rootNode.descendantsOfType('template_literal_type').length).toBe(2);
    tree.delete();
  });
  it('a generic call signature after another member parses in TSX, and its JSX stays JSX', async () => {
    const src = [
      'interface Overloaded {',
      '  <T extends string = "a">(',
      '    props: T',
      '  ): JSX.Element',
      '  <',
      '    T,',
      '    U = number',
      '  >(props: T, u: U): JSX.Element',
      '}',
      'export const View = () => (',
      '  <div>',
      '    <span>x</span>',
      '  </div>',
      ');',
      '',
    ].join('\n');
    const tree = await parse('tsx', src);
    expect(isValidTree(tree)).toBe(true);
    expect(tree.rootNode.descendantsOfType('call_signature').length).toBe(2);
    expect(tree.rootNode.descendantsOfType('jsx_element').length).toBe(2);
    tree.delete();
  });
  it('a file that parses is not rewritten: a bitwise & stays an operator', async () => {
    const tree = await parse('javascript', 'const m = a & b;\nconst s = `x\\ny`;\n');
    expect(isValidTree(tree)).toBe(true);
    expect(tree.rootNode.descendantsOfType('binary_expression').length).toBe(1);
    tree.delete();
  });
});
