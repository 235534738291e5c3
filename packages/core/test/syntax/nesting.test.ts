import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/syntax/index.js';
import type { FileStructure } from '../../src/syntax/types.js';

/** 1-based line → the 1-based lines that keeping it in part needs. */
const nest = (s: FileStructure, line: number) =>
  Array.from(s.nestTargets.slice(s.nestOffsets[line - 1], s.nestOffsets[line]), (t) => t + 1);

describe('bracket nesting (buildNesting)', () => {
  const ts = [
    /* 1 */ 'const defaults = {',
    /* 2 */ '  retry: {',
    /* 3 */ '    limit: 2,',
    /* 4 */ '    methods: [',
    /* 5 */ "      'GET',",
    /* 6 */ '    ],',
    /* 7 */ '  },',
    /* 8 */ '  pagination: {',
    /* 9 */ '    paginate(response) {',
    /* 10 */ '      if (response.ok) {',
    /* 11 */ '        return false;',
    /* 12 */ '      }',
    /* 13 */ '    },',
    /* 14 */ '  },',
    /* 15 */ '};',
    /* 16 */ 'function f(a) {',
    /* 17 */ '  return a;',
    /* 18 */ '}',
  ].join('\n');

  it('typescript: each line needs the brackets around it, a line that opens one its close', async () => {
    const s = await analyze(ts, 'typescript');
    expect(nest(s, 5)).toEqual([4, 6]);
    expect(nest(s, 4)).toEqual([2, 7, 6]);
    expect(nest(s, 2)).toEqual([1, 15, 7]);
    expect(nest(s, 1)).toEqual([15]);
    // A method's body in an object literal is not a walked block: one more bracket.
    expect(nest(s, 11)).toEqual([10, 12]);
    expect(nest(s, 10)).toEqual([9, 13, 12]);
    expect(nest(s, 9)).toEqual([8, 14, 13]);
  });

  it('typescript: the lines of a walked body are outside every bracket', async () => {
    const s = await analyze(ts, 'typescript');
    expect(nest(s, 17)).toEqual([]);
    expect(nest(s, 18)).toEqual([]);
    expect(nest(s, 16)).toEqual([]);
  });

  it('python: call arguments, strings and parameters; body lines have none', async () => {
    const py = [
      /* 1 */ 'def f(',
      /* 2 */ '    a,',
      /* 3 */ '    b,',
      /* 4 */ '):',
      /* 5 */ '    """Doc',
      /* 6 */ '    more',
      /* 7 */ '    """',
      /* 8 */ '    x = g(',
      /* 9 */ '        [1,',
      /* 10 */ '         2],',
      /* 11 */ '    )',
      /* 12 */ '    return x',
    ].join('\n');
    const s = await analyze(py, 'python');
    expect(nest(s, 2)).toEqual([1, 4]);
    expect(nest(s, 4)).toEqual([1, 4]);
    expect(nest(s, 6)).toEqual([5, 7]);
    expect(nest(s, 10)).toEqual([9, 10]);
    expect(nest(s, 9)).toEqual([8, 11, 10]);
    expect(nest(s, 12)).toEqual([]);
  });

  it('no parse tree: no nesting', async () => {
    const s = await analyze('a = [\n  1,\n]\n', null);
    expect(s.nestOffsets).toEqual(new Int32Array(5));
    expect(s.nestTargets.length).toBe(0);
  });
});
