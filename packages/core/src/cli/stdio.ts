/**
 * The CLI's stdout and stderr. In a process of its own (bin/ctxprune.js sets CTXPRUNE_ONE_SHOT) the
 * CLI writes to file descriptors 1 and 2 directly, with blocking writes: `process.stdout` would load
 * Node's stream modules and, for a pipe (how agents call it), its socket, ~1–4 ms of a ~0.35 s
 * `prune`; and what a blocking write returned from is out, so the process may exit at once (a
 * pipe whose reader is slow once got a cut `--json`: see bin/ctxprune.js). A descriptor that
 * refuses a synchronous write (EAGAIN: a non-blocking pipe, set so by whoever shares it) gets the
 * rest, and everything after, through Node's stream. Any other process writes through the streams.
 */
import { writeSync } from 'node:fs';

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
  /** stdout exactly as given (no newline added); commands fall back to `out` when absent. */
  raw?: (s: string) => void;
}

type Fd = 1 | 2;

const stream = (fd: Fd): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);

/** Descriptors whose writes go through the stream: after an EAGAIN, so that the order holds. */
const streamed = new Set<Fd>();

/** A reader that stops early (`ctxprune prune … | head`) closes the pipe: exit quietly, as Unix tools do. */
function exitOnEpipe(err: NodeJS.ErrnoException): void {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
}

function writeStream(fd: Fd, bytes: Uint8Array | string): void {
  const s = stream(fd);
  if (!streamed.has(fd)) {
    streamed.add(fd);
    s.on('error', exitOnEpipe);
  }
  s.write(bytes);
}

/** Writes all of `text` to `fd` before returning, or hands what is left to the stream (EAGAIN). */
export function writeAll(fd: Fd, text: string): void {
  if (streamed.has(fd)) return writeStream(fd, text);
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code !== 'EAGAIN') return exitOnEpipe(err);
      return writeStream(fd, bytes.subarray(at));
    }
  }
}

/** Resolves once whatever went through a stream is out (at once when nothing did). */
export function flushed(): Promise<void> {
  const pending = [...streamed].map(stream).filter((s) => s.writableLength > 0);
  // A write's callback runs once every write queued before it is out.
  return Promise.all(pending.map((s) => new Promise<void>((resolve) => s.write('', () => resolve())))).then(() => undefined);
}

const withNewline = (s: string) => (s.endsWith('\n') ? s : s + '\n');

/** The CLI's own stdio: direct in a one-shot process, else through Node's streams. */
export function processIo(): CliIo {
  if (process.env.CTXPRUNE_ONE_SHOT === '1') {
    return { out: (s) => writeAll(1, withNewline(s)), raw: (s) => writeAll(1, s), err: (s) => writeAll(2, withNewline(s)) };
  }
  return {
    out: (s) => process.stdout.write(withNewline(s)),
    raw: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(withNewline(s)),
  };
}
