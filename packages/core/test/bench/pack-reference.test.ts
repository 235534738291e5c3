/**
 * Reference (a) of the pack benchmark is issue #19's definition, pinned here: its terms, its BM25
 * (path words three times, distinct query words once) and the test rule of the pool.
 */
import { describe, expect, it } from 'vitest';
import { benchTestPath, bm25PathOrder, referenceWords } from '../../src/bench/pack.js';

describe('pack benchmark reference (a)', () => {
  it('identifier words: split at underscores, case changes and digits, lowercased, nothing dropped', () => {
    expect(referenceWords('def parse_HTTPServer2(self, a): return utf8Value')).toEqual([
      'def',
      'parse',
      'http',
      'server',
      '2',
      'self',
      'a',
      'return',
      'utf',
      '8',
      'value',
    ]);
    // Only identifiers: a number on its own, punctuation and non-ASCII letters are not words.
    expect(referenceWords('x = 42 + é; `_pytest.capture`')).toEqual(['x', 'pytest', 'capture']);
    expect(referenceWords('src/_pytest/capture.py')).toEqual(['src', 'pytest', 'capture', 'py']);
  });

  it('path words count three times; the query counts each distinct word once', () => {
    const files = new Map([
      ['pkg/limiter.py', 'x = 1\n'],
      ['pkg/other.py', 'limiter = None\nlimiter = None\n'],
    ]);
    expect(bm25PathOrder(files, 'limiter')).toEqual(['pkg/limiter.py', 'pkg/other.py']);
    // Repeating a word in the task changes nothing.
    const many = new Map([
      ['a.py', 'alpha beta\n'],
      ['b.py', 'alpha alpha gamma\n'],
      ['c.py', 'beta beta beta\n'],
    ]);
    expect(bm25PathOrder(many, 'alpha beta beta beta')).toEqual(bm25PathOrder(many, 'alpha beta'));
    // Ties keep path order.
    expect(
      bm25PathOrder(
        new Map([
          ['b.py', ''],
          ['a.py', ''],
        ]),
        'nothing',
      ),
    ).toEqual(['a.py', 'b.py']);
  });

  it('tests are left out of the pool by one rule', () => {
    for (const p of [
      'tests/test_x.py',
      'testing/python/approx.py',
      'pkg/test/util.py',
      'pkg/test_util.py',
      'pkg/util_test.py',
      'conftest.py',
      'src/__tests__/a.ts',
      'src/a.test.ts',
      'b.spec.mjs',
    ])
      expect(benchTestPath(p), p).toBe(true);
    for (const p of ['src/_pytest/pytester.py', 'pylint/testutils/functional/find_functional_tests.py', 'doc/conf.py', 'examples/demo.py', 'src/testing.ts'])
      expect(benchTestPath(p), p).toBe(false);
  });
});
