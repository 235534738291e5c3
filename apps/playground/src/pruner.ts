import { createPrunerClient, type LoadProgress, type PrunerClient } from '@ctxprune/core/worker';
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

/** One pruning worker for the page. */
export function getPruner(): PrunerClient {
  client ??= createPrunerClient({
    createWorker: () => new PrunerWorker({ name: 'ctxprune-pruner' }),
    init: { ...workerInit(), ...(readTab(window.location.search) === 'pruning' ? { preload: firstRequest(window.location.search) } : {}) },
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
