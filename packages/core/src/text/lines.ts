/**
 * Lines are split on '\n' only: a '\r' before it stays in the line, so joining kept lines with
 * '\n' reproduces every kept line byte for byte (CRLF files stay CRLF).
 */
export function splitLines(text: string): string[] {
  return text.split('\n');
}

/**
 * The number of lines of a text split by splitLines: a final newline ends the last line and
 * does not start another ("a\nb\n" has 2 lines, as `wc -l` and editors count them). The empty
 * string after that newline is still an element of splitLines' array, so that joining with '\n'
 * gives the text back; it is never counted, numbered, shown as a line or covered by a marker.
 */
export function lineCount(lines: readonly string[]): number {
  return lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}

/** The line without a trailing '\r' (for classification, never for output). */
export function lineBody(line: string): string {
  return line.length > 0 && line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

/** '\r' when most lines end with CRLF: elision markers then use the file's own line ending. */
export function dominantCarriageReturn(lines: string[]): string {
  let cr = 0;
  for (let i = 0; i < lines.length - 1; i++) if (lines[i].endsWith('\r')) cr++;
  return cr * 2 > lines.length - 1 && cr > 0 ? '\r' : '';
}

/** Leading whitespace of a line (tabs kept as tabs). */
export function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(0, i);
}

export function isBlank(line: string): boolean {
  return lineBody(line).trim().length === 0;
}
