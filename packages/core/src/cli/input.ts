/**
 * Reading the CLI's inputs with a bound: a stream that stops at the limit, so that /dev/zero, an
 * endless pipe or a huge file costs at most `maxBytes` of memory before INPUT_TOO_LARGE (reading
 * the whole file first grew the process to 2.2 GB). `-` is stdin.
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CtxpruneError } from '../errors.js';
import { MAX_INPUT_CHARS } from '../prune/validate.js';

/**
 * Bytes that can still decode to at most MAX_INPUT_CHARS UTF-16 code units (UTF-8 needs at most 3
 * bytes per code unit): a larger input is over prune's limit whatever it holds.
 */
export const MAX_PRUNE_INPUT_BYTES = 3 * MAX_INPUT_CHARS;

/**
 * Read `path` (or stdin for `-`) up to `maxBytes`; over it: INPUT_TOO_LARGE, having read no more.
 * `process.stdin` is touched only for `-`: creating it loads Node's stream modules (and for a pipe,
 * its socket), ~3 ms of a one-shot prune that reads a file.
 */
export async function readBounded(path: string, maxBytes: number, stdin?: Readable): Promise<Buffer> {
  const file = path === '-' ? null : readRegularFile(path, maxBytes);
  if (file) return file;
  const stream: Readable = path === '-' ? (stdin ?? process.stdin) : createReadStream(path, { highWaterMark: 1 << 16 });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += b.length;
      if (size > maxBytes) throw tooLarge(path, maxBytes);
      chunks.push(b);
    }
  } catch (e) {
    throw e instanceof CtxpruneError ? e : cannotRead(path, e);
  } finally {
    if (path !== '-') stream.destroy();
  }
  return Buffer.concat(chunks, size);
}

const tooLarge = (path: string, maxBytes: number) =>
  new CtxpruneError(
    'INPUT_TOO_LARGE',
    `${path === '-' ? 'stdin' : path} is over the limit of ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(0)} MiB); stopped reading there`,
  );
const cannotRead = (path: string, e: unknown) =>
  new CtxpruneError('INVALID_OPTION', `cannot read ${path === '-' ? 'stdin' : path}: ${e instanceof Error ? e.message : String(e)}`);

/**
 * A regular file, read at once (a one-shot `prune` spent ~4 ms, and the stream modules' load, on a
 * stream of a 35 KB file); null for anything else (a pipe, a device, a directory), which streams.
 */
function readRegularFile(path: string, maxBytes: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw cannotRead(path, e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size > maxBytes) throw tooLarge(path, maxBytes);
    // The file may change size between fstat and the reads: read to its end, never past the bound.
    let buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let size = 0;
    for (;;) {
      if (size === buf.length) {
        if (size > maxBytes) throw tooLarge(path, maxBytes);
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(grown, 0, 0, size);
        buf = grown;
      }
      const n = readSync(fd, buf, size, buf.length - size, null);
      if (n === 0) break;
      size += n;
    }
    if (size > maxBytes) throw tooLarge(path, maxBytes);
    return buf.subarray(0, size);
  } catch (e) {
    throw e instanceof CtxpruneError ? e : cannotRead(path, e);
  } finally {
    closeSync(fd);
  }
}

/** The same as text (UTF-8). */
export async function readBoundedText(path: string, maxBytes: number, stdin?: Readable): Promise<string> {
  return (await readBounded(path, maxBytes, stdin)).toString('utf8');
}
