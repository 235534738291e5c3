/**
 * src/cli/stdio.ts: a one-shot process writes to file descriptors 1 and 2 directly; a descriptor
 * that refuses a synchronous write (EAGAIN) gets the rest, and every later write, through Node's
 * stream, in order; `flushed()` waits for that stream; EPIPE exits quietly.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const writeSync = vi.fn<(fd: number, bytes: Uint8Array, offset: number) => number>();
vi.mock('node:fs', () => ({ writeSync: (fd: number, bytes: Uint8Array, offset: number) => writeSync(fd, bytes, offset) }));

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('cli/stdio', () => {
  let streamed: string[];
  let callbacks: (() => void)[];

  beforeEach(() => {
    vi.resetModules();
    writeSync.mockReset();
    streamed = [];
    callbacks = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, cb?: () => void) => {
      streamed.push(Buffer.from(chunk).toString());
      if (typeof cb === 'function') callbacks.push(cb);
      return true;
    }) as typeof process.stdout.write);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.CTXPRUNE_ONE_SHOT;
  });

  it('writes all of a text to the descriptor, however many writes it takes', async () => {
    const got: string[] = [];
    // A pipe takes at most 3 bytes a write here.
    writeSync.mockImplementation((fd, bytes, offset) => {
      const n = Math.min(3, bytes.length - offset);
      got.push(`${fd}:${Buffer.from(bytes.subarray(offset, offset + n)).toString()}`);
      return n;
    });
    const { writeAll, flushed } = await import('../../src/cli/stdio.js');
    writeAll(1, 'héllo…');
    expect(got.join('|')).toBe('1:hé|1:llo|1:…');
    expect(streamed).toEqual([]);
    await expect(flushed()).resolves.toBeUndefined();
  });

  it('hands the rest to the stream on EAGAIN, and every later write too, in order; flushed() waits for it', async () => {
    let calls = 0;
    writeSync.mockImplementation(() => {
      if (++calls === 1) return 4;
      throw errno('EAGAIN');
    });
    const { writeAll, flushed } = await import('../../src/cli/stdio.js');
    writeAll(1, 'abcdefgh');
    writeAll(1, 'ijk');
    expect(calls).toBe(2);
    expect(streamed).toEqual(['efgh', 'ijk']);
    vi.spyOn(process.stdout, 'writableLength', 'get').mockReturnValue(7);
    let done = false;
    const wait = flushed().then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    for (const cb of callbacks) cb();
    await wait;
    expect(done).toBe(true);
  });

  it('exits quietly on EPIPE (the reader went away), and throws any other error', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    writeSync.mockImplementation(() => {
      throw errno('EPIPE');
    });
    const { writeAll } = await import('../../src/cli/stdio.js');
    writeAll(2, 'x');
    expect(exit).toHaveBeenCalledWith(0);
    writeSync.mockImplementation(() => {
      throw errno('EBADF');
    });
    expect(() => writeAll(2, 'x')).toThrow('EBADF');
  });

  it('processIo() writes directly only in a one-shot process (bin/ctxprune.js)', async () => {
    writeSync.mockImplementation((_fd, bytes, offset) => bytes.length - offset);
    const { processIo } = await import('../../src/cli/stdio.js');
    processIo().out('through the stream');
    expect(writeSync).not.toHaveBeenCalled();
    expect(streamed).toEqual(['through the stream\n']);
    process.env.CTXPRUNE_ONE_SHOT = '1';
    const io = processIo();
    io.out('a');
    io.raw!('b');
    expect(writeSync.mock.calls.map(([fd, bytes]) => `${fd}:${Buffer.from(bytes).toString()}`)).toEqual(['1:a\n', '1:b']);
  });
});
