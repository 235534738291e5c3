import { createPrunerClient, type PrunerClient } from '@ctxprune/core/worker/client.ts';
import type { LoadProgress } from '@ctxprune/core/worker/protocol.ts';
import PrunerWorker from '@ctxprune/core/worker/prune.worker.ts?worker';
import { workerInit } from './assets';

let client: PrunerClient | null = null;
const listeners = new Set<(p: LoadProgress) => void>();

/** Model download progress, for the progress bar. */
export function onLoadProgress(fn: (p: LoadProgress) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** One pruning worker for the page. */
export function getPruner(): PrunerClient {
  client ??= createPrunerClient({
    createWorker: () => new PrunerWorker({ name: 'ctxprune-pruner' }),
    init: workerInit(),
    onProgress: (p) => listeners.forEach((fn) => fn(p)),
  });
  return client;
}
