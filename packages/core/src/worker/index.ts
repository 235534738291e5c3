export * from './protocol.js';
export { createPrunerClient, WorkerCrashedError, isAbortError, deserializeError } from './client.js';
export type { PrunerClient, PrunerClientOptions, ClientPruneOptions, WorkerLike } from './client.js';
