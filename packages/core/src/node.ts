/**
 * Node-only entry: everything in the main entry plus helpers that read from disk. (Benchmark
 * runners are not API: they are behind `ctxprune bench`.)
 */
export * from './index.js';
// The CLI's environment variables (CTXPRUNE_MODEL, CTXPRUNE_NEURAL_*) as configure() calls.
export { configureFromEnvironment } from './environment.js';
export { readTree } from './cards/tree-node.js';
export { packDirectory, loadPackIndex } from './pack/node.js';
export type { DirectoryIndexOptions } from './pack/node.js';
export { DiskOverflowStore, defaultStateDir, OVERFLOW_KEY } from './compaction/disk-store.js';
export type { DiskStoreOptions } from './compaction/disk-store.js';
