/**
 * Preprocessor conditionals as structure (C, C++, C#: GrammarTable.directives). tree-sitter reads a
 * directive as a line of its own, or a recovered parse (recovery.ts) as a blank one, so the tree
 * does not tie an `#if` to its `#endif`: an output that kept one without the other did not parse.
 * Here each `#if`/`#ifdef`/`#ifndef` (and C#'s `#region`) is a block header whose closer is its
 * `#endif` (`#endregion`), and its `#elif`/`#else` lines are its companions: repair keeps an `#if`
 * with its `#endif`, and an `#else` with both. A line of a branch that the parser did not see (a
 * recovered parse keeps one branch of each conditional) has that branch's directive as its parent,
 * so that it is kept inside its conditional, where a reparse of the output drops it again; and the
 * brackets around it as its nesting (unseenNesting), so that the braces of that branch balance.
 * Unmatched directives are left alone. Pure: lines and the analysis' arrays in, the arrays updated.
 */
import { SPAN_CALL, closeAcross } from './shims-macros.js';
import { bracketPairs, pairTargets } from '../text/brackets.js';
import { blank } from './shims-preprocessor.js';

const OPEN = /^\s*#\s*(?:if|ifdef|ifndef|region)\b/;
const MIDDLE = /^\s*#\s*(?:elif|elifdef|elifndef|else)\b/;
const CLOSE = /^\s*#\s*(?:endif|endregion)\b/;
const REGION = /^\s*#\s*(?:region|endregion)\b/;

export interface DirectiveArrays {
  parent: Int32Array;
  blockEnd: Int32Array;
  closer: Int32Array;
  companionGroup: Int32Array;
}

/**
 * Tie each conditional's directives together; a row the tree already made a header or a companion
 * keeps that. `parsed`: the lines as the parser saw them (after recovery), when they may differ.
 */
export function pairDirectives(lines: readonly string[], a: DirectiveArrays, parsed?: readonly string[]): void {
  const open: { row: number; branch: number; middles: number[]; region: boolean }[] = [];
  const free = (r: number) => a.blockEnd[r] < 0 && a.companionGroup[r] < 0;
  const unseen = (r: number) => parsed !== undefined && parsed[r].trim() === '' && lines[r].trim() !== '';
  /** The innermost open conditional (not a region), or -1. */
  const innermost = () => {
    let k = open.length - 1;
    while (k >= 0 && open[k].region) k--;
    return k;
  };
  for (let r = 0; r < lines.length; r++) {
    const line = lines[r];
    if (parsed !== undefined && unseen(r) && free(r)) tieInvocation(lines, a, parsed, r);
    const kind = !line.includes('#') ? null : OPEN.test(line) ? 'open' : MIDDLE.test(line) ? 'middle' : CLOSE.test(line) ? 'close' : null;
    if ((kind === null || kind === 'open') && unseen(r)) {
      const k = innermost();
      if (k >= 0) a.parent[r] = open[k].branch;
    }
    if (kind === 'open') {
      open.push({ row: r, branch: r, middles: [], region: REGION.test(line) });
    } else if (kind === 'middle') {
      const k = innermost();
      if (k >= 0) {
        open[k].middles.push(r);
        open[k].branch = r;
      }
    } else if (kind === 'close') {
      // The innermost open directive of the same kind (a stray `#endregion` inside an `#if` does not close it).
      const region = REGION.test(line);
      let k = open.length - 1;
      while (k >= 0 && open[k].region !== region) k--;
      if (k < 0) continue;
      const { row, middles } = open[k];
      open.splice(k, 1);
      if (!free(row) || middles.some((m) => !free(m))) continue;
      a.blockEnd[row] = r;
      a.closer[row] = r;
      if (middles.length) {
        a.companionGroup[row] = row;
        for (const m of middles) a.companionGroup[m] = row;
      }
    }
  }
}

/**
 * A macro's invocation over several lines that recovery blanked (shims-macros.ts:
 * `CHECK(f(a,\n  b))`, or `EXPECT_X(\n  f(throw 1),\n  "");` whose `;` stays): its first line is a
 * header whose closer is its last, the lines between are its children, so that an output keeps its
 * last line only with its first.
 */
function tieInvocation(lines: readonly string[], a: DirectiveArrays, parsed: readonly string[], r: number): void {
  const call = SPAN_CALL.exec(lines[r]);
  if (!call) return;
  const end = closeAcross(lines, r, call[0].length - 1);
  if (!end || end[0] === r) return;
  for (let x = r + 1; x <= end[0]; x++) {
    // The last line keeps what follows the invocation (`"");` leaves its `;` to the parser).
    const seen = x === end[0] ? parsed[x].slice(0, end[1] + 1) : parsed[x];
    if (seen.trim() !== '' || a.blockEnd[x] >= 0 || a.companionGroup[x] >= 0) return;
  }
  a.blockEnd[r] = end[0];
  a.closer[r] = end[0];
  for (let x = r + 1; x <= end[0]; x++) a.parent[x] = r;
}

/** A line that cannot be the header of a `{` on the next line: it ends a statement, an element or a label. */
const NOT_HEADER = /[;,{}:]\s*$/;
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;

/**
 * Bracket nesting for the lines the parser did not see (a branch recovery blanked, a macro
 * invocation it blanked): the tree gives them none, so a kept line there kept no brace around it,
 * and an output whose branch's braces do not balance does not parse. Each run of lines blank in the
 * parse is scanned for its brackets (text/brackets.ts; its directives, tied by pairDirectives, left
 * out), with nesting.ts's meaning: a line inside brackets needs the lines that open and close them.
 * A `{` that begins its line (Allman style) and its header, the line before it, need each other,
 * and an `else` or `catch` header needs the `}` before it. A run whose brackets do not balance
 * (`extern "C" {` alone in its branch) gets none. Per line, the lines it needs; null when none.
 */
export function unseenNesting(lines: readonly string[], parsed: readonly string[]): number[][] | null {
  const n = lines.length;
  let out: number[][] | null = null;
  for (let s = 0; s < n;) {
    if (parsed[s].trim() !== '') {
      s++;
      continue;
    }
    let e = s;
    let unseen = false;
    for (; e < n && parsed[e].trim() === ''; e++) unseen ||= lines[e].trim() !== '';
    // Directives (and their continuation lines) as blank lines: their brackets are no code's.
    const run: string[] = [];
    const directives = new Set<number>();
    for (let r = s, continued = false; r < e; r++) {
      const directive: boolean = continued || /^\s*#/.test(lines[r]);
      continued = directive && /\\\r?$/.test(lines[r]);
      if (directive) directives.add(r - s);
      run.push(directive ? blank(lines[r]) : lines[r]);
    }
    const pairs = unseen ? bracketPairs(run, 'c') : null;
    if (pairs?.length) {
      out ??= Array.from({ length: n }, () => []);
      const targets = pairTargets(run.length, pairs);
      /** The last line before `x` in its branch with code on it, or -1. */
      const before = (x: number) => {
        let h = x - 1;
        while (h >= 0 && !directives.has(h) && (run[h].trim() === '' || COMMENT_LINE.test(run[h]))) h--;
        return directives.has(h) ? -1 : h;
      };
      const link = (a: number, b: number) => {
        if (!targets[a].includes(b)) targets[a].push(b);
      };
      for (const [o] of pairs) {
        if (!/^\s*\{/.test(run[o])) continue;
        const h = before(o);
        if (h < 0 || NOT_HEADER.test(run[h])) continue;
        link(o, h);
        link(h, o);
        const p = /^\s*(?:else|catch)\b/.test(run[h]) ? before(h) : -1;
        if (p >= 0 && /^\s*\}/.test(run[p])) link(h, p);
      }
      for (let x = 0; x < run.length; x++) for (const t of targets[x]) out[s + x].push(s + t);
    }
    s = e;
  }
  return out;
}
