export { buildPackIndex, packContext, definitionsOf } from './pack.js';
export type { PackFilesInput, PackIndex, PackIndexOptions, PackContextOptions, PackContextResult, PackedFile, MapEntry, Definition } from './pack.js';
// packDirectory (reads from disk) is exported by ../node.ts; the benchmark (runPackBench) is ../bench/pack.ts.
