/** `@ctxprune/core/worker`: the pruning worker's client and its message contract (the worker script is `@ctxprune/core/worker/prune.worker`). */
export * from './protocol.js';
export { createPrunerClient, WorkerCrashedError, isAbortError } from './client.js';
export type { PrunerClient, PrunerClientOptions, ClientPruneOptions, ClientCompactOptions, WorkerLike } from './client.js';
