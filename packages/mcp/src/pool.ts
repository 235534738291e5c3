/**
 * prune, compact, pack, locate and search off the server's main thread, in worker threads (core-worker.ts), so that
 * no request, however heavy (a 2 MiB file, a 4,000,000-character transcript, a pack of a large
 * tree), keeps the server from reading and answering the next one: the main thread only parses
 * messages, reads files and formats results. A pack goes, when it can, to the worker that last
 * packed the same directory (its index is cached there while no file changes), and a compaction to
 * the worker that made the last one (its preparations are kept there: core-worker.ts). Two workers are started (and warmed: tokenizer and scorer loaded) with the pool;
 * more, up to `max`, when all are busy; past that, calls queue. A call over `callTimeoutMs` has its
 * worker terminated (a synchronous loop cannot be interrupted otherwise) and fails, which the tools
 * turn into their fail-open answers.
 */
import { Worker } from 'node:worker_threads';
import {
  CtxpruneError,
  OverflowStore,
  type CompactOptions,
  type CompactResult,
  type CtxpruneErrorCode,
  type Message,
  type PruneOptions,
  type PruneResult,
} from '@ctxprune/core';
import type { packDirectory } from '@ctxprune/core/node';
import type { LocateJobOptions, LocateJobResult } from './locate.js';
import type { SearchJobOptions, SearchJobResult } from './search.js';

/** packDirectory's options as they cross to a worker (its scorer is the worker's own). */
export type PackJobOptions = Omit<Parameters<typeof packDirectory>[0], 'scorer' | 'tokenCounter'>;
export type PackJobResult = Awaited<ReturnType<typeof packDirectory>>;

export interface CorePoolOptions {
  scorer: 'auto' | 'neural' | 'lexical';
  /** Workers started with the pool (default 2). */
  size?: number;
  /** Workers at most (default 4). */
  max?: number;
  /** A call running longer has its worker terminated (default 300,000 ms). */
  callTimeoutMs?: number;
}

export interface CorePool {
  prune(text: string, options: Omit<PruneOptions, 'scorer' | 'signal' | 'tokenCounter'>): Promise<PruneResult>;
  compact(messages: Message[], options: Omit<CompactOptions, 'summarizeGoal' | 'relevance' | 'tokenCounter' | 'store' | 'scorer'>): Promise<CompactResult>;
  pack(options: PackJobOptions): Promise<PackJobResult>;
  locate(options: LocateJobOptions): Promise<LocateJobResult>;
  search(options: SearchJobOptions): Promise<SearchJobResult>;
  /** Workers alive now. */
  readonly workers: number;
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  busy: boolean;
  /** What this worker holds in its caches: the directories it packed last, COMPACTION for compaction's preparations. */
  holds: Set<string>;
}
interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
  slot: Slot;
}

/** The affinity of compactions (no directory path starts with a NUL). */
const COMPACTION = '\0compaction';

export function createCorePool(opts: CorePoolOptions): CorePool {
  const max = Math.max(1, opts.max ?? 4);
  const timeoutMs = opts.callTimeoutMs ?? 300_000;
  const slots: Slot[] = [];
  const pending = new Map<number, Pending>();
  const queue: (() => void)[] = [];
  let nextId = 1;
  let closed = false;

  const free = (slot: Slot) => {
    slot.busy = false;
    queue.shift()?.();
  };
  const drop = (slot: Slot, why: Error) => {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    for (const [id, p] of pending) {
      if (p.slot === slot) {
        clearTimeout(p.timer);
        pending.delete(id);
        p.reject(why);
      }
    }
    queue.shift()?.();
  };

  function spawn(): Slot {
    const worker = new Worker(new URL('./core-worker.js', import.meta.url), { workerData: { scorer: opts.scorer } });
    worker.unref(); // never keeps the process alive: the server ends when stdin does
    const slot: Slot = { worker, busy: false, holds: new Set() };
    worker.on('message', (m: { id: number; ok: boolean; value?: unknown; message?: string; code?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      clearTimeout(p.timer);
      free(slot);
      if (m.ok) p.resolve(m.value);
      else p.reject(m.code ? new CtxpruneError(m.code as CtxpruneErrorCode, m.message ?? '') : new Error(m.message));
    });
    worker.on('error', (e) => drop(slot, e instanceof Error ? e : new Error(String(e))));
    worker.on('exit', (code) => drop(slot, new Error(`worker exited (${code})`)));
    slots.push(slot);
    // Warm: tokenizer and scorer loaded before the first call needs them.
    slot.busy = true;
    const id = nextId++;
    pending.set(id, { resolve: () => undefined, reject: () => undefined, slot });
    worker.postMessage({ id, op: 'warm' });
    return slot;
  }

  /** An idle worker (one that holds `affinity`, if idle; spawning one when all are busy and fewer than `max` run), or wait for one. */
  async function acquire(affinity?: string): Promise<Slot> {
    for (;;) {
      if (closed) throw new Error('the server is closing');
      const idle = (affinity !== undefined && slots.find((s) => !s.busy && s.holds.has(affinity))) || slots.find((s) => !s.busy);
      if (idle) return idle;
      if (slots.length < max) {
        // A fresh worker warms first; it is used as soon as it is free.
        spawn();
      }
      await new Promise<void>((r) => queue.push(r));
    }
  }

  async function call<T>(job: Record<string, unknown>, affinity?: string): Promise<T> {
    const slot = await acquire(affinity);
    slot.busy = true;
    if (affinity !== undefined) {
      for (const s of slots) s.holds.delete(affinity);
      slot.holds.add(affinity);
    }
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { resolve: resolve as (v: unknown) => void, reject, slot };
      p.timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`stopped after ${timeoutMs} ms`));
        void slot.worker.terminate(); // its 'exit' drops the slot
      }, timeoutMs);
      pending.set(id, p);
      slot.worker.postMessage({ id, ...job });
    });
  }

  for (let i = 0; i < Math.min(max, opts.size ?? 2); i++) spawn();

  return {
    prune: (text, options) => call<PruneResult>({ op: 'prune', text, options }),
    async compact(messages, options) {
      const r = await call<Omit<CompactResult, 'store'> & { store: { messageId: string; content: string }[] }>(
        { op: 'compact', messages, options },
        COMPACTION,
      );
      const store = new OverflowStore();
      for (const e of r.store) store.put(e.messageId, e.content);
      return { ...r, store };
    },
    pack: (options) => call<PackJobResult>({ op: 'pack', options }, options.root),
    locate: (options) => call<LocateJobResult>({ op: 'locate', options }),
    search: (options) => call<SearchJobResult>({ op: 'search', options }),
    get workers() {
      return slots.length;
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
