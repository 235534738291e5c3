import { describe, expect, it } from 'vitest';
import { bracketFormat, bracketPairs } from '../../src/text/brackets.js';

describe('bracketPairs', () => {
  it('scans C family code: brackets in comments, strings and escaped character literals do not count', () => {
    const lines = ['int f(char c,', "       char q = '\\'')", '{', '  /* { */ g("}", \'{\'); // (', '  return 0;', '}'];
    expect(bracketPairs(lines, 'c')).toEqual([
      [0, 1],
      [2, 5],
    ]);
    expect(bracketPairs(['f(', '  1;', ']'], 'c')).toBeNull();
  });
  it('is no file format of its own', () => {
    expect(bracketFormat('main.c')).toBeNull();
  });
});
