/**
 * The worker-side implementation of PrunerWorkerApi, written against a small Engine interface so
 * that it can be exercised without a real Worker. prune.worker.ts binds it to the library and
 * exposes it with comlink.
 */
import type { CompactOptions, CompactResult, Message } from '../compaction/types.js';
import type { AssetConfig, CtxpruneEnv, FetchLike } from '../config.js';
import { CtxpruneError } from '../errors.js';
import type { PreparedPrune } from '../prune/pipeline.js';
import type { PruneOptions, PruneResult } from '../prune/types.js';
import { AutoScorer } from '../scorers/auto.js';
import type { Scorer } from '../scorers/types.js';
import type { TokenCounter } from '../text/tokens.js';
import type {
  EngineChoice,
  EngineReport,
  LoadKind,
  LoadProgress,
  PrunerWorkerApi,
  SerializedError,
  WorkerCapabilities,
  WorkerCompactOptions,
  WorkerCompactResult,
  WorkerInit,
  WorkerPruneOptions,
  WorkerPreload,
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

async function defaultProbeWebGpu(): Promise<boolean> {
  const nav = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } }).navigator;
  if (!nav?.gpu) return false;
  try {
    const adapter = await Promise.race([nav.gpu.requestAdapter(), new Promise<null>((r) => setTimeout(() => r(null), 2000))]);
    return adapter != null;
  } catch {
    return false;
  }
}

/**
 * The engine choice when no neural scorer can be used (none in this build, or no model URL given):
 * everything runs the lexical scorer, and every fallback says so.
 */
export function resolveEngine(requested: EngineChoice, caps: WorkerCapabilities): { scorer: 'lexical'; note: string | null } {
  if (requested === 'lexical') return { scorer: 'lexical', note: null };
  if (requested === 'auto') {
    return { scorer: 'lexical', note: 'No neural model is bundled yet, so auto picked the lexical scorer.' };
  }
  const what = requested === 'webgpu' ? 'WebGPU' : 'WASM';
  const gpu = requested === 'webgpu' && !caps.webgpu ? ' (this browser also exposes no WebGPU adapter)' : '';
  return {
    scorer: 'lexical',
    note: `The neural scorer on ${what} is not available: no model is bundled yet${gpu}. Ran the lexical scorer on the CPU instead.`,
  };
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

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Request options as a string that does not depend on the order of their keys (or on undefined ones). */
const optionsKey = (o: WorkerPruneOptions): string =>
  JSON.stringify(o, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );

export function createWorkerHost(engine: Engine, opts: HostOptions = {}): PrunerWorkerApi {
  const controllers = new Map<number, AbortController>();
  const cancelledEarly = new Set<number>();
  let caps: WorkerCapabilities | null = null;
  let modelUrl: string | null = null;
  let progress: ((p: LoadProgress) => void) | null = null;
  /** One load per backend for the worker's life; a failed load stays failed (reload to retry). */
  const neural = new Map<NeuralBackend, Promise<NeuralScorerLike>>();
  /** The backends whose scorer has loaded. */
  const ready = new Set<NeuralBackend>();
  /** URLs of the assets whose downloads are reported (grammars, tree-sitter, the tokenizer's table), by URL. */
  let watched = new Map<string, { what: LoadKind; name?: string }>();

  function report(p: LoadProgress): void {
    try {
      void Promise.resolve(progress?.(p)).catch(() => undefined);
    } catch {
      /* the page went away */
    }
  }
  const reporter =
    (what: LoadKind, name?: string) =>
    (loaded: number, total: number | null, done = false) =>
      report({ what, ...(name ? { name } : {}), loaded, total, done });

  /** Report `p`'s start and end (for loads whose bytes cannot be counted: a module import). */
  function bracket<T>(p: Promise<T>, what: LoadKind, name?: string): Promise<T> {
    const r = reporter(what, name);
    r(0, null);
    p.then(
      () => r(1, 1, true),
      () => r(0, null, true),
    );
    return p;
  }

  /**
   * env.fetch for the worker: the watched assets' bodies are counted as they arrive and reported.
   * Everything else passes through untouched.
   */
  const progressFetch: FetchLike = async (input, init) => {
    const res = await globalThis.fetch(input, init);
    const url = typeof input === 'string' ? input : input.href;
    const w = watched.get(url);
    if (!w || !res.ok || !res.body) return res;
    const r = reporter(w.what, w.name);
    const total = Number(res.headers.get('content-length')) || null;
    let loaded = 0;
    r(0, total);
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          loaded += chunk.byteLength;
          r(loaded, total);
          ctl.enqueue(chunk);
        },
        flush() {
          r(loaded, loaded, true);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };

  function loadNeural(backend: NeuralBackend): Promise<NeuralScorerLike> {
    let p = neural.get(backend);
    if (!p) {
      const model = reporter('model');
      const runtime = reporter('onnxruntime');
      let runtimeSeen: [number, number | null] | null = null;
      p = engine.loadNeural!({
        backend,
        model: modelUrl!,
        onProgress: (l, t) => model(l, t),
        onRuntimeProgress: (l, t) => {
          runtimeSeen = [l, t];
          runtime(l, t);
        },
      });
      const settle = (ok: boolean) => {
        model(ok ? 1 : 0, ok ? 1 : null, true);
        if (runtimeSeen) runtime(runtimeSeen[0], runtimeSeen[1], true);
      };
      p.then(
        () => {
          ready.add(backend);
          settle(true);
        },
        () => settle(false),
      );
      neural.set(backend, p);
    }
    return p;
  }

  let tokenizer: Promise<TokenCounter> | null = null;
  function loadTokenizer(): Promise<TokenCounter> {
    if (!tokenizer) {
      const p = engine.loadDefaultTokenCounter();
      tokenizer = bracket(p, 'tokenizer', 'o200k_base');
      p.catch(() => {
        if (tokenizer === p) tokenizer = null;
      });
    }
    return tokenizer;
  }

  const neuralAvailable = () => !!engine.loadNeural && !!modelUrl;

  /** Start every load the first request will need, side by side; failures surface when a request needs them. */
  function preload(p: WorkerPreload): void {
    const quiet = (x: Promise<unknown>) => void x.catch(() => undefined);
    quiet(loadTokenizer());
    const langs = p.languages ?? [];
    if (engine.loadGrammar) for (const l of langs) quiet(engine.loadGrammar(l));
    const e = p.engine ?? 'auto';
    if (e === 'lexical' || !neuralAvailable()) return;
    // Auto's first results come from the JavaScript executor: onnxruntime (its 14 MB wasm compiled,
    // then ~0.5 s of initialisation on this thread) loads after the first result (autoScorer).
    quiet(loadNeural(e === 'webgpu' ? 'webgpu' : e === 'wasm' ? 'wasm' : 'js'));
  }

  /**
   * Auto's scorer: the WASM one once it has loaded; until then the JavaScript executor's (the same
   * model, no onnxruntime start-up; slower per call, so not for good), with onnxruntime loading
   * behind the request (startWasm). A model the executor cannot run, or its failure, waits for WASM.
   */
  async function autoScorer(): Promise<{ scorer: NeuralScorerLike; deferWasm: boolean }> {
    if (ready.has('wasm')) return { scorer: await loadNeural('wasm'), deferWasm: false };
    // onnxruntime is on its way: the executor meanwhile, if it is there.
    if (neural.has('wasm')) return { scorer: await loadNeural(ready.has('js') ? 'js' : 'wasm'), deferWasm: false };
    try {
      const s = await loadNeural('js');
      // The executor fell back to onnxruntime itself (a model it cannot run): that is the WASM scorer.
      if (s.backend === 'wasm') {
        neural.set('wasm', Promise.resolve(s));
        ready.add('wasm');
      }
      return { scorer: s, deferWasm: s.backend !== 'wasm' };
    } catch {
      return { scorer: await loadNeural('wasm'), deferWasm: false };
    }
  }

  /** Start onnxruntime's WASM scorer after the current work (Auto moves to it once it has loaded). */
  function startWasm(): void {
    setTimeout(() => void loadNeural('wasm').catch(() => undefined), 0);
  }

  /** Wait for the tokenizer and the request's grammar, so that the prune's own time excludes loading. */
  async function loadsFor(text: string, options: PruneOptions): Promise<void> {
    const lang = engine.languageOf?.(text, options) ?? null;
    await Promise.all([loadTokenizer(), lang && engine.loadGrammar ? engine.loadGrammar(lang).catch(() => undefined) : undefined]);
  }

  /** What to run for a request, and a note whenever that is not exactly what was asked. */
  async function chooseScorer(requested: EngineChoice): Promise<{ scorer: Scorer | 'lexical'; note: string | null; deferWasm?: boolean }> {
    if (requested === 'lexical') return { scorer: 'lexical', note: null };
    // No wait for the WebGPU probe here: Auto and WASM do not need it.
    if (!neuralAvailable()) return resolveEngine(requested, await capabilities());
    // Auto prefers WASM (after the executor's first results: autoScorer): the line model is small,
    // and WebGPU here may be a software adapter.
    const backend: NeuralBackend = requested === 'webgpu' ? 'webgpu' : 'wasm';
    try {
      if (requested === 'auto') {
        // Auto: the model wherever the language is known; it says when it stood aside (scorers/auto.ts).
        const { scorer, deferWasm } = await autoScorer();
        // One AutoScorer per loaded model, so that a reused preparation sees the same scorer.
        let auto = autoScorers.get(scorer);
        if (!auto) autoScorers.set(scorer, (auto = new AutoScorer(scorer)));
        return { scorer: auto, note: null, deferWasm };
      }
      const s = await loadNeural(backend);
      let note: string | null = null;
      if (requested === 'webgpu' && s.backend !== 'webgpu') {
        note = `WebGPU unavailable (${s.fallbackReason ?? 'no adapter'}): the neural scorer ran on WASM.`;
      }
      return { scorer: s, note };
    } catch (e) {
      return {
        scorer: 'lexical',
        note: `The neural model failed to load (${errMessage(e)}); ran the lexical scorer instead.`,
      };
    }
  }
  /** The AutoScorer of each loaded neural scorer. */
  const autoScorers = new WeakMap<Scorer, AutoScorer>();

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
  interface Ran {
    reply: WorkerReply<WorkerPruneResult>;
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

  const probe = opts.probeWebGpu ?? defaultProbeWebGpu;
  const yieldFirst = opts.yieldFirst ?? true;

  async function capabilities(): Promise<WorkerCapabilities> {
    if (!caps) {
      const g = globalThis as { crossOriginIsolated?: boolean; navigator?: { hardwareConcurrency?: number } };
      caps = {
        webgpu: await probe(),
        neural: neuralAvailable(),
        crossOriginIsolated: g.crossOriginIsolated === true,
        threads: g.navigator?.hardwareConcurrency ?? 1,
      };
    }
    return caps;
  }

  return {
    async init(init: WorkerInit, onProgress?: (p: LoadProgress) => void): Promise<WorkerCapabilities> {
      progress = onProgress ?? null;
      modelUrl = init.modelUrl ?? null;
      caps = null;
      if (engine.configureRuntime && (init.ortWasmPaths !== undefined || init.wasmThreads !== undefined || init.ortWasmUrl !== undefined)) {
        engine.configureRuntime({
          ...(init.ortWasmPaths !== undefined ? { wasmPaths: init.ortWasmPaths } : {}),
          ...(init.wasmThreads !== undefined ? { wasmThreads: init.wasmThreads } : {}),
          ...(init.ortWasmUrl !== undefined ? { wasmBinaryUrl: init.ortWasmUrl } : {}),
        });
      }
      const a = init.assets;
      if (a) {
        const patch: Partial<AssetConfig> = {};
        if (a.grammarUrls) patch.grammarUrls = { ...a.grammarUrls };
        if (a.grammarBaseUrl !== undefined) patch.grammarBaseUrl = a.grammarBaseUrl;
        if (a.treeSitterWasmUrl !== undefined) patch.treeSitterWasmUrl = a.treeSitterWasmUrl;
        if (a.tokenizerUrl !== undefined) patch.tokenizerUrl = a.tokenizerUrl;
        if (a.assetBase !== undefined) patch.assetBase = a.assetBase;
        watched = new Map();
        for (const [name, url] of Object.entries(a.grammarUrls ?? {})) watched.set(url, { what: 'grammar', name });
        if (a.treeSitterWasmUrl) watched.set(a.treeSitterWasmUrl, { what: 'tree-sitter' });
        if (a.tokenizerUrl) watched.set(a.tokenizerUrl, { what: 'tokenizer', name: 'o200k_base' });
        // With a progress listener, the grammars' downloads are counted on their way in.
        engine.configure(progress ? { assets: patch, fetch: progressFetch } : { assets: patch });
      }
      if (init.preload) {
        preload(init.preload);
        if (init.preload.request) startAhead(init.preload.request.text, init.preload.request.options);
      }
      return capabilities();
    },

    async prune(text: string, options: WorkerPruneOptions, requestId: number) {
      // A cancel may arrive before the request starts (it was superseded while queued).
      if (cancelledEarly.delete(requestId)) return aborted();
      const controller = new AbortController();
      controllers.set(requestId, controller);
      try {
        if (yieldFirst) await new Promise((r) => setTimeout(r, 0));
        if (controller.signal.aborted) return aborted();
        const { reply, deferWasm } = await (takeAhead(text, options, controller.signal) ?? run(text, options, controller.signal));
        if (deferWasm) startWasm();
        return controller.signal.aborted ? aborted() : reply;
      } finally {
        controllers.delete(requestId);
      }
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

    async compact(messages: Message[], options: WorkerCompactOptions, requestId: number) {
      if (cancelledEarly.delete(requestId)) return aborted();
      const controller = new AbortController();
      controllers.set(requestId, controller);
      let deferWasm = false;
      try {
        if (yieldFirst) await new Promise((r) => setTimeout(r, 0));
        if (controller.signal.aborted) return aborted();
        if (!engine.compact) throw new CtxpruneError('INVALID_OPTION', 'This worker was built without compaction.');
        const requested: EngineChoice = options.engine ?? 'auto';
        const { engine: _drop, ...rest } = options;
        const tLoad = performance.now();
        const [choice, counter] = await Promise.all([chooseScorer(requested), loadTokenizer()]);
        const loadMs = performance.now() - tLoad;
        if (controller.signal.aborted) return aborted();
        deferWasm = choice.deferWasm === true;
        // compact() takes no signal: a cancel stops the reply, not the work.
        const { store, ...result } = await engine.compact(messages, { ...rest, scorer: choice.scorer, tokenCounter: counter });
        if (controller.signal.aborted) return aborted();
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
        return { ok: true, value } as const;
      } catch (e) {
        return controller.signal.aborted ? aborted() : ({ ok: false, error: serializeError(e) } as const);
      } finally {
        controllers.delete(requestId);
        if (deferWasm) startWasm();
      }
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
