/**
 * Rendering of the pruned text: kept lines verbatim, each elided run replaced by one comment in
 * the file's own syntax:
 * - `# …` at the margin (bare, the default: 2 o200k tokens in context), as Aider's repository map
 *   marks its gaps; the result's `keptLines` carries the line numbers. Indented like the code it
 *   stands for it cost 3 tokens: at the margin, the validation corpus kept +0.006 of gold lines at
 *   4× and at 8× (every third case chose it, the other two thirds confirmed it). A comment's
 *   indentation is inert in every language with a grammar here, Python included;
 * - `    # …` (indented: 3 tokens), indented like the code it stands for: what compaction's cuts
 *   use, since its own tuning set lost with the margin (task_aware_mig ¼ 0.753 → 0.743) and its
 *   sample then evicted the read the goal names (compaction/cuts.ts);
 * - `    # … lines 40–51` (compact: 9 tokens), indented, for readers that need ranges in the text;
 * - `    # … 12 lines omitted (40–51)` (verbose: 12).
 * At 8× a marker costs as much as a line of code and there is one per kept run, so their size is
 * recall: line ranges in the text cost 0.032 @4× and 0.068 @8× of gold-line recall on the dev cases
 * (`npm run bench`, the "line ranges" row).
 */
export type ElisionStyle = 'bare' | 'indented' | 'compact' | 'verbose';
export const ELISION_STYLES: readonly ElisionStyle[] = ['bare', 'indented', 'compact', 'verbose'];
import { indentOf, isBlank, lineCount } from './lines.js';

/**
 * Comments that close (`<!-- … -->`, `/* … *\/`): the prefix names the syntax, its closer is
 * appended. Every other prefix is a line comment.
 */
const CLOSERS: Record<string, string> = { '<!--': '-->', '/*': '*/', '{-': '-}', '(*': '*)' };

/** The text after the marker's words: ` -->` for an HTML comment, nothing for a line comment. */
export function commentCloser(prefix: string): string {
  const c = Object.prototype.hasOwnProperty.call(CLOSERS, prefix) ? CLOSERS[prefix] : '';
  return c ? ` ${c}` : '';
}

/** The most indentation a marker copies from the lines it stands for (columns, tabs as one). */
export const MAX_MARKER_INDENT = 80;

/**
 * The marker for lines [from, to] (0-based, inclusive) without its newline. The empty string
 * after a final newline is not a line (text/lines' lineCount): a range that reaches it ends at
 * the last line, and a range of that string alone has no marker ('').
 */
export function elisionMarker(lines: string[], from: number, to: number, prefix: string, cr: string, nextKept: number, style: ElisionStyle = 'bare'): string {
  to = Math.min(to, lineCount(lines) - 1);
  if (to < from) return '';
  const close = commentCloser(prefix);
  if (style === 'bare') return `${prefix} …${close}${cr}`;
  // The other forms are indented like the code they stand for.
  let indent = '';
  let found = false;
  for (let i = from; i <= to; i++) {
    if (!isBlank(lines[i])) {
      indent = indentOf(lines[i]);
      found = true;
      break;
    }
  }
  if (!found && nextKept >= 0) indent = indentOf(lines[nextKept]);
  // A marker never copies a huge indent (a line indented by 200,000 spaces made a 200,000-space marker).
  if (indent.length > MAX_MARKER_INDENT) indent = indent.slice(0, MAX_MARKER_INDENT);
  if (style === 'indented') return `${indent}${prefix} …${close}${cr}`;
  const count = to - from + 1;
  const range = count === 1 ? `${from + 1}` : `${from + 1}–${to + 1}`;
  if (style === 'compact') return `${indent}${prefix} … line${count === 1 ? '' : 's'} ${range}${close}${cr}`;
  return `${indent}${prefix} … ${count} line${count === 1 ? '' : 's'} omitted (${range})${close}${cr}`;
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

/**
 * Join kept lines and markers with '\n'. The text ends with a newline exactly when the file does,
 * whether its last line is kept or stands in a marker (the empty string after that newline is no
 * line: it has no origin entry and no marker of its own, whatever `keep` says of it). Kept lines
 * are never altered; a file without a final newline gives a text without one.
 */
export function renderKept(lines: string[], keep: Uint8Array, prefix: string, cr: string, style: ElisionStyle = 'bare'): Rendered {
  const out: string[] = [];
  const origin: number[] = [];
  const n = lineCount(lines);
  let t = 0;
  while (t < n) {
    if (keep[t]) {
      out.push(lines[t]);
      origin.push(t);
      t++;
      continue;
    }
    let e = t;
    while (e + 1 < n && !keep[e + 1]) e++;
    out.push(elisionMarker(lines, t, e, prefix, cr, e + 1 < n ? e + 1 : -1, style));
    origin.push(-1);
    t = e + 1;
  }
  if (n < lines.length && out.length > 0) out.push('');
  return { text: out.join('\n'), origin: Int32Array.from(origin) };
}

/**
 * Comment syntax for the markers of files outside the parsed languages, by extension, well-known
 * file name or language name: a marker must be a comment there, inert and valid (`# …` is a
 * heading in Markdown). Anything unknown gets '#' (shell, YAML, TOML, Makefiles, …).
 * JSON has no comments: JSON gets '//' as JSONC (tsconfig.json, VS Code settings) does, and a
 * strict JSON reader must not parse pruned JSON; see the README's "Markers".
 */
const MARKER_BY_EXTENSION: Record<string, string> = {
  md: '<!--',
  markdown: '<!--',
  mdx: '<!--',
  mkd: '<!--',
  rmd: '<!--',
  html: '<!--',
  htm: '<!--',
  xhtml: '<!--',
  xml: '<!--',
  svg: '<!--',
  vue: '<!--',
  svelte: '<!--',
  xsl: '<!--',
  xsd: '<!--',
  plist: '<!--',
  csproj: '<!--',
  css: '/*',
  scss: '/*',
  less: '/*',
  sass: '//',
  styl: '//',
  json: '//',
  jsonc: '//',
  json5: '//',
  geojson: '//',
  sql: '--',
  lua: '--',
  hs: '--',
  elm: '--',
  ada: '--',
  adb: '--',
  ads: '--',
  ini: ';',
  cfg: '#',
  clj: ';',
  cljs: ';',
  el: ';',
  lisp: ';',
  scm: ';',
  asm: ';',
  s: '#',
  tex: '%',
  sty: '%',
  erl: '%',
  hrl: '%',
  m: '%',
  mat: '%',
  vim: '"',
  bat: 'REM',
  cmd: 'REM',
  kt: '//',
  kts: '//',
  swift: '//',
  scala: '//',
  dart: '//',
  zig: '//',
  proto: '//',
  gradle: '//',
  groovy: '//',
  sol: '//',
  v: '//',
  f90: '!',
  f95: '!',
  f03: '!',
};
const MARKER_BY_NAME: Record<string, string> = {
  markdown: '<!--',
  md: '<!--',
  html: '<!--',
  xml: '<!--',
  svg: '<!--',
  vue: '<!--',
  css: '/*',
  scss: '/*',
  less: '/*',
  json: '//',
  jsonc: '//',
  sql: '--',
  lua: '--',
  haskell: '--',
  ini: ';',
  latex: '%',
  tex: '%',
  erlang: '%',
  kotlin: '//',
  swift: '//',
  scala: '//',
  dart: '//',
};

/** The marker's comment prefix for a file outside the parsed languages (`fileName` or a language name). */
export function markerPrefixForFile(fileName?: string | null, languageName?: string | null): string {
  const own = (m: Record<string, string>, k: string) => (Object.prototype.hasOwnProperty.call(m, k) ? m[k] : undefined);
  const byName = languageName ? own(MARKER_BY_NAME, languageName.trim().toLowerCase()) : undefined;
  if (byName) return byName;
  const base = (fileName ?? '').replace(/\\/g, '/').split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = dot >= 0 ? base.slice(dot + 1).toLowerCase() : '';
  return (ext && own(MARKER_BY_EXTENSION, ext)) || '#';
}
