import { createPrunerClient, type PrunerClient } from '@ctxprune/core/worker/client.ts';
import PrunerWorker from '@ctxprune/core/worker/prune.worker.ts?worker';
import { workerAssets } from './assets';

let client: PrunerClient | null = null;

/** One pruning worker for the page. */
export function getPruner(): PrunerClient {
  client ??= createPrunerClient({
    createWorker: () => new PrunerWorker({ name: 'ctxprune-pruner' }),
    init: { assets: workerAssets() },
  });
  return client;
}
