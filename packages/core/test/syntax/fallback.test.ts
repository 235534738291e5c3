import { describe, expect, it } from 'vitest';
import { analyze, analyzeByIndent, LineKind } from '../../src/syntax/index.js';
import { kinds, uses } from './helpers.js';

describe('analyzeByIndent', () => {
  it('indentation language: kinds, parents, clauses, lexical uses', () => {
    const src = 'import os\n\nLIMIT = 3\n\ndef go(x):\n    # note\n    if x > LIMIT:\n        return os.sep\n    else:\n        return go(x - 1)\n';
    const s = analyzeByIndent(src.split('\n'), null);
    expect(s.source).toBe('indent');
    expect(kinds(s)).toBe('IB.BHCK.L.B');
    expect(Array.from(s.parent)).toEqual([-1, -1, -1, -1, -1, 4, 4, 6, 4, 8, -1]);
    expect([s.blockEnd[4], s.blockEnd[6], s.blockEnd[8]]).toEqual([9, 7, 9]);
    expect([s.firstBodyLine[4], s.firstBodyLine[6], s.firstBodyLine[8]]).toEqual([6, 7, 9]);
    expect([s.companionGroup[6], s.companionGroup[8]]).toEqual([6, 6]);
    expect([uses(s, 6), uses(s, 7), uses(s, 9)]).toEqual([[2], [0], [4]]);
    expect(Array.from(s.spanStart)).toEqual(Array.from({ length: 11 }, (_, i) => i));
  });

  it('brace language: closers and else groups', () => {
    const src = '// helper\nfunction add(a, b) {\n  if (a) {\n    return a + b;\n  } else {\n    return b;\n  }\n}\nadd(1, 2);\n';
    const s = analyzeByIndent(src.split('\n'), 'javascript');
    expect(kinds(s)).toBe('CHK.L.XX.B');
    expect(Array.from(s.parent)).toEqual([-1, -1, 1, 2, 1, 4, 1, -1, -1, -1]);
    expect([s.closer[1], s.closer[2], s.closer[4]]).toEqual([7, 4, 6]);
    expect([s.companionGroup[2], s.companionGroup[4], s.companionGroup[6]]).toEqual([2, 2, 2]);
    expect(uses(s, 8)).toEqual([1]);
  });

  it('ignores a trailing \\r when classifying', () => {
    const s = analyzeByIndent(['x = 1\r', '\r', '}\r'], 'c');
    expect(Array.from(s.kind)).toEqual([LineKind.Code, LineKind.Blank, LineKind.Closer]);
  });
});

describe('analyze', () => {
  it('falls back to indentation without a language', async () => {
    const s = await analyze('a = 1\nif a:\n    b = a\n', null);
    expect(s.source).toBe('indent');
    expect(s.lineCount).toBe(4);
  });
  it('parses with a language; CRLF lines and lineCount = split length', async () => {
    const s = await analyze('def f():\r\n    return 1\r\n\r\nf()\r\n', 'python');
    expect(s.source).toBe('tree-sitter');
    expect(s.lineCount).toBe(5);
    expect(kinds(s)).toBe('H.B.B');
    expect(uses(s, 3)).toEqual([0]);
    expect(s.parent[1]).toBe(0);
  });
  it('reports parse errors', async () => {
    const s = await analyze('def f(:\n    return )\n', 'python');
    expect(s.errorCount).toBeGreaterThan(0);
  });
});
