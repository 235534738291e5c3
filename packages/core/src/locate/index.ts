export {
  buildFileIndex, locateFiles, rankMetrics, mentionedFiles, isTestPath, lexicalWindowScore, DEFAULT_LOCATE_WEIGHTS, documentScoreFromScorer, documentScoreFromJudge, cachedTerms,
} from './rank.js';
export type { FileIndex, DocumentScoreFn, LocateOptions, LocateResult, LocateSignals, LocateWeights } from './rank.js';
export { runLocate, poolDir, parseInstances } from './run.js';
export type { LocateInstance, LocateRunOptions, LocateRunResult } from './run.js';
