import { describe, expect, it } from 'vitest';
import { MAX_WHOLE_SPAN } from '../../src/prune/policy.js';
import { Reason } from '../../src/prune/reasons.js';
import { buildRepairIndex, repairKeepSet } from '../../src/prune/repair.js';
import { pairDirectives, unseenNesting } from '../../src/syntax/directives.js';
import { analyze, errorRows, parse, splitLines } from '../../src/syntax/index.js';

function arrays(n: number) {
  return {
    parent: new Int32Array(n).fill(-1),
    blockEnd: new Int32Array(n).fill(-1),
    closer: new Int32Array(n).fill(-1),
    companionGroup: new Int32Array(n).fill(-1),
  };
}

describe('pairDirectives', () => {
  it('makes each #if a header closed by its #endif, with its #elif and #else as companions', () => {
    const lines = ['#if A', 'a();', '#elif B', 'b();', '#else', 'c();', '#endif', '#ifdef D', 'd();', '#endif'];
    const a = arrays(lines.length);
    pairDirectives(lines, a);
    expect(Array.from(a.blockEnd)).toEqual([6, -1, -1, -1, -1, -1, -1, 9, -1, -1]);
    expect(Array.from(a.closer)).toEqual([6, -1, -1, -1, -1, -1, -1, 9, -1, -1]);
    expect(Array.from(a.companionGroup)).toEqual([0, -1, 0, -1, 0, -1, -1, -1, -1, -1]);
    expect(Array.from(a.parent)).toEqual(new Array(lines.length).fill(-1));
  });
  it('pairs nested conditionals and C# regions, and leaves unmatched directives alone', () => {
    const lines = ['#region R', '#if A', '#  if B', 'x;', '#  endif', '#endif', '#endregion', '#endif', '#else'];
    const a = arrays(lines.length);
    pairDirectives(lines, a);
    expect(Array.from(a.blockEnd)).toEqual([6, 5, 4, -1, -1, -1, -1, -1, -1]);
    expect(Array.from(a.companionGroup)).toEqual(new Array(lines.length).fill(-1));
  });
  it('gives a line of a branch the parser did not see that branch as its parent', () => {
    const lines = ['void f() {', '#ifdef A', '  a();', '#else', '  b();', '#endif', '}'];
    // As a recovered parse saw them: the directives and the #else branch blanked.
    const parsed = ['void f() {', '      ', '  a();', '     ', '     ', '      ', '}'];
    const a = arrays(lines.length);
    a.parent.set([-1, 0, 0, 0, 0, 0, -1]);
    pairDirectives(lines, a, parsed);
    expect(Array.from(a.parent)).toEqual([-1, 0, 0, 0, 3, 0, -1]);
  });
  it('is part of the C family structure, not of other languages', async () => {
    const src = 'int a;\n#if X\nint b;\n#endif\n';
    const c = await analyze(src, 'c');
    expect([c.blockEnd[1], c.closer[1]]).toEqual([3, 3]);
    const py = await analyze('a = 1\n#if X\nb = 2\n#endif\n', 'python');
    expect(py.blockEnd[1]).toBe(-1);
  });
});

describe('unseenNesting', () => {
  // A member function in Allman style inside the #else branch, which recovery blanks: the class
  // head's conditional does not parse until the conditionals are flattened (shims-preprocessor.ts).
  const CLASS = [
    'class Widget', // 0
    '#if USE_BASE',
    '    : public Base',
    '#endif',
    '{',
    'public:', // 5
    '#ifdef FAST_PATH',
    '    int total() const { return cached_; }',
    '#else',
    '    int total() const',
    '    {', // 10
    '        int sum = 0;',
    '        for (int i = 0; i < count_; i++)',
    '        {',
    '            sum += weight(i);',
    '        }', // 15
    '        return sum;',
    '    }',
    '#endif',
    '',
    'private:', // 20
    '    int count_;',
    '};',
  ];

  it('nests the lines of a branch the parser did not see in their brackets, an Allman brace with its header', () => {
    const lines = ['void f()', '{', '#if A', '  a();', '#else', '  if (b)', '  {', '    g(1,', '      2);', '  }', '#endif', '}'];
    const parsed = lines.map((l, i) => (i >= 2 && i <= 10 ? l.replace(/./g, ' ') : l));
    const targets = unseenNesting(lines, parsed);
    expect(targets?.map((t) => [...t].sort((a, b) => a - b))).toEqual([[], [], [], [], [], [6], [5, 9], [6, 8, 9], [7, 8], [6, 9], [], []]);
    // Brackets that do not balance within the run (a branch that opens what another closes): none.
    expect(unseenNesting(['#if A', 'extern "C" {', '#endif', 'int x;'], ['', '', '', 'int x;'])).toBeNull();
  });

  it('keeps the header, braces and conditional around a kept line of the unseen branch, and the output parses', async () => {
    const text = CLASS.join('\n') + '\n';
    const st = await analyze(text, 'cpp');
    const keep = new Uint8Array(st.lineCount);
    const reason = new Uint8Array(st.lineCount);
    keep[14] = 1;
    reason[14] = Reason.Evidence;
    const opts = { syntactic: true, dependencies: false, language: 'cpp' as const, maxWholeSpan: MAX_WHOLE_SPAN, wholeSpans: null };
    repairKeepSet(keep, reason, st, opts, buildRepairIndex(st, splitLines(text), 'cpp'));
    const kept = [...keep].flatMap((k, i) => (k ? [i] : []));
    expect(kept).toEqual([0, 2, 4, 6, 8, 9, 10, 12, 13, 14, 15, 17, 18, 22]);
    const tree = await parse('cpp', kept.map((i) => CLASS[i]).join('\n') + '\n');
    try {
      expect(errorRows(tree)).toEqual([]);
    } finally {
      tree.delete();
    }
  });
});
