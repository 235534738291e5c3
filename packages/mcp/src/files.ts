/** What the server refuses to serve from a file it may read (binary content, hard-linked files), and its bounded read. */
import type { Stats } from 'node:fs';
import { open, readFile } from 'node:fs/promises';

/** The file's bytes, or its first `maxBytes` when it is larger (`size`: its size from stat). */
export async function readBounded(file: string, size: number, maxBytes: number): Promise<Buffer> {
  if (size <= maxBytes) return readFile(file);
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(maxBytes);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * Why `buf` looks binary, or null: a NUL byte anywhere, or more than 10% control bytes (other than
 * tab, newline, carriage return, form feed, vertical tab and escape) in its first 8,000 bytes.
 */
export function binaryReason(buf: Uint8Array): string | null {
  const nul = buf.indexOf(0);
  if (nul >= 0) return `NUL byte at offset ${nul} of ${buf.length} bytes`;
  const n = Math.min(buf.length, 8000);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[i];
    if ((b < 32 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27) || b === 127) control++;
  }
  return control > n / 10 ? `${control} control bytes in its first ${n}` : null;
}

/**
 * Why a regular file with more than one hard link is refused: a hard link inside the root may
 * name a file outside it, and (unlike a symlink) nothing on the link says where the other names are.
 */
export function hardLinkReason(rel: string, st: Pick<Stats, 'nlink'>): string | null {
  return st.nlink > 1 ? `${rel} has ${st.nlink} hard links; files with more than one are not served (a hard link can reach a file outside the root)` : null;
}
