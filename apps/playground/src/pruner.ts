import { createPrunerClient, type LoadProgress, type PrunerClient, type WorkerInit } from '@ctxprune/core/worker';
import PrunerWorker from '@ctxprune/core/worker/prune.worker?worker';
import { workerInit } from './assets';
import { firstRequest } from './pruneRequest';
import { readTab } from './tabState';

let client: PrunerClient | null = null;
const listeners = new Set<() => void>();
/** The latest progress of every one-time load, by kind and name (a late listener gets them all). */
const loads = new Map<string, LoadProgress>();

/** Download progress of the one-time loads (model, onnxruntime, tokenizer, grammars), for the progress list. */
export function onLoadProgress(fn: (loads: LoadProgress[]) => void): () => void {
  const call = () => fn([...loads.values()]);
  listeners.add(call);
  call();
  return () => listeners.delete(call);
}

/** What the worker was started with. */
let started: WorkerInit | null = null;

/** One pruning worker for the page. */
export function getPruner(): PrunerClient {
  started ??= { ...workerInit(), ...(readTab(window.location.search) === 'pruning' ? { preload: firstRequest(window.location.search) } : {}) };
  client ??= createPrunerClient({
    createWorker: () => new PrunerWorker({ name: 'ctxprune-pruner' }),
    init: started,
    onProgress: (p) => {
      loads.set(`${p.what}:${p.name ?? ''}`, p);
      listeners.forEach((fn) => fn());
    },
  });
  return client;
}

/**
 * Start the worker now, before React renders: it loads the tokenizer, the first request's
 * grammar and (for the neural engines) the model in parallel, then prunes the first request,
 * while the page builds its editors.
 */
export function startPruner(): void {
  void getPruner()
    .capabilities()
    .catch(() => undefined);
}

/** Whether this page load started under the service worker (not on a first visit: it registers during the load). */
const controlledAtStart = 'serviceWorker' in navigator && navigator.serviceWorker.controller !== null;
let remembered = false;

/**
 * Once the first result is on screen: a load that started without the service worker (a first
 * visit) lists what it fetched around it, the page itself, its chunks, the pruning worker's script and the
 * worker's tree-sitter runtime and grammar, for the service worker to store (public/sw.js): the
 * next load then finds them all there, offline too. Without this, the worker (never controlled: it started
 * before the service worker did) left them uncached, and the first reload fetched them again.
 */
export function rememberFirstLoad(): void {
  if (remembered || controlledAtStart || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  remembered = true;
  const urls = performance.getEntriesByType('resource').map((e) => e.name);
  const assets = started?.assets;
  if (assets?.treeSitterWasmUrl) urls.push(String(assets.treeSitterWasmUrl));
  for (const l of started?.preload?.languages ?? []) {
    const g = assets?.grammarUrls?.[l];
    if (g) urls.push(String(g));
  }
  navigator.serviceWorker.ready.then((r) => r.active?.postMessage({ type: 'cache-assets', page: window.location.href, urls })).catch(() => undefined);
}
