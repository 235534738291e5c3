/**
 * Line-level lexical helpers shared by the tree-based and the indentation-based analyzers (pure).
 */
import { languageEntry } from './grammars.js';
import type { LanguageId } from './types.js';
import { runSteps, STEP_LINES, type Steps } from '../util/steps.js';

// One line convention for the whole library (text/lines.ts), under the names the analyzers use.
export { splitLines, lineBody as stripCr, isBlank as isBlankLine } from '../text/lines.js';

const CLOSER_BRACE = /^[)\]}]+[\s)\]},;]*(\/\/.*|\/\*.*\*\/\s*)?$/;
const CLOSER_DO_WHILE = /^}\s*while\s*\(.*\)\s*;?\s*(\/\/.*)?$/;
const CLOSER_PY = /^[)\]}]+[\s)\]},]*(#.*)?$/;
const CLOSER_END = /^end\b[\s)\]},;]*(#.*)?$/;
const CLOSER_RUBY_BRACE = /^[)\]}]+[\s)\]},;]*(#.*)?$/;

/**
 * Whether a (trimmed, CR-free) line holds only closing delimiters for the language: `end` or
 * brackets with a `#` comment where blocks close with `end` (GrammarTable.endKeyword), brackets
 * with a `#` comment where blocks have no braces (bracelessBlocks), else brackets (or a do-while's
 * `} while (…)`) with a `//` or block comment; for an unknown language also `end`.
 */
export function isCloserLine(trimmed: string, lang: LanguageId | null): boolean {
  if (trimmed.length === 0) return false;
  const c = trimmed.charCodeAt(0);
  const table = languageEntry(lang);
  if (table?.endKeyword) return (c === 101 && CLOSER_END.test(trimmed)) || CLOSER_RUBY_BRACE.test(trimmed);
  if (table?.bracelessBlocks) return CLOSER_PY.test(trimmed);
  if (c !== 41 && c !== 93 && c !== 125) return lang === null && c === 101 && CLOSER_END.test(trimmed);
  return CLOSER_BRACE.test(trimmed) || CLOSER_DO_WHILE.test(trimmed);
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;
/** Definitions of one name visited one by one for each use; more are looked up by scope (useEdgeSteps). */
const SCAN_DEFS = 8;
const IDENT_JS = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** [A-Za-z_] (and $ for JS). */
function isIdentStart(c: number, js: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (js && c === 36);
}
/** [A-Za-z0-9_] (and $ for JS). */
function isIdentPart(c: number, js: boolean): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || (js && c === 36);
}

/** The identifier regex (global) for a language (with `$` where GrammarTable.dollarIdentifiers). */
export function identifierRegex(lang: LanguageId | null): RegExp {
  return languageEntry(lang)?.dollarIdentifiers ? IDENT_JS : IDENT;
}

/**
 * Turn (definition names per line, scope per definition line, parent chain) into CSR use edges:
 * for each line, the identifiers on it that resolve to a definition line (never itself).
 * Resolution: nearest preceding definition in an enclosing scope; else the nearest following one
 * in an enclosing scope; else the nearest definition anywhere. At most `cap` targets per line.
 */
export function buildUseEdges(...args: Parameters<typeof useEdgeSteps>): UseEdges {
  return runSteps(useEdgeSteps(...args));
}

export interface UseEdges {
  useOffsets: Int32Array;
  useTargets: Int32Array;
}

/** buildUseEdges as steps (util/steps.ts): a yield every STEP_LINES lines. */
export function* useEdgeSteps(
  lines: string[],
  skip: (row: number) => boolean,
  definedNames: Map<number, string[]>,
  defScope: Map<number, number>,
  parent: Int32Array,
  lang: LanguageId | null,
  cap = 16,
): Steps<UseEdges> {
  const n = lines.length;
  const byName = new Map<string, number[]>();
  const rows = [...definedNames.keys()].sort((a, b) => a - b);
  for (const row of rows) {
    for (const name of definedNames.get(row)!) {
      let list = byName.get(name);
      if (!list) byName.set(name, (list = []));
      if (list[list.length - 1] !== row) list.push(row);
    }
  }
  const scopeOf = new Int32Array(n).fill(-1);
  for (const [row, sc] of defScope) if (row < n) scopeOf[row] = sc;
  // For a name defined more than SCAN_DEFS times, its definition rows grouped by scope (each
  // list ascending), built at its first use: a use looks up the scopes on its chain by binary
  // search instead of visiting every definition (a method name defined in 3,000 classes made
  // this quadratic).
  const byScope = new Map<string, Map<number, number[]>>();
  const scopesOf = (name: string, list: number[]): Map<number, number[]> => {
    let m = byScope.get(name);
    if (!m) {
      byScope.set(name, (m = new Map<number, number[]>()));
      for (const d of list) {
        const sc = scopeOf[d];
        let rows = m.get(sc);
        if (!rows) m.set(sc, (rows = []));
        rows.push(d);
      }
    }
    return m;
  };
  const useOffsets = new Int32Array(n + 1);
  const targets: number[] = [];
  const js = identifierRegex(lang) === IDENT_JS;
  // Hashes of the defined names: identifiers are scanned without making strings, and only those
  // whose hash is a defined name's are sliced out and looked up.
  const hashes = new Set<number>();
  for (const name of byName.keys()) {
    let h = 0;
    for (let k = 0; k < name.length; k++) h = (Math.imul(h, 31) + name.charCodeAt(k)) | 0;
    hashes.add(h);
  }
  const chain: number[] = [];
  const seen = new Set<string>();
  const picked: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % STEP_LINES === STEP_LINES - 1) yield;
    useOffsets[i] = targets.length;
    if (skip(i) || byName.size === 0) continue;
    const line = lines[i];
    chain.length = 0;
    seen.clear();
    picked.length = 0;
    let chainReady = false;
    // The matches of identifierRegex(lang), left to right.
    const len = line.length;
    for (let p = 0; p < len;) {
      const c0 = line.charCodeAt(p);
      if (!isIdentStart(c0, js)) {
        p++;
        continue;
      }
      const start = p;
      let h = c0;
      for (p++; p < len; p++) {
        const c = line.charCodeAt(p);
        if (!isIdentPart(c, js)) break;
        h = (Math.imul(h, 31) + c) | 0;
      }
      if (!hashes.has(h)) continue;
      const name = line.slice(start, p);
      const cands = byName.get(name);
      if (!cands || seen.has(name)) continue;
      seen.add(name);
      if (!chainReady) {
        chainReady = true;
        chain.push(-1);
        for (let p = parent[i], guard = 0; p >= 0 && guard < 256; p = parent[p], guard++) chain.push(p);
      }
      // The nearest definition before the line in an enclosing scope, else the nearest after it,
      // else the nearest anywhere (the earlier one on a tie). Never the line itself.
      let before = -1;
      let after = -1;
      let t: number;
      if (cands.length <= SCAN_DEFS) {
        let any = -1;
        for (const d of cands) {
          if (d === i) continue;
          if (chain.includes(scopeOf[d])) {
            if (d < i) before = d;
            else if (after < 0) after = d;
          }
          if (any < 0 || Math.abs(d - i) < Math.abs(any - i)) any = d;
        }
        t = before >= 0 ? before : after >= 0 ? after : any;
      } else {
        const scopes = scopesOf(name, cands);
        for (const sc of chain) {
          const rows = scopes.get(sc);
          if (!rows) continue;
          const k = lowerBound(rows, i);
          if (k > 0 && rows[k - 1] > before) before = rows[k - 1];
          const a = k < rows.length && rows[k] === i ? k + 1 : k;
          if (a < rows.length && (after < 0 || rows[a] < after)) after = rows[a];
        }
        t = before >= 0 ? before : after;
        if (t < 0) {
          const k = lowerBound(cands, i);
          const prev = k > 0 ? cands[k - 1] : -1;
          const next = k < cands.length && cands[k] === i ? (k + 1 < cands.length ? cands[k + 1] : -1) : k < cands.length ? cands[k] : -1;
          t = prev >= 0 && (next < 0 || i - prev <= next - i) ? prev : next;
        }
      }
      if (t >= 0 && !picked.includes(t)) {
        picked.push(t);
        if (picked.length >= cap) break;
      }
    }
    picked.sort((a, b) => a - b);
    for (const t of picked) targets.push(t);
  }
  useOffsets[n] = targets.length;
  return { useOffsets, useTargets: Int32Array.from(targets) };
}

/** The first index of ascending `xs` whose value is ≥ `v` (`xs.length` when none). */
function lowerBound(xs: number[], v: number): number {
  let lo = 0,
    hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Merge overlapping multi-line spans (pairs start,end) and write them into the span arrays. */
export function applySpans(pairs: number[], spanStart: Int32Array, spanEnd: Int32Array): void {
  const n = pairs.length / 2;
  if (n === 0) return;
  const idx = Array.from({ length: n }, (_, k) => k).sort((a, b) => pairs[2 * a] - pairs[2 * b] || pairs[2 * b + 1] - pairs[2 * a + 1]);
  let s = pairs[2 * idx[0]];
  let e = pairs[2 * idx[0] + 1];
  const flush = () => {
    for (let r = s; r <= e && r < spanStart.length; r++) {
      spanStart[r] = s;
      spanEnd[r] = e;
    }
  };
  for (let k = 1; k < n; k++) {
    const a = pairs[2 * idx[k]];
    const b = pairs[2 * idx[k] + 1];
    if (a <= e) {
      if (b > e) e = b;
    } else {
      flush();
      s = a;
      e = b;
    }
  }
  flush();
}
