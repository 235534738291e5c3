/**
 * Query and code are compared on identifier parts: `parseHeaderValue` → parse, header, value,
 * plus the whole compound `parseheadervalue` so exact identifiers weigh more than their parts.
 * A short query and the lines it is matched with also carry the parts' stems (queryTermsOf), so
 * that "Fixed parsing of headers" meets `parseHeader` while an exact word still matches twice,
 * and compare the words code shortens by their group (text/abbreviations.ts): "configuration"
 * meets `cfg`.
 */
import { stem } from './stem.js';
import { abbreviationKey } from './abbreviations.js';

const WORD_RE = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+/g;

export const STOPWORDS = new Set(
  (
    'a an the and or not of to in on at by for with from as is are was were be been being it its this that these those ' +
    'there here then than so if else elif when while do does did done doing can could should would will shall may might must ' +
    'i we you he she they me us my our your their them his her what which who whom how why where all any some no yes ' +
    'into out up down over under again further once only own same too very just also but about above below after before ' +
    'between through during each few more most other such both nor get got has have had having use used using make made ' +
    'def function fn func return returns class self this let const var new import from export default public private protected ' +
    'static void int str string bool true false none null nil undefined async await pass end begin try except catch finally ' +
    'raise throw throws package lambda yield type interface struct impl enum trait mut pub mod use crate super'
  ).split(' '),
);

const UPPER = 1,
  LOWER = 2,
  DIGIT = 3,
  SEP = 4;
function charClass(c: number): number {
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 48 && c <= 57) return DIGIT;
  return SEP; // '_' and '$'
}

/**
 * Split an identifier into lowercase parts (camelCase, PascalCase, acronyms, snake_case).
 * A hand-written scanner: this runs for every word of every line, so no regex chains.
 */
export function identifierParts(word: string): string[] {
  const parts: string[] = [];
  let start = -1;
  const n = word.length;
  for (let i = 0; i < n; i++) {
    const c = charClass(word.charCodeAt(i));
    if (c === SEP) {
      if (start >= 0) {
        parts.push(word.slice(start, i).toLowerCase());
        start = -1;
      }
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    const prev = charClass(word.charCodeAt(i - 1));
    // aB → a|B and ABc → A|Bc; letters and digits stay together (utf8, http2)
    const boundary =
      (c === UPPER && (prev === LOWER || prev === DIGIT)) || (c === UPPER && prev === UPPER && i + 1 < n && charClass(word.charCodeAt(i + 1)) === LOWER);
    if (boundary) {
      parts.push(word.slice(start, i).toLowerCase());
      start = i;
    }
  }
  if (start >= 0) parts.push(word.slice(start).toLowerCase());
  return parts;
}

/** Terms of one word, memoised: the same identifiers recur on every line of a file. */
const MAX_CACHED_WORDS = 50_000;
const wordTerms = new Map<string, readonly string[]>();
const wordStems = new Map<string, readonly string[]>();

function termsOfWord(w: string, stemmed: boolean): readonly string[] {
  const cache = stemmed ? wordStems : wordTerms;
  let terms = cache.get(w);
  if (terms === undefined) {
    const parts = identifierParts(w);
    const out: string[] = [];
    if (parts.length > 1) {
      const whole = parts.join('');
      if (!STOPWORDS.has(whole)) out.push(whole);
    }
    // Numbers of two digits or more are kept: error codes, ports, limits are often what a query names.
    // Stopwords are dropped as written (`this` would stem to `thi`); a part's stem follows it when it
    // differs. Stems alone (each part replaced by its stem) kept the same recall on validation but let
    // a docstring's "retries" outrank the `Retry-After` line of the playground's own sample.
    for (const p of parts) {
      if (p.length < 2 || STOPWORDS.has(p)) continue;
      // Stemmed, a word code shortens stands as its group's term (`cfg`, `config` → config~): one
      // term as the word was, so an exact match weighs what it did (an added term tipped TypeScript
      // 8× toward `props` and `useCallback`), and the long and short forms now meet.
      if (!stemmed) {
        out.push(p);
        continue;
      }
      out.push(abbreviationKey(p) ?? p);
      const s = stem(p);
      if (s !== p) out.push(s);
    }
    if (cache.size >= MAX_CACHED_WORDS) cache.clear();
    cache.set(w, (terms = out));
  }
  return terms;
}

/**
 * Terms of a text: each identifier's parts (≥ 2 chars, not stopwords) and, for compound
 * identifiers, the whole lowercased identifier. `stemmed`: each part followed by its Porter stem
 * where that differs (`cookies` → cookies, cooki; `parsing` → parsing, pars), and a part code
 * shortens replaced by its group's term (`cfg` → config~; `configurations` → config~, configur).
 */
export function termsOf(text: string, out: string[] = [], stemmed = false): string[] {
  WORD_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD_RE.exec(text))) {
    const w = m[0];
    if (w.length > 64) continue;
    const terms = termsOfWord(w, stemmed);
    for (let i = 0; i < terms.length; i++) out.push(terms[i]);
  }
  return out;
}

/**
 * A query of at most this many terms is matched on stems. Commit messages and descriptions (median
 * 7 terms on the validation corpus) gained from stems; bug reports (median 72: tracebacks, quoted
 * code) lost, their words already being the code's own, so they are matched as written.
 */
export const STEMMED_QUERY_MAX_TERMS = 32;

/**
 * A query's terms, and whether it and the lines it is matched with are compared on stems (never
 * when `stems` is false).
 */
export function queryTermsOf(query: string, stems = true): { terms: string[]; stemmed: boolean } {
  const written = termsOf(query);
  const stemmed = stems && written.length > 0 && written.length <= STEMMED_QUERY_MAX_TERMS;
  return { terms: stemmed ? termsOf(query, [], true) : written, stemmed };
}

/** The term termsOf gives a whole name (a definition's): its compound, or its one part (stemmed). */
export function nameTerm(name: string, stemmed: boolean): string {
  const parts = identifierParts(name);
  return parts.length === 1 && stemmed ? (abbreviationKey(parts[0]) ?? stem(parts[0])) : parts.join('');
}
