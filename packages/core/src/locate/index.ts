export { buildFileIndex, cachedTerms } from './file-index.js';
export type { FileIndex } from './file-index.js';
export { isTestPath, mentionedFiles, lexicalWindowScore } from './signals.js';
export { documentScoreFromScorer, documentScoreFromJudge } from './document-score.js';
export type { DocumentScoreFn } from './document-score.js';
export { locateFiles, DEFAULT_LOCATE_WEIGHTS } from './rank.js';
export type { LocateOptions, LocateResult, LocateSignals, LocateWeights } from './rank.js';
// runLocate (reads trees from disk) and rankMetrics (evaluation) are in ../bench/ (locate.ts, metrics.ts).
