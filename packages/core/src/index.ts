/**
 * Public API of @ctxprune/core: what the README documents, named one by one (no `export *` of a
 * folder, so an internal helper never becomes API by accident). test/exports.test.ts holds the
 * exact list of every entry point; a change here changes that test on purpose.
 *
 * Other entry points: `@ctxprune/core/node` (this plus disk helpers), `@ctxprune/core/browser`
 * (this plus bundled assets and `createPruner`), `@ctxprune/core/worker` (the pruning worker's
 * client and message contract), `@ctxprune/core/worker/prune.worker` (the worker script itself),
 * `@ctxprune/core/integrations` (agent tool wrappers).
 */

// Line pruning (LaMR).
export { preparePrune, prune } from './prune/pipeline.js';
export type { PreparedPrune } from './prune/pipeline.js';
export type { PruneOptions, PruneResult, PruneStats, LineInfo, KeepReason, PruneAblation } from './prune/types.js';
export { DEGRADATION_CODES, COMPACTION_DEGRADATION_CODES, PACK_DEGRADATION_CODES } from './degradations.js';
export type { Degradation, DegradationCode, CompactionDegradation, CompactionDegradationCode, PackDegradation, PackDegradationCode } from './degradations.js';
export { ELISION_STYLES, outputOrigin } from './text/elision.js';
export type { ElisionStyle } from './text/elision.js';

// Configuration (asset URLs, fetch, model, runtime) and errors.
export { configure, env } from './config.js';
export type { CtxpruneEnv, AssetConfig, FetchLike } from './config.js';
export { CtxpruneError, isCtxpruneError } from './errors.js';
export type { CtxpruneErrorCode } from './errors.js';

// Languages and token counting.
export { LANGUAGES, LineKind } from './syntax/types.js';
export type { LanguageId, FileStructure } from './syntax/types.js';
export { detectLanguage, parseLanguageName, isLanguageId } from './syntax/languages.js';
export { loadDefaultTokenCounter, approximateCounter } from './text/tokens.js';
export type { TokenCounter } from './text/tokens.js';

// Scorers.
export { LexicalScorer } from './scorers/lexical.js';
export type { Scorer, ScorerInput, ScorerOutput } from './scorers/types.js';
export { describeScorer } from './scorers/types.js';
export { resolveScorer, registerScorer, availableScorers } from './scorers/registry.js';

// The CRF pieces.
export { viterbi, marginals, crfParams } from './crf/chain.js';
export type { CrfParams } from './crf/chain.js';
export { fuseEmissions, RUBRICS } from './crf/rubrics.js';
export type { RubricEmissions } from './crf/rubrics.js';

// Agent-history compaction (reactive, task-aware, MIG, task-aware + MIG).
export {
  compact,
  compactChat,
  createPreparationCache,
  PreparationCache,
  OverflowStore,
  readOverflow,
  validateMessages,
  COMPACTION_STRATEGIES,
  GOAL_PROMPT,
} from './compaction/index.js';
export type {
  Message,
  Role,
  ToolCall,
  CompactionStrategy,
  CompactOptions,
  CompactResult,
  CompactionDump,
  BlockDump,
  MessageDump,
  MessageStatus,
  GoalRequest,
  RelevanceFn,
  GroupBy,
  ChatShape,
  CompactChatResult,
  OverflowEntry,
  PreparationCacheOptions,
} from './compaction/index.js';
export type { GroupScore } from './select/index.js';

// CICL: units, graph, utility, judges, rankers, memory cards, audit, budgeted assembly.
export {
  UNIT_TYPES,
  EDGE_TYPES,
  ContextGraph,
  buildContextGraph,
  UTILITY_WEIGHTS,
  utilityCost,
  utilityScore,
  rankerFeatures,
  RANKER_FEATURES,
  JUDGMENT_FIELDS,
  validateJudgment,
  judgePrompt,
  judgeOne,
  judgeAll,
  LinearRanker,
  MlpRanker,
  loadRanker,
  pairsFromExamples,
  pairwiseAccuracy,
  CARD_FIELDS,
  makeCard,
  renderCard,
  renderCards,
  auditCards,
  AUDIT_THRESHOLDS,
  referencePack,
  migPack,
  assembleContext,
  defaultMaxUnits,
  REFERENCE_PACKER,
} from './cards/index.js';
export type {
  UnitType,
  EdgeType,
  ContextUnit,
  ContextEdge,
  CiclTask,
  Judgment,
  UtilityComponents,
  BuildGraphOptions,
  RetrieveOptions,
  RetrievedUnit,
  MemoryInput,
  UtilityBreakdown,
  UnitSignals,
  RankerFeature,
  JudgeFn,
  JudgeRequest,
  JudgeStats,
  JudgeOutcome,
  JudgeErrorCode,
  JudgeRunOptions,
  Ranker,
  RankExample,
  Pair,
  LinearTrainOptions,
  MlpTrainOptions,
  MemoryCard,
  CardField,
  CardInput,
  AuditReport,
  AuditVerdict,
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
} from './cards/index.js';

// File localization (pure ranking; the SWE-bench runner is in `@ctxprune/core/node`).
export { buildFileIndex, locateFiles, documentScoreFromScorer, documentScoreFromJudge, DEFAULT_LOCATE_WEIGHTS } from './locate/index.js';
export type { FileIndex, DocumentScoreFn, LocateOptions, LocateResult, LocateSignals, LocateWeights } from './locate/index.js';

// Task context packing (packDirectory, which reads a directory, is in `@ctxprune/core/node`).
export { buildPackIndex, packContext } from './pack/index.js';
export type { PackFilesInput, PackIndex, PackIndexOptions, PackContextOptions, PackContextResult, PackedFile, MapEntry, Definition } from './pack/index.js';

// Agent tool wrapper: an optional `focus` argument prunes a read-file tool's output (fail-open).
export { withFocus, describePrune, elidedRanges, formatRanges } from './integrations/focus.js';
export type { FocusArgs, WithFocusOptions } from './integrations/focus.js';
