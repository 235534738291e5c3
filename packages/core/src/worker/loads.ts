/**
 * The pruning worker's one-time loads and its choice of scorer per request: the tokenizer, the
 * neural scorer once per backend (Auto's first results on the js executor, onnxruntime's WASM
 * behind them), the download progress of every asset, and what the worker can do. host.ts runs
 * the requests; this holds what they load.
 */
import type { AssetConfig, FetchLike } from '../config.js';
import type { PruneOptions } from '../prune/types.js';
import { AutoScorer } from '../scorers/auto.js';
import type { Scorer } from '../scorers/types.js';
import type { TokenCounter } from '../text/tokens.js';
import type { Engine, NeuralBackend, NeuralScorerLike } from './host.js';
import type { EngineChoice, LoadKind, LoadProgress, WorkerCapabilities, WorkerInit, WorkerPreload } from './protocol.js';

/** What a request runs: the scorer (or 'lexical'), a note when that is not what was asked, and whether onnxruntime should start behind it. */
export interface ScorerChoice {
  scorer: Scorer | 'lexical';
  note: string | null;
  deferWasm?: boolean;
}

export interface Loads {
  /** The page's init: the model URL, onnxruntime's settings, the asset URLs (their downloads reported to `onProgress`). */
  init: (init: WorkerInit, onProgress?: (p: LoadProgress) => void) => void;
  capabilities: () => Promise<WorkerCapabilities>;
  loadTokenizer: () => Promise<TokenCounter>;
  /** Start every load the first request will need, side by side. */
  preload: (p: WorkerPreload) => void;
  /** Wait for the tokenizer and the request's grammar. */
  loadsFor: (text: string, options: PruneOptions) => Promise<void>;
  chooseScorer: (requested: EngineChoice) => Promise<ScorerChoice>;
  /** Start onnxruntime's WASM scorer after the current work. */
  startWasm: () => void;
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

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function createLoads(engine: Engine, opts: { probeWebGpu?: () => Promise<boolean> } = {}): Loads {
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

  const probe = opts.probeWebGpu ?? defaultProbeWebGpu;

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
    init: (init: WorkerInit, onProgress?: (p: LoadProgress) => void): void => {
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
    },
    capabilities,
    loadTokenizer,
    preload,
    loadsFor,
    chooseScorer,
    startWasm,
  };
}
