/** CICL: decision-aware context selection, memory cards and their audit (pure; Node tree reading in tree-node.ts). */
export { UNIT_TYPES, EDGE_TYPES } from './types.js';
export type { UnitType, EdgeType, ContextUnit, ContextEdge, CiclTask, Judgment, UtilityComponents } from './types.js';
export { ContextGraph, buildContextGraph, codeIdentifiers } from './graph.js';
export type { BuildGraphOptions, RetrieveOptions, RetrievedUnit } from './graph.js';
export { fileUnits, memoryUnit, lexicalSpans, spansFromStructure } from './units.js';
export type { MemoryInput, StructureProvider, SymbolSpan, TreeUnitOptions } from './units.js';
export { syntaxStructureProvider } from './syntax-provider.js';
export type { SyntaxProviderOptions } from './syntax-provider.js';
export { importGraph, pythonImports, pythonModuleIndex, jsImports } from './imports.js';
export { UTILITY_WEIGHTS, utilityCost, utilityScore, proxyComponents, proxyFeatures, rankerFeatures, RANKER_FEATURES } from './utility.js';
export type { UtilityBreakdown, UnitSignals, RankerFeature, ProxyFeatures } from './utility.js';
export { JUDGMENT_FIELDS, validateJudgment, judgePrompt, judgeOne, judgeAll, judgmentComponents, emptyJudgeStats, recordOutcome } from './judge.js';
export type { JudgeFn, JudgeRequest, JudgeStats, JudgeOutcome, JudgeErrorCode, JudgeRunOptions, ValidateOptions, ValidationResult } from './judge.js';
export { LinearRanker, MlpRanker, loadRanker, pairsFromExamples, pairwiseAccuracy } from './rankers.js';
export type { Ranker, RankExample, Pair, LinearTrainOptions, MlpTrainOptions } from './rankers.js';
export { scoreCandidates } from './score.js';
export type { ScoredUnit, ScoreOptions } from './score.js';
export { CARD_FIELDS, CARD_FIELD_WORDS, makeCard, renderCard, renderCards, evidenceLine } from './memory-cards.js';
export type { MemoryCard, CardField, CardInput } from './memory-cards.js';
export { auditCards, isActionableHint, isPlaceholder, AUDIT_THRESHOLDS, ACTION_VERBS } from './audit.js';
export type { AuditReport, AuditVerdict } from './audit.js';
export { referencePack, migPack, assembleContext, renderRawUnit, defaultMaxUnits, REFERENCE_PACKER } from './assemble.js';
export type {
  PackCandidate,
  PackOptions,
  PackResult,
  PackDecision,
  MigPackOptions,
  AssembleOptions,
  AssembleResult,
  AssembledItem,
  CompressionMode,
  Selector,
} from './assemble.js';
