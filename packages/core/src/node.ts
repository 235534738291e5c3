/** Node-only entry: everything in the main entry plus helpers that read from disk. */
export * from './index.js';
export { runLocate, poolDir, parseInstances } from './locate/run.js';
export type { LocateInstance, LocateRunOptions, LocateRunResult } from './locate/run.js';
export { readTree } from './cards/tree-node.js';
export { packDirectory, loadPackIndex } from './pack/node.js';
export type { DirectoryIndexOptions } from './pack/node.js';
export { runPackBench, goldFromCases, packRecall, wholeFilesUntil, bm25PathOrder } from './pack/bench.js';
export type { PackBenchOptions, PackBenchRow, PackBenchSummary, GoldLines } from './pack/bench.js';
export { DiskOverflowStore, defaultStateDir, OVERFLOW_KEY } from './compaction/disk-store.js';
export type { DiskStoreOptions } from './compaction/disk-store.js';
