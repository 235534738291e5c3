import { describe, expect, it } from 'vitest';
import { pairDirectives } from '../../src/syntax/directives.js';
import { analyze } from '../../src/syntax/index.js';

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
