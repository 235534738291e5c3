/**
 * Rendering of the pruned text: kept lines verbatim, each elided run replaced by one comment in
 * the file's own syntax, e.g. `    # … 12 lines omitted (40–51)`.
 */
import { indentOf, isBlank } from './lines.js';

export function commentPrefixFor(language: string | null): string {
  return language === 'python' || language === 'ruby' ? '#' : language === null ? '#' : '//';
}

/** The marker for lines [from, to] (0-based, inclusive) without its newline. */
export function elisionMarker(lines: string[], from: number, to: number, prefix: string, cr: string, nextKept: number): string {
  let indent = '';
  let found = false;
  for (let i = from; i <= to; i++) {
    if (!isBlank(lines[i])) { indent = indentOf(lines[i]); found = true; break; }
  }
  if (!found && nextKept >= 0) indent = indentOf(lines[nextKept]);
  const count = to - from + 1;
  const range = count === 1 ? `${from + 1}` : `${from + 1}–${to + 1}`;
  return `${indent}${prefix} … ${count} line${count === 1 ? '' : 's'} omitted (${range})${cr}`;
}

export interface Rendered {
  text: string;
  /** Output line index → original 0-based line, or -1 for a marker. */
  origin: Int32Array;
}

/** Join kept lines and markers with '\n'. */
export function renderKept(lines: string[], keep: Uint8Array, prefix: string, cr: string): Rendered {
  const out: string[] = [];
  const origin: number[] = [];
  const n = lines.length;
  let t = 0;
  while (t < n) {
    if (keep[t]) { out.push(lines[t]); origin.push(t); t++; continue; }
    let e = t;
    while (e + 1 < n && !keep[e + 1]) e++;
    out.push(elisionMarker(lines, t, e, prefix, cr, e + 1 < n ? e + 1 : -1));
    origin.push(-1);
    t = e + 1;
  }
  return { text: out.join('\n'), origin: Int32Array.from(origin) };
}
