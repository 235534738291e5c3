export { buildPackIndex, packContext, definitionsOf } from './pack.js';
export type { PackFilesInput, PackIndex, PackIndexOptions, PackContextOptions, PackContextResult, PackedFile, MapEntry, Definition } from './pack.js';
// runPackBench and packDirectory (they read from disk) are exported by ../node.ts.
