/** Files of one JSON object per line (benchmark cases, `ctxprune bench --out` results). */
import { readFile } from 'node:fs/promises';
import { CtxpruneError } from '../errors.js';

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
  const out: T[] = [];
  raw.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      throw new CtxpruneError('INVALID_OPTION', `${path}:${i + 1}: not valid JSON`);
    }
    if (!isRecord(o)) throw new CtxpruneError('INVALID_OPTION', `${path}:${i + 1}: ${notRecord}`);
    out.push(o);
  });
  return out;
}
