/** Node-only entry: everything in the main entry plus helpers that read from disk. */
export * from './index.js';
export { runLocate, poolDir, parseInstances } from './locate/run.js';
export type { LocateInstance, LocateRunOptions, LocateRunResult } from './locate/run.js';
export { readTree } from './cards/tree-node.js';
