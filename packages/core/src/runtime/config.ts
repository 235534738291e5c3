/**
 * Where the neural scorer's model comes from and which backend runs it. Browser IDEs point
 * `modelUrl` at their own origin or pass bytes; Node uses the copy shipped in models/ unless
 * CTXPRUNE_MODEL names another file.
 */
import { env, isNode } from '../config.js';

export type Backend = 'auto' | 'webgpu' | 'wasm';

/** Model bytes: a URL (string or URL; in Node also a file path), the bytes themselves, or null = shipped default. */
export type ModelSource = string | URL | ArrayBuffer | Uint8Array | null;

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

function envNumber(name: string, dflt: number): number {
  const v = isNode ? (process as { env?: Record<string, string | undefined> }).env?.[name] : undefined;
  const x = v === undefined ? NaN : Number(v);
  return Number.isFinite(x) ? x : dflt;
}

export const runtimeConfig: RuntimeConfig = {
  model: null,
  backend: 'auto',
  cache: true,
  wasmThreads: 0,
  wasmPaths: null,
  wasmBinaryUrl: null,
  transitionScale: envNumber('CTXPRUNE_NEURAL_TSCALE', 0.5),
  lexicalBlend: envNumber('CTXPRUNE_NEURAL_BLEND', 0),
  spread: envNumber('CTXPRUNE_NEURAL_SPREAD', 0),
  semanticGate: envNumber('CTXPRUNE_NEURAL_SEMGATE', 0),
};

export function configureRuntime(patch: Partial<RuntimeConfig>): RuntimeConfig {
  return Object.assign(runtimeConfig, patch);
}

export const DEFAULT_MODEL_FILE = 'ctxprune-lamr.onnx';

/** The shipped model: repo-root models/ in Node (relative to dist/runtime/), `<assetBase>models/` in browsers. */
export function defaultModelLocation(): string | URL {
  return defaultModelLocations()[0];
}

/**
 * Where to look for the shipped model, in order. Node: CTXPRUNE_MODEL, else the repository's
 * models/ (a checkout), then the copy the build puts in dist/assets/models/ (an installed package).
 */
export function defaultModelLocations(): (string | URL)[] {
  if (isNode) {
    const fromEnv = (process as { env?: Record<string, string | undefined> }).env?.CTXPRUNE_MODEL;
    if (fromEnv) return [fromEnv];
    return [
      new URL(`../../../../models/${DEFAULT_MODEL_FILE}`, import.meta.url),
      new URL(`../assets/models/${DEFAULT_MODEL_FILE}`, import.meta.url),
    ];
  }
  const base = env.assets.assetBase.endsWith('/') ? env.assets.assetBase : `${env.assets.assetBase}/`;
  return [`${base}models/${DEFAULT_MODEL_FILE}`];
}
