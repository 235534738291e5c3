export {
  buildFileIndex, locateFiles, rankMetrics, mentionedFiles, isTestPath, lexicalWindowScore, DEFAULT_LOCATE_WEIGHTS, documentScoreFromScorer, documentScoreFromJudge, cachedTerms,
} from './rank.js';
export type { FileIndex, DocumentScoreFn, LocateOptions, LocateResult, LocateSignals, LocateWeights } from './rank.js';
// runLocate (reads trees from disk) is exported by ../node.ts.

