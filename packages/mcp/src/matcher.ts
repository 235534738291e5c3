/**
 * search_pruned's line matcher. Caller patterns run on RE2 (re2js): linear time in the line's
 * length whatever the pattern, so `(a+)+$` cannot hang the server the way a backtracking
 * JavaScript RegExp does. A pattern that does not compile in RE2 syntax is searched as a literal
 * string, and the header says why.
 *
 * Differences from JavaScript RegExp, all documented in the tool description: no lookahead or
 * lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`) and no backreferences (`\1`, `\k<name>`): such
 * patterns are searched literally; `\s` is ASCII whitespace; repeat counts stop at 1000.
 * JavaScript spellings RE2 lacks (`\uXXXX`, `\cX`, `(?<name>`, `\/`) are translated first.
 */
import { RE2JS } from 're2js';

export interface LineMatcher {
  test: (line: string) => boolean;
  kind: 'regex' | 'literal';
  /** For a literal fallback: why the pattern was not used as a regex. */
  why?: string;
}

/** Build the search matcher: an RE2 regex when `pattern` compiles as one, else the literal string. */
export function makeMatcher(pattern: string): LineMatcher {
  let why: string;
  if (/\\k<|\\[1-9]/.test(pattern.replace(/\\\\/g, ''))) {
    why = 'backreferences are not supported (RE2 syntax)';
  } else {
    try {
      const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
      return { test: (l) => re.test(l), kind: 'regex' };
    } catch (e) {
      why = `not RE2 syntax: ${(e instanceof Error ? e.message : String(e))
        .replace(/^error parsing regexp: /, '')
        .split('\n')[0]
        .slice(0, 120)}`;
    }
  }
  return { test: (l) => l.includes(pattern), kind: 'literal', why };
}
