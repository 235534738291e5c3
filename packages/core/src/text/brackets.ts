/**
 * Bracket nesting of data and style files that have no grammar here (TOML, JSON, CSS, YAML's
 * flow collections): a kept line inside `deps = [` … `]` or `.a {` … `}` needs the lines that
 * open and close each bracket around it, or the pruned text leaves an array or a block unclosed.
 * A lexical scan: brackets inside quoted strings and comments do not count; a bracket left
 * unmatched (a parse the scan cannot follow) gives up on the whole file (no nesting, as before).
 * Same shape as syntax/nesting.ts's, so the repair closes over it unchanged. The C family's code
 * is scanned too (`c`, no file format: for the lines its parse did not see, syntax/directives.ts).
 */
import type { Nesting } from '../syntax/nesting.js';

const FORMATS: Record<string, { hash: boolean; slash: boolean }> = {
  toml: { hash: true, slash: false },
  yaml: { hash: true, slash: false },
  yml: { hash: true, slash: false },
  json: { hash: false, slash: true },
  jsonc: { hash: false, slash: true },
  json5: { hash: false, slash: true },
  css: { hash: false, slash: true },
  scss: { hash: false, slash: true },
  less: { hash: false, slash: true },
};

/** The file's format when it is one whose brackets this scan follows, else null. */
export function bracketFormat(fileName?: string | null): string | null {
  const base = (fileName ?? '').replace(/\\/g, '/').split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = dot >= 0 ? base.slice(dot + 1).toLowerCase() : '';
  return Object.prototype.hasOwnProperty.call(FORMATS, ext) ? ext : null;
}

/** C, C++ and C# code: line and block comments, strings and character literals with escapes. */
const C_CODE = { hash: false, slash: true };

const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** The bracket nesting of `lines` in `format` (from bracketFormat), or null when the scan cannot follow it. */
export function bracketNesting(lines: readonly string[], format: string): Nesting | null {
  const pairs = bracketPairs(lines, format);
  return pairs && toNesting(pairTargets(lines.length, pairs));
}

/**
 * The brackets of `lines` in `format` (from bracketFormat, or `c`) that open and close on different
 * lines, as [opening line, closing line]; null when the scan cannot follow them.
 */
export function bracketPairs(lines: readonly string[], format: string): [number, number][] | null {
  const f = format === 'c' ? C_CODE : FORMATS[format];
  if (!f) return null;
  const n = lines.length;
  const stack: { ch: string; line: number }[] = [];
  const pairs: [number, number][] = [];
  let inBlock = false;
  let tripleQuote: string | null = null; // TOML's multi-line strings
  for (let i = 0; i < n; i++) {
    const s = lines[i];
    let quote: string | null = null;
    for (let c = 0; c < s.length; c++) {
      const ch = s[c];
      if (tripleQuote) {
        if (s.startsWith(tripleQuote, c)) {
          c += 2;
          tripleQuote = null;
        }
        continue;
      }
      if (inBlock) {
        if (ch === '*' && s[c + 1] === '/') {
          inBlock = false;
          c++;
        }
        continue;
      }
      if (quote) {
        if (ch === '\\' && (quote === '"' || f === C_CODE)) c++;
        else if (ch === quote) quote = null;
        continue;
      }
      if (format === 'toml' && (s.startsWith('"""', c) || s.startsWith("'''", c))) {
        tripleQuote = s.slice(c, c + 3);
        c += 2;
        continue;
      }
      if (ch === '"' || (ch === "'" && format !== 'json')) {
        quote = ch;
        continue;
      }
      if (f.hash && ch === '#') break;
      if (f.slash && ch === '/' && s[c + 1] === '/' && format !== 'css') break;
      if (f.slash && ch === '/' && s[c + 1] === '*') {
        inBlock = true;
        c++;
        continue;
      }
      if (ch === '(' || ch === '[' || ch === '{') stack.push({ ch, line: i });
      else if (ch === ')' || ch === ']' || ch === '}') {
        const top = stack.pop();
        if (!top || top.ch !== PAIRS[ch]) return null;
        if (top.line < i) pairs.push([top.line, i]);
      }
    }
    // A quote left open at the end of a line is YAML prose or an apostrophe, not a string.
  }
  if (stack.length || inBlock || tripleQuote) return null;
  return pairs;
}

/**
 * Per line, the lines keeping it needs under bracket `pairs` (from bracketPairs): the opener and
 * closer of its innermost pair, and the closer of each pair it opens.
 */
export function pairTargets(n: number, pairs: readonly [number, number][]): number[][] {
  // Per line: the opener and closer of its innermost multi-line pair that starts earlier, and
  // the closer of each pair that starts on it.
  const inner = new Int32Array(n).fill(-1);
  // Pairs in order of their opening (outer first for equal openers: longer first), so inner overwrite outer.
  const byOpen = pairs.map((p, k) => k).sort((a, b) => pairs[a][0] - pairs[b][0] || pairs[b][1] - pairs[a][1]);
  for (const k of byOpen) {
    const [o, c] = pairs[k];
    for (let x = o + 1; x <= c; x++) inner[x] = k;
  }
  const targets: number[][] = Array.from({ length: n }, () => []);
  for (let x = 0; x < n; x++)
    if (inner[x] >= 0) {
      const [o, c] = pairs[inner[x]];
      targets[x].push(o, c);
    }
  for (const [o, c] of pairs) targets[o].push(c);
  return targets;
}

/** Per-line target lists as a Nesting (CSR). */
export function toNesting(targets: readonly (readonly number[])[]): Nesting {
  const n = targets.length;
  const nestOffsets = new Int32Array(n + 1);
  for (let x = 0; x < n; x++) nestOffsets[x + 1] = nestOffsets[x] + targets[x].length;
  const nestTargets = new Int32Array(nestOffsets[n]);
  for (let x = 0; x < n; x++) nestTargets.set(targets[x], nestOffsets[x]);
  return { nestOffsets, nestTargets };
}
