/**
 * The message contract between the page (client.ts) and the pruning worker (prune.worker.ts).
 * Everything here crosses a structured-clone boundary: plain data only (no URL objects, no
 * AbortSignal, no class instances).
 */
import type { OverflowEntry } from '../compaction/store.js';
import type { CompactOptions, CompactResult, Message } from '../compaction/types.js';
import type { PruneOptions, PruneResult } from '../prune/types.js';

/**
 * Which scorer/backend the caller asks for. 'lexical' is the pure-TypeScript scorer; 'webgpu' and
 * 'wasm' name the neural scorer's ONNX backends; 'auto' picks the best that is available.
 */
export type EngineChoice = 'auto' | 'webgpu' | 'wasm' | 'lexical';
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', 'webgpu', 'wasm', 'lexical'];

/** Asset locations the page resolved (e.g. Vite `?url` imports), passed to the worker at start. */
export interface WorkerAssets {
  /** Exact grammar URLs keyed by language id (python, typescript, tsx, c, csharp, …). */
  grammarUrls?: Record<string, string>;
  grammarBaseUrl?: string | null;
  treeSitterWasmUrl?: string | null;
  /** The o200k_base rank table (o200k_base.bin), loaded in place of js-tiktoken's rank module. */
  tokenizerUrl?: string | null;
  assetBase?: string;
}

export interface WorkerInit {
  assets?: WorkerAssets;
  /** URL of the neural scorer's ONNX model; null/absent = no model (the lexical scorer only). */
  modelUrl?: string | null;
  /** onnxruntime-web wasm location prefix; null = let the bundler / package resolve it. */
  ortWasmPaths?: string | null;
  /**
   * URL of onnxruntime-web's plain SIMD wasm (`ort-wasm-simd-threaded.wasm`): the worker then
   * downloads it itself, with progress, and keeps it in the Cache API. Absent = onnxruntime fetches it.
   */
  ortWasmUrl?: string | null;
  /** WASM threads for onnxruntime (0 = its default: threaded only when cross-origin isolated). */
  wasmThreads?: number;
  /**
   * Start loading, at init, what the first request will need, all at once: the tokenizer, the
   * grammars of these languages, and the neural scorer when `engine` will use it. Nothing waits on it.
   */
  preload?: WorkerPreload;
}

export interface WorkerPreload {
  /** Language ids (python, typescript, …) whose grammars to load. */
  languages?: string[];
  /** The engine the first request will ask for: 'auto' and 'wasm' load the model on WASM, 'webgpu' on WebGPU. */
  engine?: EngineChoice;
  /**
   * The first request itself, pruned as soon as its loads are in, while the page is still busy:
   * a prune() of the same text and options (the first one) then gets that result; any other
   * prune() cancels it.
   */
  request?: { text: string; options: WorkerPruneOptions };
}

/** What a one-time download is: the model, onnxruntime's wasm, the tokenizer, tree-sitter or a grammar. */
export type LoadKind = 'model' | 'onnxruntime' | 'tokenizer' | 'tree-sitter' | 'grammar';

/** Progress of a one-time load (model, runtime, tokenizer, grammar), reported to the page while it loads. */
export interface LoadProgress {
  what: LoadKind;
  /** Which one, when there are several of a kind (a grammar's language). */
  name?: string;
  loaded: number;
  /** Bytes expected, when known (content-length); else null. */
  total: number | null;
  done: boolean;
}

/** What the worker found it can do; the UI uses it to label the engine picker honestly. */
export interface WorkerCapabilities {
  /** navigator.gpu exists and returned an adapter. */
  webgpu: boolean;
  /** A neural scorer (ONNX model) is bundled; whether it loads is known after the first use. */
  neural: boolean;
  crossOriginIsolated: boolean;
  /** hardwareConcurrency seen by the worker. */
  threads: number;
}

/** Prune options as they cross to the worker: no signal, no scorer/counter instances. */
export type WorkerPruneOptions = Omit<PruneOptions, 'signal' | 'scorer' | 'tokenCounter'> & {
  engine?: EngineChoice;
};

/** What actually ran for one request, next to what was asked for. */
export interface EngineReport {
  requested: EngineChoice;
  scorer: string;
  backend: string;
  /** Set when the request could not be honoured as asked (a fallback happened), in words. */
  note: string | null;
  /**
   * ms this request waited for one-time loads (model and runtime, tokenizer, grammar) before
   * pruning began; 0 once they are loaded. stats.ms is the pruning alone.
   */
  loadMs: number;
}

export interface WorkerPruneResult extends PruneResult {
  engine: EngineReport;
}

/**
 * Compaction options as they cross to the worker: data only, so no goal or relevance hooks and no
 * scorer or counter instances. `engine` picks the line scorer that cuts the tool outputs, as for a
 * prune ('auto': the model where an output's language is known); the budget is counted in o200k_base.
 */
export type WorkerCompactOptions = Omit<CompactOptions, 'summarizeGoal' | 'relevance' | 'scorer' | 'documentScorer' | 'tokenCounter'> & {
  engine?: EngineChoice;
};

/** compact()'s result as data: the overflow store's entries by key in place of the store. */
export interface WorkerCompactResult extends Omit<CompactResult, 'store'> {
  store: Record<string, OverflowEntry>;
  /** `scorer` lists what cut the tool outputs (dump.cutScorers), 'none' when nothing was cut. */
  engine: EngineReport;
}

export interface SerializedError {
  name: string;
  message: string;
  /** CtxpruneError code when the failure was a deliberate one. */
  code?: string;
}

/** Errors travel as data so that CtxpruneError codes survive the boundary. */
export type WorkerReply<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

export interface PrunerWorkerApi {
  /** `onProgress` must be a comlink proxy when it crosses a real worker boundary. */
  init(init: WorkerInit, onProgress?: (p: LoadProgress) => void): Promise<WorkerCapabilities>;
  prune(text: string, options: WorkerPruneOptions, requestId: number): Promise<WorkerReply<WorkerPruneResult>>;
  cancel(requestId: number): void;
  countTokens(text: string): Promise<WorkerReply<number>>;
  /** compact() of an agent transcript, tool outputs cut by the requested engine. */
  compact(messages: Message[], options: WorkerCompactOptions, requestId: number): Promise<WorkerReply<WorkerCompactResult>>;
}
