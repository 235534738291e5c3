/** search_pruned's matcher runs caller patterns on RE2: linear time, never a hang (#16 item 2). */
import { describe, expect, it } from 'vitest';
import { makeMatcher } from '../src/matcher.js';

describe('makeMatcher', () => {
  it('catastrophic-backtracking patterns finish in linear time', () => {
    for (const p of ['(a+)+$', '(a|aa)+$', '(x+x+)+y', '^(([a-z])+.)+[A-Z]([a-z])+$', '(.*a){20}b']) {
      const m = makeMatcher(p);
      expect(m.kind, p).toBe('regex');
      const t0 = performance.now();
      // 36 a's and a '!' hung JavaScript's RegExp for good; 4,000 (the line cap) run here 200 times.
      expect(m.test('a'.repeat(36) + '!')).toBe(false);
      for (let i = 0; i < 200; i++) m.test('a'.repeat(4000) + '!');
      expect(performance.now() - t0, p).toBeLessThan(2000);
    }
  });

  it('JavaScript syntax that RE2 shares (or that is translated) keeps its meaning', () => {
    const cases: [string, string, boolean][] = [
      ['parse_?[rR]etry_?[aA]fter\\(', 'def parse_retry_after(value):', true],
      ['\\bfoo\\b', 'a foo b', true],
      ['\\bfoo\\b', 'afoob', false],
      ['(?<name>ab)c', 'xabc', true],
      ['\\u00e9t\\u00e9', 'un été', true],
      ['a\\/b', 'x a/b', true],
      ['^\\s*def\\s', '    def f():', true],
      ['\\d{3}-\\d{4}', 'call 555-1234', true],
      ['(?i)select', 'SELECT * FROM t', true], // RE2 flag syntax: a JS SyntaxError, a regex here
    ];
    for (const [p, line, hit] of cases) {
      const m = makeMatcher(p);
      expect(m.kind, p).toBe('regex');
      expect(m.test(line), `${p} on ${line}`).toBe(hit);
    }
  });

  it('patterns that do not compile in RE2 are searched literally, with the reason', () => {
    const cases: [string, RegExp][] = [
      ['min(self.burst', /^not RE2 syntax: missing closing \)/],
      ['foo(?=bar)', /^not RE2 syntax: invalid or unsupported Perl syntax/],
      ['(?<!x)y', /^not RE2 syntax/],
      ['(a)\\1', /^backreferences are not supported/],
      ['(?<q>a)\\k<q>', /^backreferences are not supported/],
      ['a{1001}', /^not RE2 syntax: invalid repeat count/],
    ];
    for (const [p, why] of cases) {
      const m = makeMatcher(p);
      expect(m.kind, p).toBe('literal');
      expect(m.why, p).toMatch(why);
      expect(m.test(`xx ${p} yy`), p).toBe(true);
      expect(m.test('foobar (a)a'), p).toBe(false);
    }
    // An escaped backslash before a digit is no backreference.
    expect(makeMatcher('C:\\\\1').kind).toBe('regex');
    expect(makeMatcher('C:\\\\1').test('C:\\1')).toBe(true);
  });
});
