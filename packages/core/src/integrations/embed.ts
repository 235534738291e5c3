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
import { assetUrl, configure as configureEnv, env, type AssetConfig, type ConfigurePatch, type CtxpruneEnv } from '../config.js';
import type { WorkerInit } from '../worker/protocol.js';
import { bundledAssets } from './bundled.js';

/** The browser entry's configure takes what the base one takes (config.ts: `ConfigurePatch`). */
export type EmbedConfig = ConfigurePatch;

let usingBundled = false;

/** Point the library at the package's bundled assets (idempotent; done on import of the browser entry). */
export function useBundledAssets(): void {
  const b = bundledAssets();
  configureEnv({ assets: { grammarUrls: { ...b.grammarUrls }, treeSitterWasmUrl: b.treeSitterWasmUrl, tokenizerUrl: b.tokenizerUrl }, model: b.modelUrl });
  usingBundled = true;
}

/**
 * config.ts's `configure`, plus one rule of the bundled defaults: a new `assetBase` or
 * `grammarBaseUrl` replaces the bundled per-file URLs that this call does not set.
 */
export function configure(patch: EmbedConfig): CtxpruneEnv {
  const a = patch.assets ?? {};
  const rebased = a.assetBase !== undefined || a.grammarBaseUrl !== undefined;
  const assets: Partial<AssetConfig> = { ...a };
  if (rebased && usingBundled) {
    const b = bundledAssets();
    // A base replaces the bundled per-file URLs unless this call sets them.
    if (a.grammarUrls === undefined) {
      const kept: AssetConfig['grammarUrls'] = {};
      for (const [k, v] of Object.entries(env.assets.grammarUrls))
        if (v !== undefined && String(v) !== (b.grammarUrls as Record<string, string>)[k]) kept[k] = v;
      assets.grammarUrls = kept;
    }
    if (a.assetBase !== undefined) {
      if (a.treeSitterWasmUrl === undefined && env.assets.treeSitterWasmUrl === b.treeSitterWasmUrl) assets.treeSitterWasmUrl = null;
      if (a.tokenizerUrl === undefined && env.assets.tokenizerUrl === b.tokenizerUrl) assets.tokenizerUrl = null;
      if (patch.model === undefined && patch.runtime?.model === undefined && env.runtime.model === b.modelUrl) configureEnv({ model: null });
    }
  }
  return configureEnv({ ...patch, ...(patch.assets ? { assets } : {}) });
}

/** Where the model is read from under the current configuration (a URL string), or null for bytes. */
export function currentModelUrl(): string | null {
  const m = env.runtime.model;
  if (m === null) return assetUrl('models/ctxprune-lamr.onnx');
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
      tokenizerUrl: a.tokenizerUrl === null ? null : String(a.tokenizerUrl),
      assetBase: a.assetBase,
    },
    modelUrl: currentModelUrl(),
    ortWasmPaths: env.runtime.wasmPaths,
  };
}
