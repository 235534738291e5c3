/**
 * The page side of the pruning worker: one worker, one request stream.
 *
 * - A newer prune() supersedes every pending one (and a newer compact() every pending compact()):
 *   the older promises reject with CtxpruneError('ABORTED') and their results, if they still
 *   arrive, are dropped.
 * - An AbortSignal cancels one request (the worker is told, so it can stop early).
 * - If the worker crashes (an 'error' event: uncaught exception, failed module load), it is
 *   terminated and restarted and the in-flight requests are sent again once; a second crash
 *   rejects them with WorkerCrashedError.
 *
 * Free of any UI framework; bundler-agnostic (pass createWorker to control how the worker loads).
 */
import { proxy, wrap, type Endpoint, type Remote } from 'comlink';
import type { Message } from '../compaction/types.js';
import { CtxpruneError, type CtxpruneErrorCode } from '../errors.js';
import type {
  LoadProgress,
  PrunerWorkerApi,
  SerializedError,
  WorkerCapabilities,
  WorkerCompactOptions,
  WorkerCompactResult,
  WorkerInit,
  WorkerPruneOptions,
  WorkerPruneResult,
  WorkerReply,
} from './protocol.js';

/** What the client needs from a Worker (a real one, or a test double). */
export interface WorkerLike extends Endpoint {
  terminate(): void;
}

export interface PrunerClientOptions {
  /** How to make the worker. Default: a module worker at workerUrl. */
  createWorker?: () => WorkerLike;
  /** Default: ./prune.worker.js next to this module. */
  workerUrl?: string | URL;
  /** Sent to the worker on every (re)start: asset URLs for grammars and tree-sitter. */
  init?: WorkerInit;
  /** Times a request is re-sent after a worker crash. Default 1. */
  retries?: number;
  /** Download progress of one-time assets (the model) while they load. */
  onProgress?: (p: LoadProgress) => void;
}

export type ClientPruneOptions = WorkerPruneOptions & {
  signal?: AbortSignal;
  /** Default true: cancel every earlier pending prune(). */
  supersede?: boolean;
};

export type ClientCompactOptions = WorkerCompactOptions & {
  signal?: AbortSignal;
  /** Default true: cancel every earlier pending compact(). */
  supersede?: boolean;
};

export interface PrunerClient {
  prune(text: string, options: ClientPruneOptions): Promise<WorkerPruneResult>;
  /** compact() in the worker, with the model it holds for pruning; a newer compact() supersedes older ones. */
  compact(messages: Message[], options: ClientCompactOptions): Promise<WorkerCompactResult>;
  countTokens(text: string): Promise<number>;
  /** What the worker can run (starts the worker if needed). */
  capabilities(): Promise<WorkerCapabilities>;
  /** Terminate the worker and reject everything pending. */
  dispose(): void;
  /** Worker starts so far (1 after the first request; grows on crashes). */
  readonly starts: number;
}

/** The worker died and a restart did not help. */
export class WorkerCrashedError extends Error {
  readonly code = 'WORKER_CRASHED';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkerCrashedError';
  }
}

export function isAbortError(e: unknown): boolean {
  return (e instanceof CtxpruneError && e.code === 'ABORTED') || (e instanceof Error && e.name === 'AbortError');
}

export function deserializeError(e: SerializedError): Error {
  if (e.code && e.name === 'CtxpruneError') return new CtxpruneError(e.code as CtxpruneErrorCode, e.message);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.code) (err as Error & { code?: string }).code = e.code;
  return err;
}

interface Pending {
  id: number;
  /** Requests of the same kind supersede each other (prune, compact); counts never do. */
  kind: 'prune' | 'count' | 'compact';
  /** The call to the worker (again after a restart). */
  call(api: Remote<PrunerWorkerApi>, id: number): Promise<WorkerReply<unknown>>;
  attempts: number;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  cleanup(): void;
}

function describeCrash(ev: unknown): string {
  const e = ev as { message?: unknown; error?: unknown; type?: unknown };
  if (typeof e?.message === 'string' && e.message) return e.message;
  if (e?.error instanceof Error) return e.error.message;
  return typeof e?.type === 'string' ? `worker ${e.type} event` : 'unknown error';
}

export function createPrunerClient(opts: PrunerClientOptions = {}): PrunerClient {
  const retries = opts.retries ?? 1;
  const createWorker =
    opts.createWorker ??
    (() =>
      new Worker(opts.workerUrl ?? new URL('./prune.worker.js', import.meta.url), {
        type: 'module',
        name: 'ctxprune-pruner',
      }));

  let worker: WorkerLike | null = null;
  let api: Remote<PrunerWorkerApi> | null = null;
  let ready: Promise<WorkerCapabilities> | null = null;
  let generation = 0;
  let starts = 0;
  let nextId = 1;
  let disposed = false;
  const pending = new Map<number, Pending>();

  function stop(): void {
    if (worker) {
      try {
        worker.terminate();
      } catch {
        /* already gone */
      }
    }
    worker = null;
    api = null;
    ready = null;
    generation++;
  }

  function start(): void {
    stop();
    const gen = generation;
    starts++;
    const w = createWorker();
    const onCrash = (ev: unknown) => {
      if (gen !== generation || disposed) return;
      (ev as { preventDefault?: () => void })?.preventDefault?.();
      crashed(describeCrash(ev));
    };
    w.addEventListener('error', onCrash);
    w.addEventListener('messageerror', onCrash);
    worker = w;
    api = wrap<PrunerWorkerApi>(w);
    ready = opts.onProgress ? api.init(opts.init ?? {}, proxy(opts.onProgress)) : api.init(opts.init ?? {});
    ready.catch(() => {
      // An init failure that is not a crash: start fresh on the next request.
      if (gen === generation) stop();
    });
  }

  function ensure(): void {
    if (!worker) start();
  }

  function settle(p: Pending): boolean {
    if (!pending.has(p.id)) return false;
    pending.delete(p.id);
    p.cleanup();
    return true;
  }

  function dispatch(p: Pending): void {
    ensure();
    p.attempts++;
    const gen = generation;
    const remote = api!;
    ready!
      .then(() => p.call(remote, p.id))
      .then(
        (reply) => {
          // A reply from a replaced worker is ignored: the restart re-sent the request.
          if (gen !== generation || !settle(p)) return;
          if (reply.ok) p.resolve(reply.value);
          else p.reject(deserializeError(reply.error));
        },
        (err) => {
          if (gen !== generation || !settle(p)) return;
          p.reject(err);
        },
      );
  }

  function crashed(reason: string): void {
    stop();
    const victims = [...pending.values()].sort((a, b) => a.id - b.id);
    for (const p of victims) {
      if (p.attempts > retries) {
        settle(p);
        p.reject(
          new WorkerCrashedError(
            `The pruning worker stopped unexpectedly ${p.attempts} times (${reason}). ` + 'Reload the page; if it keeps happening, try a smaller input.',
          ),
        );
      }
    }
    for (const p of victims) if (pending.has(p.id)) dispatch(p);
  }

  function abort(p: Pending, message: string): void {
    if (!settle(p)) return;
    if (api) {
      try {
        void Promise.resolve(api.cancel(p.id)).catch(() => undefined);
      } catch {
        /* worker gone */
      }
    }
    p.reject(new CtxpruneError('ABORTED', message));
  }

  function enqueue<T>(kind: Pending['kind'], call: Pending['call'], options: { signal?: AbortSignal; supersede?: boolean }): Promise<T> {
    if (disposed) return Promise.reject(new CtxpruneError('ABORTED', 'The pruner client was disposed.'));
    const { signal, supersede = kind !== 'count' } = options;
    if (signal?.aborted) return Promise.reject(new CtxpruneError('ABORTED', 'The request was cancelled.'));
    if (supersede) {
      for (const p of [...pending.values()]) {
        if (p.kind === kind) abort(p, 'Superseded by a newer request.');
      }
    }
    return new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const onAbort = () => abort(p, 'The request was cancelled.');
      const p: Pending = {
        id,
        kind,
        call,
        attempts: 0,
        resolve: resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      pending.set(id, p);
      signal?.addEventListener('abort', onAbort, { once: true });
      dispatch(p);
    });
  }

  return {
    prune: (text, { signal, supersede, ...wire }) => enqueue<WorkerPruneResult>('prune', (api, id) => api.prune(text, wire, id), { signal, supersede }),
    compact: (messages, { signal, supersede, ...wire }) =>
      enqueue<WorkerCompactResult>('compact', (api, id) => api.compact(messages, wire, id), { signal, supersede }),
    countTokens: (text) => enqueue<number>('count', (api) => api.countTokens(text), {}),
    capabilities() {
      if (disposed) return Promise.reject(new CtxpruneError('ABORTED', 'The pruner client was disposed.'));
      ensure();
      return ready!;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const p of [...pending.values()]) abort(p, 'The pruner client was disposed.');
      stop();
    },
    get starts() {
      return starts;
    },
  };
}
