/**
 * Cooperative cancellation for the pipeline's long stages. `pause()` is called between stages and
 * every so often inside long loops: it throws ABORTED once the signal has fired, and after each
 * `sliceMs` of work it yields a macrotask, so that an abort raised by a timer, a message or an
 * event can arrive (a signal cannot change while synchronous code runs) and other work, such as
 * the MCP server's next request, gets a turn. Without this, an abort during a 1 MB prune was
 * seen only when the prune ended.
 */
import { CtxpruneError } from '../errors.js';

export interface Checkpoint {
  /** Throw ABORTED when the signal has fired (cheap; no yield). */
  check: () => void;
  /** check(), and yield a macrotask when `sliceMs` of work has passed since the last yield (a function: pass it around). */
  pause: () => Promise<void>;
}

const yieldMacrotask: () => Promise<void> = (() => {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown };
  if (typeof g.setImmediate === 'function') return () => new Promise<void>((r) => g.setImmediate!(r));
  if (typeof MessageChannel === 'function') {
    // Browsers: a message is not clamped to 4 ms as a nested setTimeout is.
    const ch = new MessageChannel();
    const waiting: (() => void)[] = [];
    ch.port1.onmessage = () => waiting.shift()?.();
    return () =>
      new Promise<void>((r) => {
        waiting.push(r);
        ch.port2.postMessage(0);
      });
  }
  return () => new Promise<void>((r) => setTimeout(r, 0));
})();

export function checkpoint(signal: AbortSignal | undefined, sliceMs = 10): Checkpoint {
  let last = performance.now();
  const check = () => {
    if (signal?.aborted) throw new CtxpruneError('ABORTED', 'Pruning was cancelled.');
  };
  return {
    check,
    pause: async () => {
      check();
      if (performance.now() - last < sliceMs) return;
      await yieldMacrotask();
      last = performance.now();
      check();
    },
  };
}
