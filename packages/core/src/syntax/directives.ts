/**
 * Preprocessor conditionals as structure (C, C++, C#: GrammarTable.directives). tree-sitter reads a
 * directive as a line of its own, or a recovered parse (recovery.ts) as a blank one, so the tree
 * does not tie an `#if` to its `#endif`: an output that kept one without the other did not parse.
 * Here each `#if`/`#ifdef`/`#ifndef` (and C#'s `#region`) is a block header whose closer is its
 * `#endif` (`#endregion`), and its `#elif`/`#else` lines are its companions: repair keeps an `#if`
 * with its `#endif`, and an `#else` with both. A line of a branch that the parser did not see (a
 * recovered parse keeps one branch of each conditional) has that branch's directive as its parent,
 * so that it is kept inside its conditional, where a reparse of the output drops it again.
 * Unmatched directives are left alone. Pure: lines and the analysis' arrays in, the arrays updated.
 */
import { SPAN_CALL, closeAcross } from './shims-macros.js';

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
