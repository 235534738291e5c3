import { describe, expect, it } from 'vitest';
import { Reason } from '../../src/prune/reasons.js';
import { MAX_WHOLE_SPAN } from '../../src/prune/policy.js';
import { buildRepairIndex, repairKeepSet, type RepairOptions } from '../../src/prune/repair.js';
import type { LanguageId } from '../../src/syntax/types.js';
import { LineKind as K } from '../../src/syntax/types.js';
import { handStructure } from './structure-fixture.js';
import { analyze, errorRows, parse, splitLines } from '../../src/syntax/index.js';
import { renderKept } from '../../src/text/elision.js';

// 0 import os
// 1
// 2 class A:
// 3     def f(self):
// 4         try:
// 5             x = os.getcwd()
// 6         except OSError:
// 7             x = None
// 8         return x
const PY_LINES = [
  'import os',
  '',
  'class A:',
  '    def f(self):',
  '        try:',
  '            x = os.getcwd()',
  '        except OSError:',
  '            x = None',
  '        return x',
];
const py = handStructure(9, {
  kind: [K.Import, K.Blank, K.DefHeader, K.DefHeader, K.ControlHeader, K.Code, K.Clause, K.Code, K.Code],
  parent: [-1, -1, -1, 2, 3, 4, 3, 6, 3],
  blockEnd: { 2: 8, 3: 8, 4: 5, 6: 7 },
  firstBodyLine: { 2: 3, 3: 4, 4: 5, 6: 7 },
  companionGroup: { 4: 4, 6: 4 },
  uses: { 5: [0] },
});

/** The options prune() passes (pipeline.ts), with `over` changed. */
function options(language: LanguageId, over: Partial<RepairOptions> = {}): RepairOptions {
  return { syntactic: true, dependencies: true, language, maxWholeSpan: MAX_WHOLE_SPAN, wholeSpans: null, ...over };
}

function run(keepLines: number[], opts: { syntactic?: boolean; dependencies?: boolean } = {}) {
  const keep = new Uint8Array(py.lineCount);
  const reason = new Uint8Array(py.lineCount);
  for (const l of keepLines) {
    keep[l] = 1;
    reason[l] = Reason.Evidence;
  }
  repairKeepSet(keep, reason, py, options('python', opts), buildRepairIndex(py, PY_LINES, 'python'));
  return { kept: [...keep].flatMap((k, i) => (k ? [i] : [])), reason: Array.from(reason) };
}

describe('AST-aware repair', () => {
  it('adds scope headers, the try companions, a body for the except clause and the import used', () => {
    const r = run([5]);
    expect(r.kept).toEqual([0, 2, 3, 4, 5, 6, 7]);
    expect(r.reason).toEqual([Reason.Dependency, 0, Reason.Repair, Reason.Repair, Reason.Repair, Reason.Evidence, Reason.Repair, Reason.Repair, 0]);
  });

  it("a kept clause pulls its compound statement header and that header's body", () => {
    expect(run([7]).kept).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('a kept header alone gets its first body statement (Python blocks cannot be empty)', () => {
    expect(run([2]).kept).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('dependencies only: imports used, no syntax closure', () => {
    expect(run([5], { syntactic: false }).kept).toEqual([0, 5]);
  });

  it("a definition an evidence line uses is the dependency rubric's call, not repair's", () => {
    const uses = handStructure(9, {
      kind: [K.Import, K.Blank, K.DefHeader, K.DefHeader, K.ControlHeader, K.Code, K.Clause, K.Code, K.Code],
      parent: [-1, -1, -1, 2, 3, 4, 3, 6, 3],
      uses: { 5: [0, 7] },
    });
    const keep = new Uint8Array(9);
    const reason = new Uint8Array(9);
    keep[5] = 1;
    reason[5] = Reason.Evidence;
    repairKeepSet(keep, reason, uses, options('python', { syntactic: false }), buildRepairIndex(uses, PY_LINES, 'python'));
    expect([...keep].flatMap((k, i) => (k ? [i] : []))).toEqual([0, 5]);
  });

  it('an import list of five lines or more is kept in part: opener, the used name, source', () => {
    // 0 import {
    // 1   a,
    // 2   b,
    // 3   c,
    // 4   d,
    // 5 } from 'x';
    // 6 use(c);
    const ts = handStructure(7, {
      kind: [K.Import, K.Import, K.Import, K.Import, K.Import, K.Import, K.Code],
      parent: [-1, -1, -1, -1, -1, -1, -1],
      spans: [[0, 5]],
      uses: { 6: [3] },
      language: 'typescript',
    });
    const keep = new Uint8Array(7);
    const reason = new Uint8Array(7);
    keep[6] = 1;
    reason[6] = Reason.Evidence;
    repairKeepSet(keep, reason, ts, options('typescript'), buildRepairIndex(ts, [], 'typescript'));
    expect(Array.from(keep)).toEqual([1, 0, 0, 1, 0, 1, 1]);
    expect(Array.from(reason)).toEqual([Reason.Repair, 0, 0, Reason.Dependency, 0, Reason.Repair, Reason.Evidence]);
  });

  it('an import list kept by its first line keeps one name: `from m import ()` does not parse', () => {
    // 0 from m import (
    // 1     a,
    // 2     b,
    // 3     c,
    // 4     d,
    // 5 )
    const py5 = handStructure(6, {
      kind: [K.Import, K.Import, K.Import, K.Import, K.Import, K.Import],
      parent: [-1, -1, -1, -1, -1, -1],
      spans: [[0, 5]],
    });
    const keep = new Uint8Array(6);
    const reason = new Uint8Array(6);
    keep[0] = 1;
    reason[0] = Reason.Evidence;
    repairKeepSet(keep, reason, py5, options('python'), buildRepairIndex(py5, [], 'python'));
    expect(Array.from(keep)).toEqual([1, 1, 0, 0, 0, 1]);
    keep.fill(0);
    reason.fill(0);
    keep[0] = 1;
    keep[3] = 1;
    reason[0] = reason[3] = Reason.Evidence;
    repairKeepSet(keep, reason, py5, options('python'), buildRepairIndex(py5, [], 'python'));
    expect(Array.from(keep)).toEqual([1, 0, 0, 1, 0, 1]);
  });

  it('a statement spanning more than MAX_WHOLE_SPAN lines is kept in part, as prune() does', () => {
    // 0 def f():
    // 1     x = call(          span 1..1+d
    // 2         a0,            evidence
    //   …
    // 1+d     )
    // 2+d   return x
    const closeSpan = (d: number, over: Partial<RepairOptions> = {}) => {
      const n = d + 3;
      const st = handStructure(n, {
        kind: [K.DefHeader, ...Array<number>(d + 1).fill(K.Code), K.Code],
        parent: [-1, ...Array<number>(d + 2).fill(0)],
        blockEnd: { 0: n - 1 },
        firstBodyLine: { 0: 1 },
        spans: [[1, 1 + d]],
      });
      const keep = new Uint8Array(n);
      const reason = new Uint8Array(n);
      keep[2] = 1;
      reason[2] = Reason.Evidence;
      repairKeepSet(keep, reason, st, options('python', over), buildRepairIndex(st, [], 'python'));
      return { kept: [...keep].flatMap((k, i) => (k ? [i] : [])), reason: Array.from(reason) };
    };
    const d = MAX_WHOLE_SPAN;
    const partial = closeSpan(d);
    expect(partial.kept).toEqual([0, 1, 2, 1 + d]);
    expect(partial.reason[1]).toBe(Reason.Repair);
    expect(partial.reason[1 + d]).toBe(Reason.Repair);
    // One line shorter: whole.
    expect(closeSpan(d - 1).kept).toEqual(Array.from({ length: d + 1 }, (_, i) => i));
    // Marked whole (its partial form failed to parse): whole, and so with no limit.
    const marked = new Uint8Array(d + 3);
    marked[1] = 1;
    expect(closeSpan(d, { wholeSpans: marked }).kept).toEqual(Array.from({ length: d + 2 }, (_, i) => i));
    expect(closeSpan(d, { maxWholeSpan: Number.POSITIVE_INFINITY }).kept).toEqual(Array.from({ length: d + 2 }, (_, i) => i));
  });

  it('closers and multi-line spans in a brace language', () => {
    // 0 function f(a,
    // 1            b) {
    // 2   if (a) {
    // 3     g(a,
    // 4       b);
    // 5   }
    // 6 }
    const ts = handStructure(7, {
      kind: [K.DefHeader, K.DefHeader, K.ControlHeader, K.Code, K.Code, K.Closer, K.Closer],
      parent: [-1, -1, 0, 2, 2, 2, 0],
      spans: [
        [0, 1],
        [3, 4],
      ],
      blockEnd: { 0: 6, 1: 6, 2: 5 },
      closer: { 0: 6, 1: 6, 2: 5 },
      language: 'typescript',
    });
    const keep = new Uint8Array(7);
    const reason = new Uint8Array(7);
    keep[4] = 1;
    reason[4] = Reason.Evidence;
    repairKeepSet(keep, reason, ts, options('typescript'), buildRepairIndex(ts, [], 'typescript'));
    expect(Array.from(keep)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('a `try` keeps a handler, not the `}` that closes it on a line of its own before the `catch`', () => {
    // 0 int main() {
    // 1   try {
    // 2     run();
    // 3   }
    // 4   // failures
    // 5   catch (const std::exception &e) {
    // 6     return 1;
    // 7   }
    // 8 }
    const LINES = ['int main() {', '  try {', '    run();', '  }', '  // failures', '  catch (const std::exception &e) {', '    return 1;', '  }', '}'];
    const cpp = handStructure(9, {
      kind: [K.DefHeader, K.ControlHeader, K.Code, K.Closer, K.Comment, K.Clause, K.Code, K.Closer, K.Closer],
      parent: [-1, 0, 1, 0, 0, 0, 5, 0, -1],
      blockEnd: { 0: 8, 1: 3, 5: 7 },
      closer: { 0: 8, 1: 3, 5: 7 },
      companionGroup: { 1: 1, 3: 1, 5: 1, 7: 1 },
      language: 'cpp',
    });
    const keep = new Uint8Array(9);
    const reason = new Uint8Array(9);
    keep[2] = 1;
    reason[2] = Reason.Evidence;
    repairKeepSet(keep, reason, cpp, options('cpp'), buildRepairIndex(cpp, LINES, 'cpp'));
    expect([...keep].flatMap((k, i) => (k ? [i] : []))).toEqual([0, 1, 2, 3, 5, 7, 8]);
  });

  // A function in a function, an `if` in the inner one.
  const NESTED_LINES = ['function makeClient(http) {', '  function send(req) {', '    if (req.retry) {', '      return http.retry(req);', '    }', '  }', '}'];
  const nested = handStructure(7, {
    kind: [K.DefHeader, K.DefHeader, K.ControlHeader, K.Code, K.Closer, K.Closer, K.Closer],
    parent: [-1, 0, 1, 2, 1, 0, -1],
    blockEnd: { 0: 6, 1: 5, 2: 4 },
    closer: { 0: 6, 1: 5, 2: 4 },
    language: 'typescript',
  });
  const closeNested = (keptLine: number, over: Partial<RepairOptions>) => {
    const keep = new Uint8Array(7);
    const reason = new Uint8Array(7);
    keep[keptLine] = 1;
    reason[keptLine] = Reason.Evidence;
    repairKeepSet(keep, reason, nested, options('typescript', over), buildRepairIndex(nested, NESTED_LINES, 'typescript'));
    return [...keep].flatMap((k, i) => (k ? [i] : []));
  };

  it('shallow: a function keeps its own header, closer and control headers, not the function around it', () => {
    expect(closeNested(3, { shallow: true })).toEqual([1, 2, 3, 4, 5]);
    expect(closeNested(3, { shallow: false })).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('shallow: a line of a multi-line definition header is the header, and does not bring the scope around it', () => {
    // The header's continuation lines have the outer function as parent (they are not in the inner body).
    const LINES = ['export function createFetch() {', '  const raw = async function (', '    request,', '  ) {', '    return send(request);', '  };', '}'];
    const ts = handStructure(7, {
      kind: [K.DefHeader, K.DefHeader, K.Code, K.Code, K.Code, K.Closer, K.Closer],
      parent: [-1, 0, 0, 0, 1, 0, -1],
      blockEnd: { 0: 6, 1: 5 },
      closer: { 0: 6, 1: 5 },
      spans: [[1, 3]],
      language: 'typescript',
    });
    const keep = new Uint8Array(7);
    const reason = new Uint8Array(7);
    keep[4] = 1;
    reason[4] = Reason.Evidence;
    repairKeepSet(keep, reason, ts, options('typescript', { shallow: true }), buildRepairIndex(ts, LINES, 'typescript'));
    expect([...keep].flatMap((k, i) => (k ? [i] : []))).toEqual([1, 2, 3, 4, 5]);
  });

  it('flat: a line keeps its innermost definition, not the control headers between', () => {
    expect(closeNested(3, { shallow: true, flat: true })).toEqual([1, 3, 5]);
    // A kept control header still closes its own block.
    expect(closeNested(2, { shallow: true, flat: true })).toEqual([1, 2, 4, 5]);
  });

  it('shallow: a method keeps the class it is a member of where it does not parse alone (TypeScript), not in Python', () => {
    const shallowClose = (language: LanguageId, lines: string[], closers: boolean) => {
      const st = handStructure(closers ? 5 : 3, {
        kind: closers ? [K.DefHeader, K.DefHeader, K.Code, K.Closer, K.Closer] : [K.DefHeader, K.DefHeader, K.Code],
        parent: closers ? [-1, 0, 1, 0, -1] : [-1, 0, 1],
        blockEnd: closers ? { 0: 4, 1: 3 } : { 0: 2, 1: 2 },
        closer: closers ? { 0: 4, 1: 3 } : {},
        firstBodyLine: closers ? {} : { 0: 1, 1: 2 },
        classLike: [0],
        language,
      });
      const keep = new Uint8Array(st.lineCount);
      const reason = new Uint8Array(st.lineCount);
      keep[2] = 1;
      reason[2] = Reason.Evidence;
      repairKeepSet(keep, reason, st, options(language, { shallow: true }), buildRepairIndex(st, lines, language));
      return [...keep].flatMap((k, i) => (k ? [i] : []));
    };
    expect(shallowClose('typescript', ['export class Client {', '  send(req: Req) {', '    return this.http.send(req);', '  }', '}'], true)).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect(shallowClose('python', ['class Client:', '    def send(self, req):', '        return self.http.send(req)'], false)).toEqual([1, 2]);
  });
});

describe('repair: a lone empty bare block (C++)', () => {
  // 0 int reset_counter(void)
  // 1 {
  // 2     {
  // 3         total = 0;
  // 4         steps = 0;
  // 5     }
  // 6     tick();
  // 7     return 1;
  // 8 }
  const LINES = ['int reset_counter(void)', '{', '    {', '        total = 0;', '        steps = 0;', '    }', '    tick();', '    return 1;', '}'];

  async function closeAndRender(language: 'c' | 'cpp', keepLines: number[]) {
    const text = LINES.join('\n') + '\n';
    const st = await analyze(text, language);
    const keep = new Uint8Array(st.lineCount);
    const reason = new Uint8Array(st.lineCount);
    for (const l of keepLines) {
      keep[l] = 1;
      reason[l] = Reason.Evidence;
    }
    repairKeepSet(keep, reason, st, options(language, { dependencies: false }), buildRepairIndex(st, splitLines(text), language));
    const { text: out } = renderKept(splitLines(text), keep, '//', '');
    const tree = await parse(language, out);
    try {
      return { kept: [...keep].flatMap((k, i) => (k ? [i] : [])), errors: errorRows(tree).length };
    } finally {
      tree.delete();
    }
  }

  it('keeps the first statement of a bare block that would be all its function body keeps, empty', async () => {
    // `int f() { { } }` reads as a declaration with a brace initializer in tree-sitter-cpp.
    expect(await closeAndRender('cpp', [2])).toEqual({ kept: [0, 1, 2, 3, 5, 8], errors: 0 });
  });

  it('leaves the bare block empty where another statement of the body is kept, and in C', async () => {
    expect(await closeAndRender('cpp', [2, 7])).toEqual({ kept: [0, 1, 2, 5, 7, 8], errors: 0 });
    expect(await closeAndRender('c', [2])).toEqual({ kept: [0, 1, 2, 5, 8], errors: 0 });
  });
});

describe('repair: long else-if chains in a brace language', () => {
  /** `function f(x) {`, a chain of `links` clauses (`if`, then `} else if`), its `}`, the function's `}`. */
  function chain(links: number): string[] {
    const lines = ['function f(x) {'];
    for (let i = 0; i < links; i++) lines.push(`  ${i ? '} else ' : ''}if (x === ${i}) {`, `    return g${i}(x);`);
    return [...lines, '  }', '}'];
  }

  async function closeAndRender(lines: string[], keepLine: number) {
    const text = lines.join('\n') + '\n';
    const st = await analyze(text, 'typescript');
    const keep = new Uint8Array(st.lineCount);
    const reason = new Uint8Array(st.lineCount);
    keep[keepLine] = 1;
    reason[keepLine] = Reason.Evidence;
    repairKeepSet(keep, reason, st, options('typescript', { dependencies: false }), buildRepairIndex(st, splitLines(text), 'typescript'));
    const { text: out } = renderKept(splitLines(text), keep, '//', '');
    const tree = await parse('typescript', out);
    try {
      return { kept: [...keep].flatMap((k, i) => (k ? [i] : [])), errors: errorRows(tree).length };
    } finally {
      tree.delete();
    }
  }

  it('a clause of a long chain keeps the head and the chain’s last `}`, not every clause around it', async () => {
    // 12 links: line 1 is the `if`, clause k's header is line 2k+1, its body 2k+2; 25 is the chain's `}`.
    const lines = chain(12);
    expect(await closeAndRender(lines, 14)).toEqual({ kept: [0, 1, 13, 14, 25, 26], errors: 0 });
  });

  it('a chain shorter than LONG_CHAIN lines keeps the clauses around the kept one, as before', async () => {
    // 3 links (`if`, two `else if`, `}`: 4 lines): the second clause's body keeps the clauses before and after it.
    const lines = chain(3);
    expect(await closeAndRender(lines, 4)).toEqual({ kept: [0, 1, 3, 4, 5, 7, 8], errors: 0 });
  });
});
