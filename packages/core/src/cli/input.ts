/**
 * Reading the CLI's inputs with a bound: a stream that stops at the limit, so that /dev/zero, an
 * endless pipe or a huge file costs at most `maxBytes` of memory before INPUT_TOO_LARGE (reading
 * the whole file first grew the process to 2.2 GB). `-` is stdin.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { CtxpruneError } from '../errors.js';
import { MAX_INPUT_CHARS } from '../prune/validate.js';

/**
 * Bytes that can still decode to at most MAX_INPUT_CHARS UTF-16 code units (UTF-8 needs at most 3
 * bytes per code unit): a larger input is over prune's limit whatever it holds.
 */
export const MAX_PRUNE_INPUT_BYTES = 3 * MAX_INPUT_CHARS;

/** Read `path` (or stdin for `-`) up to `maxBytes`; over it: INPUT_TOO_LARGE, having read no more. */
export async function readBounded(path: string, maxBytes: number, stdin: Readable = process.stdin): Promise<Buffer> {
  const stream: Readable = path === '-' ? stdin : createReadStream(path, { highWaterMark: 1 << 16 });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += b.length;
      if (size > maxBytes) {
        throw new CtxpruneError(
          'INPUT_TOO_LARGE',
          `${path === '-' ? 'stdin' : path} is over the limit of ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(0)} MiB); stopped reading there`,
        );
      }
      chunks.push(b);
    }
  } catch (e) {
    if (e instanceof CtxpruneError) throw e;
    throw new CtxpruneError('INVALID_OPTION', `cannot read ${path === '-' ? 'stdin' : path}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    if (path !== '-') stream.destroy();
  }
  return Buffer.concat(chunks, size);
}

/** The same as text (UTF-8). */
export async function readBoundedText(path: string, maxBytes: number, stdin?: Readable): Promise<string> {
  return (await readBounded(path, maxBytes, stdin)).toString('utf8');
}
