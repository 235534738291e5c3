/**
 * Rendering of the pruned text: kept lines verbatim, each elided run replaced by one comment in
 * the file's own syntax, indented like the code it stands for:
 * - `    # …` (bare, the default: 3 o200k tokens), as in Aider's repository map; the result's
 *   `keptLines` carries the line numbers;
 * - `    # … lines 40–51` (compact: 9 tokens), for readers that need ranges in the text;
 * - `    # … 12 lines omitted (40–51)` (verbose: 12).
 * At 8× a marker costs as much as a line of code and there is one per kept run, so their size is
 * recall: line ranges in the text cost 0.032 @4× and 0.068 @8× of gold-line recall on the dev cases
 * (`npm run bench`, the "line ranges" row).
 */
export type ElisionStyle = 'bare' | 'compact' | 'verbose';
export const ELISION_STYLES: readonly ElisionStyle[] = ['bare', 'compact', 'verbose'];
import { indentOf, isBlank } from './lines.js';

/** The marker for lines [from, to] (0-based, inclusive) without its newline. */
export function elisionMarker(
  lines: string[], from: number, to: number, prefix: string, cr: string, nextKept: number, style: ElisionStyle = 'bare',
): string {
  let indent = '';
  let found = false;
  for (let i = from; i <= to; i++) {
    if (!isBlank(lines[i])) { indent = indentOf(lines[i]); found = true; break; }
  }
  if (!found && nextKept >= 0) indent = indentOf(lines[nextKept]);
  if (style === 'bare') return `${indent}${prefix} …${cr}`;
  const count = to - from + 1;
  const range = count === 1 ? `${from + 1}` : `${from + 1}–${to + 1}`;
  if (style === 'compact') return `${indent}${prefix} … line${count === 1 ? '' : 's'} ${range}${cr}`;
  return `${indent}${prefix} … ${count} line${count === 1 ? '' : 's'} omitted (${range})${cr}`;
}

export interface Rendered {
  text: string;
  /** Output line index → original 0-based line, or -1 for a marker. */
  origin: Int32Array;
}

/**
 * Output line index → original 0-based line, or -1 for a marker, from the kept line numbers
 * alone (1-based, ascending; what a PruneResult carries): the `origin` of renderKept's output.
 */
export function outputOrigin(keptLines: readonly number[], totalLines: number): Int32Array {
  const origin: number[] = [];
  let next = 1;
  for (const line of keptLines) {
    if (line > next) origin.push(-1);
    origin.push(line - 1);
    next = line + 1;
  }
  if (next <= totalLines && keptLines.length > 0) origin.push(-1);
  return Int32Array.from(origin);
}

/** Join kept lines and markers with '\n'. */
export function renderKept(lines: string[], keep: Uint8Array, prefix: string, cr: string, style: ElisionStyle = 'bare'): Rendered {
  const out: string[] = [];
  const origin: number[] = [];
  const n = lines.length;
  let t = 0;
  while (t < n) {
    if (keep[t]) { out.push(lines[t]); origin.push(t); t++; continue; }
    let e = t;
    while (e + 1 < n && !keep[e + 1]) e++;
    out.push(elisionMarker(lines, t, e, prefix, cr, e + 1 < n ? e + 1 : -1, style));
    origin.push(-1);
    t = e + 1;
  }
  return { text: out.join('\n'), origin: Int32Array.from(origin) };
}
