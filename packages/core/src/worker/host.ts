/**
 * The worker-side implementation of PrunerWorkerApi, written against a small Engine interface so
 * that it can be exercised without a real Worker: the requests (prune, compact, cancel, the first
 * request pruned ahead, the last preparation kept for a budget-only change). What they load and
 * which scorer they run is loads.ts's. prune.worker.ts binds it to the library and exposes it
 * with comlink.
 */
import type { CompactOptions, CompactResult, Message } from '../compaction/types.js';
import type { AssetConfig, CtxpruneEnv, FetchLike } from '../config.js';
import { createPreparationCache } from '../compaction/preparations.js';
import { CtxpruneError } from '../errors.js';
import type { PreparedPrune } from '../prune/pipeline.js';
import type { PruneOptions, PruneResult } from '../prune/types.js';
import type { Scorer } from '../scorers/types.js';
import type { TokenCounter } from '../text/tokens.js';
import { createLoads } from './loads.js';
import type {
  EngineChoice,
  EngineReport,
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

/** A loaded neural scorer: which backend it ended up on, and why not the one asked for. */
export interface NeuralScorerLike extends Scorer {
  readonly backend: string;
  readonly fallbackReason: string | null;
}

/** 'js': the pure-TypeScript executor (runtime/js/), which Auto runs until onnxruntime's WASM is ready. */
export type NeuralBackend = 'auto' | 'webgpu' | 'wasm' | 'js';

/** The part of the library the worker needs. */
export interface Engine {
  prune(text: string, options: PruneOptions): Promise<PruneResult>;
  /**
   * prune()'s budget-free part (pipeline.ts). With it, a request that changes only the budget of
   * the one before (the playground's slider) reuses that request's syntax, scoring and token counts.
   */
  preparePrune?(text: string, options: PruneOptions): Promise<PreparedPrune>;
  /** History compaction (absent: the worker answers compact requests with an error). */
  compact?(messages: Message[], options: CompactOptions): Promise<CompactResult>;
  configure(patch: { assets?: Partial<AssetConfig>; fetch?: FetchLike }): CtxpruneEnv;
  loadDefaultTokenCounter(): Promise<TokenCounter>;
  /** Load the neural scorer (absent in builds without one). */
  loadNeural?(opts: {
    backend: NeuralBackend;
    model: string;
    onProgress?: (loaded: number, total: number | null) => void;
    /** Download progress of onnxruntime's wasm, when the engine fetches it itself. */
    onRuntimeProgress?: (loaded: number, total: number | null) => void;
  }): Promise<NeuralScorerLike>;
  /** onnxruntime settings (wasm location, threads, the wasm binary's URL). */
  configureRuntime?(patch: { wasmPaths?: string | null; wasmThreads?: number; wasmBinaryUrl?: string | null }): void;
  /** Load (once) the grammar of a language id; rejects for an unknown one. */
  loadGrammar?(language: string): Promise<void>;
  /** The language a request will be parsed as (its `language` option, else detected from fileName and text); null = none. */
  languageOf?(text: string, options: PruneOptions): string | null;
}

export { resolveEngine } from './loads.js';

export interface HostOptions {
  /** Probe for a WebGPU adapter; default looks at navigator.gpu. */
  probeWebGpu?: () => Promise<boolean>;
  /** Yield to the event loop before starting work, so that a queued cancel can land first. */
  yieldFirst?: boolean;
}

export function serializeError(e: unknown): SerializedError {
  if (e && typeof e === 'object') {
    const err = e as { name?: unknown; message?: unknown; code?: unknown };
    return {
      name: typeof err.name === 'string' ? err.name : 'Error',
      // An object without a message may still say something through its own toString().
      // eslint-disable-next-line @typescript-eslint/no-base-to-string
      message: typeof err.message === 'string' ? err.message : String(e),
      ...(typeof err.code === 'string' ? { code: err.code } : {}),
    };
  }
  return { name: 'Error', message: String(e) };
}

/** `p`, or an ABORTED rejection as soon as `signal` aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CtxpruneError('ABORTED', 'The request was cancelled.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CtxpruneError('ABORTED', 'The request was cancelled.'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function aborted(): WorkerReply<never> {
  return { ok: false, error: { name: 'CtxpruneError', code: 'ABORTED', message: 'The request was cancelled.' } };
}

/** Request options as a string that does not depend on the order of their keys (or on undefined ones). */
const optionsKey = (o: WorkerPruneOptions): string =>
  JSON.stringify(o, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );

export function createWorkerHost(engine: Engine, opts: HostOptions = {}): PrunerWorkerApi {
  const controllers = new Map<number, AbortController>();
  const cancelledEarly = new Set<number>();
  const loads = createLoads(engine, opts.probeWebGpu ? { probeWebGpu: opts.probeWebGpu } : {});
  const { capabilities, chooseScorer, loadTokenizer, loadsFor, preload, startWasm } = loads;
  /** Compaction's preparations across requests: a budget move or a longer transcript re-cuts the same messages. */
  const preparations = createPreparationCache();

  /**
   * The last preparation: its text, its options but the budget, and its scorer. It runs under its
   * own signal, not its request's: a request superseded by one that only moves the budget leaves
   * it to the next; a request for another text or options stops it.
   */
  let lastPrepared: { text: string; key: string; scorer: Scorer | 'lexical'; prepared: Promise<PreparedPrune>; stop: AbortController } | null = null;

  /** The preparation for this request (the last one when only the budget changed), waited for until `signal` aborts. */
  function preparedFor(text: string, options: PruneOptions, scorer: Scorer | 'lexical', signal: AbortSignal): Promise<PreparedPrune> {
    const key = optionsKey({ ...options, tokens: undefined, ratio: undefined });
    let entry = lastPrepared;
    if (!entry || entry.text !== text || entry.key !== key || entry.scorer !== scorer) {
      entry?.stop.abort();
      const stop = new AbortController();
      const prepared = engine.preparePrune!(text, { ...options, scorer, signal: stop.signal });
      const made = { text, key, scorer, prepared, stop };
      // A preparation that failed (or was stopped) is not kept.
      prepared.catch(() => {
        if (lastPrepared === made) lastPrepared = null;
      });
      lastPrepared = entry = made;
    }
    return untilAborted(entry.prepared, signal);
  }

  /** A request's reply, and whether Auto's first result ran on the executor (onnxruntime then loads behind it). */
  interface Ran<T = WorkerPruneResult> {
    reply: WorkerReply<T>;
    deferWasm: boolean;
  }

  /** One request: its one-time loads (waited for side by side and timed apart: stats.ms is the pruning alone), then the prune. */
  async function run(text: string, options: WorkerPruneOptions, signal: AbortSignal): Promise<Ran> {
    let deferWasm = false;
    try {
      const requested: EngineChoice = options.engine ?? 'auto';
      const { engine: _drop, ...rest } = options;
      const tLoad = performance.now();
      const [choice] = await Promise.all([chooseScorer(requested), loadsFor(text, rest)]);
      const loadMs = performance.now() - tLoad;
      if (signal.aborted) return { reply: aborted(), deferWasm };
      deferWasm = choice.deferWasm === true;
      const result = engine.preparePrune
        ? await (await preparedFor(text, rest, choice.scorer, signal)).at({ tokens: rest.tokens, ratio: rest.ratio, signal })
        : await engine.prune(text, { ...rest, scorer: choice.scorer, signal });
      if (signal.aborted) return { reply: aborted(), deferWasm };
      const report: EngineReport = {
        requested,
        scorer: result.stats.scorer,
        backend: result.stats.backend,
        note: choice.note,
        loadMs: Math.round(loadMs),
      };
      return { reply: { ok: true, value: { ...result, engine: report } }, deferWasm };
    } catch (e) {
      return { reply: signal.aborted ? aborted() : { ok: false, error: serializeError(e) }, deferWasm };
    }
  }

  /** One compaction: the scorer and the tokenizer (timed as a prune's loads are), then compact(). */
  async function runCompact(messages: Message[], options: WorkerCompactOptions, signal: AbortSignal): Promise<Ran<WorkerCompactResult>> {
    let deferWasm = false;
    try {
      if (!engine.compact) throw new CtxpruneError('INVALID_OPTION', 'This worker was built without compaction.');
      const requested: EngineChoice = options.engine ?? 'auto';
      const { engine: _drop, ...rest } = options;
      const tLoad = performance.now();
      const [choice, counter] = await Promise.all([chooseScorer(requested), loadTokenizer()]);
      const loadMs = performance.now() - tLoad;
      if (signal.aborted) return { reply: aborted(), deferWasm };
      deferWasm = choice.deferWasm === true;
      // compact() takes no signal: a cancel stops the reply, not the work.
      const { store, ...result } = await engine.compact(messages, { ...rest, scorer: choice.scorer, tokenCounter: counter, preparations });
      const scorer = choice.scorer === 'lexical' ? null : (choice.scorer as Scorer & { backend?: string });
      const value: WorkerCompactResult = {
        ...result,
        store: store.toJSON(),
        engine: {
          requested,
          scorer: result.dump.cutScorers.join(', ') || 'none',
          backend: scorer?.backend ?? 'cpu',
          note: choice.note,
          loadMs: Math.round(loadMs),
        },
      };
      return { reply: { ok: true, value }, deferWasm };
    } catch (e) {
      return { reply: signal.aborted ? aborted() : { ok: false, error: serializeError(e) }, deferWasm };
    }
  }

  /**
   * The page's first request, pruned ahead (preload.request) while the page builds its editors:
   * the same text and options, asked for once, take its reply. Any other request cancels it.
   */
  let ahead: { text: string; key: string; controller: AbortController; ran: Promise<Ran> } | null = null;

  function startAhead(text: string, options: WorkerPruneOptions): void {
    const controller = new AbortController();
    ahead = { text, key: optionsKey(options), controller, ran: run(text, options, controller.signal) };
  }

  /** The ahead run when this request is the one it pruned (it then ends with this request's signal); else null, and it stops. */
  function takeAhead(text: string, options: WorkerPruneOptions, signal: AbortSignal): Promise<Ran> | null {
    const a = ahead;
    ahead = null;
    if (!a) return null;
    if (a.text !== text || a.key !== optionsKey(options)) {
      a.controller.abort();
      return null;
    }
    signal.addEventListener('abort', () => a.controller.abort(), { once: true });
    // A failed ahead run (an asset that did not load, say) is not kept: this request tries again.
    return a.ran.then((r) => (r.reply.ok || signal.aborted ? r : run(text, options, signal)));
  }

  const yieldFirst = opts.yieldFirst ?? true;

  /** A request's life: cancellable by id (also before it starts), onnxruntime started behind it when Auto asked. */
  async function request<T>(requestId: number, work: (signal: AbortSignal) => Promise<Ran<T>>): Promise<WorkerReply<T>> {
    // A cancel may arrive before the request starts (it was superseded while queued).
    if (cancelledEarly.delete(requestId)) return aborted();
    const controller = new AbortController();
    controllers.set(requestId, controller);
    try {
      if (yieldFirst) await new Promise((r) => setTimeout(r, 0));
      if (controller.signal.aborted) return aborted();
      const { reply, deferWasm } = await work(controller.signal);
      if (deferWasm) startWasm();
      return controller.signal.aborted ? aborted() : reply;
    } finally {
      controllers.delete(requestId);
    }
  }

  return {
    async init(init: WorkerInit, onProgress?: (p: LoadProgress) => void): Promise<WorkerCapabilities> {
      loads.init(init, onProgress);
      if (init.preload) {
        preload(init.preload);
        if (init.preload.request) startAhead(init.preload.request.text, init.preload.request.options);
      }
      return capabilities();
    },

    prune(text: string, options: WorkerPruneOptions, requestId: number) {
      return request(requestId, (signal) => takeAhead(text, options, signal) ?? run(text, options, signal));
    },

    cancel(requestId: number) {
      const c = controllers.get(requestId);
      if (c) c.abort();
      else {
        cancelledEarly.add(requestId);
        // Bound the set: ids only grow, and a cancel for a finished request is harmless.
        if (cancelledEarly.size > 1000) cancelledEarly.delete(cancelledEarly.values().next().value as number);
      }
    },

    compact(messages: Message[], options: WorkerCompactOptions, requestId: number) {
      return request(requestId, (signal) => runCompact(messages, options, signal));
    },

    async countTokens(text: string) {
      try {
        const counter = await loadTokenizer();
        return { ok: true, value: counter.count(text) } as const;
      } catch (e) {
        return { ok: false, error: serializeError(e) } as const;
      }
    },
  };
}
