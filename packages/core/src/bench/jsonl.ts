/** Files of one JSON object per line (benchmark cases, `ctxprune bench --out` results, SWE-bench instances). */
import { readFile } from 'node:fs/promises';
import { CtxpruneError } from '../errors.js';

/**
 * Each non-blank line of `text` parsed as JSON and handed to `record` with its 1-based number
 * (which returns the record or throws). A line that is not JSON is a typed error, `notJson(line)`.
 */
export function parseJsonLines<T>(text: string, record: (o: unknown, line: number) => T, notJson: (line: number) => string): T[] {
  const out: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      throw new CtxpruneError('INVALID_OPTION', notJson(i + 1));
    }
    out.push(record(o, i + 1));
  });
  return out;
}

/**
 * The records of a JSON-lines file, blank lines skipped. An unreadable file, a line that is not
 * JSON, and one that `isRecord` refuses (a line such as `null` or `3` parses too) are typed
 * errors naming the file and the line.
 */
export async function readJsonLines<T>(
  path: string,
  isRecord: (o: unknown) => o is T,
  notRecord: string,
  cannotRead: (why: string) => string = (why) => `cannot read ${path}: ${why}`,
): Promise<T[]> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (e) {
    throw new CtxpruneError('INVALID_OPTION', cannotRead((e as Error).message));
  }
  return parseJsonLines(
    raw,
    (o, line) => {
      if (!isRecord(o)) throw new CtxpruneError('INVALID_OPTION', `${path}:${line}: ${notRecord}`);
      return o;
    },
    (line) => `${path}:${line}: not valid JSON`,
  );
}
