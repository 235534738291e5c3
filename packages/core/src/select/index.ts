export type { SelectUnit, Similarity, MigScore, GroupScore } from './types.js';
export { redundancy, migScore, greedyMig, scoreGroups, setSimilarity, allocateBudget, packMig, packByRelevance } from './mig.js';
export type { MigOptions, GreedyResult, GroupRelevance, GroupScoreOptions, PackMigOptions, PackMigResult } from './mig.js';
export { termVectors, shingleSets } from './similarity.js';
export type { TermVectors, ShingleSets } from './similarity.js';
