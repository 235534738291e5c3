/**
 * read_pruned's line ranges of a file (to read what a pruned read elided without re-reading the
 * whole file), numbered in the `cat -n` style gutter of core's numberLines (its pruned text). Pure.
 */

/** The lines of a text as a reader counts them: a final newline ends the last line, it starts none. */
export function textLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `   12\t` gutters: the number right-aligned to the widest number of the file, then a tab. */
function gutter(n: number, width: number): string {
  return `${String(n).padStart(width)}\t`;
}

/** Lines first..last (1-based, inclusive) of `lines`, numbered from `first`. */
export function numberRange(lines: readonly string[], first: number, width: number): string {
  return lines.map((l, i) => gutter(first + i, width) + l).join('\n');
}

export interface LineRange {
  /** 1-based, inclusive, clamped to the file. */
  first: number;
  last: number;
  total: number;
  lines: string[];
}

/**
 * The range [startLine, endLine] of `text` (either end optional: the file's), clamped to the
 * file; null when it holds no line (startLine past the end, or endLine before startLine).
 */
export function lineRange(text: string, startLine?: number, endLine?: number): LineRange | null {
  const all = textLines(text);
  const total = all.length;
  const first = Math.max(1, startLine ?? 1);
  const last = Math.min(total, endLine ?? total);
  if (first > last) return null;
  return { first, last, total, lines: all.slice(first - 1, last) };
}

/** `read_pruned {"path": …, "focus": "", "startLine": a, "endLine": b}`: how to read one elided range. */
export function rangeHint(rel: string, range: readonly [number, number] | undefined): string {
  const [a, b] = range ?? [1, 1];
  return `read an elided range with read_pruned {"path": ${JSON.stringify(rel)}, "focus": "", "startLine": ${a}, "endLine": ${b}}`;
}

/** [from, to] runs (1-based) of the lines of [1, total] not in `kept`, each shifted by `offset`. */
export function gaps(kept: readonly number[], total: number, offset = 0): [number, number][] {
  const out: [number, number][] = [];
  let next = 1;
  for (const k of [...kept, total + 1]) {
    if (k > next) out.push([next + offset, k - 1 + offset]);
    next = k + 1;
  }
  return out;
}
