/**
 * The one configuration surface, the same in Node and in browsers (in the spirit of
 * onnxruntime-web's and transformers.js's `env`): where the assets are (grammars, tree-sitter's
 * wasm, the model, onnxruntime's wasm), the `fetch` that reads them, and the neural runtime's
 * settings. Browser IDEs that embed ctxprune point asset URLs at their own origin (or a CDN, or an
 * extension URI) and may inject `fetch`; Node callers usually change nothing. Nothing in the library
 * reads environment variables: the CLI and the MCP server read theirs at their edge
 * (`configureFromEnvironment` in `@ctxprune/core/node`) and call `configure`.
 */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface AssetConfig {
  /**
   * Base URL (or, in Node, a directory path) holding the grammar .wasm files, named
   * `tree-sitter-<grammar>.wasm`. null = the copies shipped in npm packages (Node) or
   * `<assetBase>/grammars/` (browser).
   */
  grammarBaseUrl: string | URL | null;
  /** Per-language override: exact URL of one grammar. */
  grammarUrls: Partial<Record<string, string | URL>>;
  /** URL of web-tree-sitter's own web-tree-sitter.wasm; null = package default / `<assetBase>/`. */
  treeSitterWasmUrl: string | URL | null;
  /**
   * URL (or, in Node, a path) of the o200k_base rank table, `o200k_base.bin` (dist/assets/ in the
   * package), loaded in place instead of parsing js-tiktoken's rank module (~0.5 s on every load).
   * null = the package's copy (Node) / `<assetBase>o200k_base.bin` (browser). When the table cannot
   * be loaded, the tokenizer is built from the rank module (slower, same counts).
   */
  tokenizerUrl: string | URL | null;
  /** Base for browser defaults of the entries above. */
  assetBase: string;
}

/**
 * Which runtime runs the neural scorer's model: 'auto' (WebGPU when a browser has an adapter, else
 * WASM), 'webgpu', 'wasm' (onnxruntime-web), or 'js', the pure-TypeScript executor
 * (runtime/js/): no onnxruntime start-up (~0.6 s of WASM initialisation in Node), slower per call
 * than warm WASM, so for short-lived processes (the CLI's `prune` uses it by default). A model
 * the js executor cannot run falls back to WASM.
 */
export type Backend = 'auto' | 'webgpu' | 'wasm' | 'js';

/** Model bytes: a URL (string or URL; in Node also a file path), the bytes themselves, or null = shipped default. */
export type ModelSource = string | URL | ArrayBuffer | Uint8Array | null;

/** The neural scorer's model, backend and tuning. */
export interface RuntimeConfig {
  model: ModelSource;
  backend: Backend;
  /** Use the Cache API (browsers) for downloaded model bytes. */
  cache: boolean;
  /** WASM threads; 0 = onnxruntime's default (multi-threaded only when cross-origin isolated). */
  wasmThreads: number;
  /** Base URL of onnxruntime-web's .wasm files (browsers); null = the package's default. */
  wasmPaths: string | null;
  /**
   * URL of onnxruntime-web's plain SIMD build, `ort-wasm-simd-threaded.wasm` (browsers, WASM
   * backend). When set, the library downloads it itself, with progress and the Cache API, and
   * hands the bytes to onnxruntime; null = onnxruntime fetches it (no progress, HTTP cache only).
   */
  wasmBinaryUrl: string | null;
  /**
   * Multiplier on the model's CRF transitions (1 = as trained). 0.5 (the default) lets the budget
   * packer, not the chain's stickiness, decide how far a kept run extends: +0.011 / +0.002 recall at
   * 4× / 8× on the held-out repositories' commits, +0.001 / +0.009 on their docstrings.
   */
  transitionScale: number;
  /** Weight of the lexical scorer's emissions blended into the neural ones (0 = neural only). */
  lexicalBlend: number;
  /** Spread of the model's keep probabilities along the file before decoding (0 = raw margins, the default since the budget packer clusters evidence itself). */
  spread: number;
  /** Pull of the gate toward the semantic rubric (0 = the model's gate, 1 = semantic only). */
  semanticGate: number;
}

export interface CtxpruneEnv {
  assets: AssetConfig;
  fetch: FetchLike;
  runtime: RuntimeConfig;
}

export const DEFAULT_RUNTIME: Readonly<RuntimeConfig> = Object.freeze({
  model: null,
  backend: 'auto',
  cache: true,
  wasmThreads: 0,
  wasmPaths: null,
  wasmBinaryUrl: null,
  transitionScale: 0.5,
  lexicalBlend: 0,
  spread: 0,
  semanticGate: 0,
});

export const env: CtxpruneEnv = {
  assets: {
    grammarBaseUrl: null,
    grammarUrls: {},
    treeSitterWasmUrl: null,
    tokenizerUrl: null,
    assetBase: '/ctxprune/',
  },
  fetch: (input, init) => globalThis.fetch(input, init),
  runtime: { ...DEFAULT_RUNTIME },
};

/** What `configure` takes: any part of the env. */
export interface ConfigurePatch {
  assets?: Partial<AssetConfig>;
  fetch?: FetchLike;
  runtime?: Partial<RuntimeConfig>;
  /** Shorthand for `runtime.model`: the neural scorer's model (a URL, a path in Node, bytes; null = shipped default). */
  model?: ModelSource;
  /** Shorthand for `runtime.wasmPaths`: base URL of onnxruntime-web's .wasm files. */
  ortWasmPaths?: string | null;
}

const assetListeners = new Set<() => void>();

/** Called after every change of `env.assets` (the grammar loader drops what it loaded from the old URLs). */
export function onAssetsChange(fn: () => void): void {
  assetListeners.add(fn);
}

/** Change part of the configuration; returns the resulting env. */
export function configure(patch: ConfigurePatch): CtxpruneEnv {
  if (patch.assets) Object.assign(env.assets, patch.assets);
  if (patch.fetch) env.fetch = patch.fetch;
  if (patch.runtime) Object.assign(env.runtime, patch.runtime);
  if (patch.model !== undefined) env.runtime.model = patch.model;
  if (patch.ortWasmPaths !== undefined) env.runtime.wasmPaths = patch.ortWasmPaths;
  if (patch.assets) for (const fn of assetListeners) fn();
  return env;
}

/** `<base>` with exactly one trailing slash, so that `withSlash(base) + file` is a URL under it. */
export function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

/** `<assetBase>/<path>`. */
export function assetUrl(path: string): string {
  return withSlash(env.assets.assetBase) + path;
}

export const isNode: boolean =
  typeof process !== 'undefined' &&
  !!(process as { versions?: { node?: string } }).versions?.node &&
  typeof (globalThis as { window?: unknown }).window === 'undefined';
