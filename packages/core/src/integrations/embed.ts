/**
 * Browser defaults and the one configuration call for embedders. Importing this module points the
 * library at the assets bundled with the package (see bundled.ts); `configure()` here points them
 * elsewhere in one call:
 *
 *     configure({ assets: { assetBase: 'https://cdn.example.com/ctxprune/' } })
 *       // grammars from <assetBase>grammars/, web-tree-sitter.wasm and models/ctxprune-lamr.onnx from <assetBase>
 *     configure({ model: vscodeUri('models/ctxprune-lamr.onnx'), assets: { grammarBaseUrl: vscodeUri('grammars/') } })
 *
 * Explicit per-file settings (grammarUrls, treeSitterWasmUrl, model) always win over a base.
 */
import { configure as configureEnv, env, type AssetConfig, type CtxpruneEnv, type FetchLike } from '../config.js';
import { configureRuntime, runtimeConfig, type ModelSource } from '../runtime/config.js';
import { resetGrammarCache } from '../syntax/loader.js';
import type { WorkerInit } from '../worker/protocol.js';
import { bundledAssets } from './bundled.js';

export interface EmbedConfig {
  assets?: Partial<AssetConfig>;
  fetch?: FetchLike;
  /** The neural scorer's model: a URL, bytes, or null = `<assetBase>models/ctxprune-lamr.onnx`. */
  model?: ModelSource;
  /** Base URL of onnxruntime-web's .wasm files; null = where the bundler put them. */
  ortWasmPaths?: string | null;
}

let usingBundled = false;

/** Point the library at the package's bundled assets (idempotent; done on import of the browser entry). */
export function useBundledAssets(): void {
  const b = bundledAssets();
  configureEnv({ assets: { grammarUrls: { ...b.grammarUrls }, treeSitterWasmUrl: b.treeSitterWasmUrl } });
  configureRuntime({ model: b.modelUrl });
  usingBundled = true;
  resetGrammarCache();
}

/** The one configuration call: asset locations (or a base for all of them), fetch, model, ORT wasm. */
export function configure(patch: EmbedConfig): CtxpruneEnv {
  const a = patch.assets ?? {};
  const rebased = a.assetBase !== undefined || a.grammarBaseUrl !== undefined;
  const assets: Partial<AssetConfig> = { ...a };
  if (rebased && usingBundled) {
    const b = bundledAssets();
    // A base replaces the bundled per-file URLs unless this call sets them.
    if (a.grammarUrls === undefined) {
      const kept: AssetConfig['grammarUrls'] = {};
      for (const [k, v] of Object.entries(env.assets.grammarUrls)) if (v !== undefined && String(v) !== (b.grammarUrls as Record<string, string>)[k]) kept[k] = v;
      assets.grammarUrls = kept;
    }
    if (a.assetBase !== undefined) {
      if (a.treeSitterWasmUrl === undefined && env.assets.treeSitterWasmUrl === b.treeSitterWasmUrl) assets.treeSitterWasmUrl = null;
      if (patch.model === undefined && runtimeConfig.model === b.modelUrl) configureRuntime({ model: null });
    }
  }
  if (patch.model !== undefined) configureRuntime({ model: patch.model });
  if (patch.ortWasmPaths !== undefined) configureRuntime({ wasmPaths: patch.ortWasmPaths });
  const out = configureEnv({ assets, ...(patch.fetch ? { fetch: patch.fetch } : {}) });
  if (patch.assets) resetGrammarCache();
  return out;
}

/** Where the model is read from under the current configuration (a URL string), or null for bytes. */
export function currentModelUrl(): string | null {
  const m = runtimeConfig.model;
  if (m === null) {
    const base = env.assets.assetBase.endsWith('/') ? env.assets.assetBase : `${env.assets.assetBase}/`;
    return `${base}models/ctxprune-lamr.onnx`;
  }
  if (typeof m === 'string') return m;
  if (m instanceof URL) return m.href;
  return null;
}

/** The page's current configuration as a worker init message (asset URLs, model, ORT wasm). */
export function workerInit(): WorkerInit {
  const a = env.assets;
  const grammarUrls: Record<string, string> = {};
  for (const [k, v] of Object.entries(a.grammarUrls)) if (v !== undefined) grammarUrls[k] = String(v);
  return {
    assets: {
      grammarUrls,
      grammarBaseUrl: a.grammarBaseUrl === null ? null : String(a.grammarBaseUrl),
      treeSitterWasmUrl: a.treeSitterWasmUrl === null ? null : String(a.treeSitterWasmUrl),
      assetBase: a.assetBase,
    },
    modelUrl: currentModelUrl(),
    ortWasmPaths: runtimeConfig.wasmPaths,
  };
}
