/**
 * The browser entry of @ctxprune/core (the `browser` condition of the exports map): the whole
 * public API, with the package's own assets (tree-sitter runtime, grammars, default model) found
 * without configuration, `configure()` that can point all of them elsewhere in one call, and
 * `createPruner()`, the pruning Web Worker bundled by the app's bundler.
 */
import { createPrunerClient, type PrunerClient, type PrunerClientOptions } from '../worker/client.js';
import { useBundledAssets, workerInit } from './embed.js';

export * from '../index.js';
// The embedder's configure (a superset of the base one: model and ORT wasm location too).
export { configure, useBundledAssets, workerInit, currentModelUrl } from './embed.js';
export type { EmbedConfig } from './embed.js';
export { bundledAssets } from './bundled.js';
export type { BundledAssets } from './bundled.js';
export * from '../worker/index.js';

useBundledAssets();

/**
 * A client for the pruning worker shipped with the package. The worker starts with the page's
 * configuration at the time of the call (asset URLs, model: the bundled ones unless configured);
 * pass `init` to override.
 */
export function createPruner(options: Omit<PrunerClientOptions, 'createWorker' | 'workerUrl'> = {}): PrunerClient {
  return createPrunerClient({
    ...options,
    init: options.init ?? workerInit(),
    createWorker: () => new Worker(new URL('../worker/prune.worker.js', import.meta.url), { type: 'module', name: 'ctxprune-pruner' }),
  });
}
