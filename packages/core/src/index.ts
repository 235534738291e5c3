/** Public API of @ctxprune/core. */
export { prune } from './prune/pipeline.js';
export type { PruneOptions, PruneResult, PruneStats, LineInfo, KeepReason, PruneAblation } from './prune/types.js';
export { configure, env } from './config.js';
export type { CtxpruneEnv, AssetConfig, FetchLike } from './config.js';
export { CtxpruneError, isCtxpruneError } from './errors.js';
export type { CtxpruneErrorCode } from './errors.js';
export { LANGUAGES, LineKind } from './syntax/types.js';
export type { LanguageId, FileStructure } from './syntax/types.js';
export { detectLanguage, parseLanguageName } from './syntax/index.js';
export { loadDefaultTokenCounter, approximateCounter } from './text/tokens.js';
export type { TokenCounter } from './text/tokens.js';
export { LexicalScorer } from './scorers/lexical.js';
export type { Scorer, ScorerInput, ScorerOutput } from './scorers/types.js';
export { describeScorer } from './scorers/types.js';
export { viterbi, marginals, crfParams } from './crf/chain.js';
export type { CrfParams } from './crf/chain.js';
export { fuseEmissions, RUBRICS } from './crf/rubrics.js';
export type { RubricEmissions } from './crf/rubrics.js';

// Agent-history compaction (reactive, task-aware, MIG, task-aware + MIG).
export * from './compaction/index.js';
// MIG selection and budget packing, shared by compaction and the card packer.
export * from './select/index.js';
// CICL: units, graph, utility, judges, rankers, memory cards, audit, budgeted assembly.
export * from './cards/index.js';
// File localization (pure ranking; the SWE-bench runner is in the `@ctxprune/core/node` entry).
export * from './locate/index.js';
// Scorers by name ('lexical', 'neural', 'auto').
export { resolveScorer, registerScorer, availableScorers } from './scorers/registry.js';
// Agent tool wrapper: an optional `focus` argument prunes a read-file tool's output (fail-open).
export { withFocus, describePrune, elidedRanges, formatRanges } from './integrations/focus.js';
export type { FocusArgs, WithFocusOptions } from './integrations/focus.js';
// Task context packing: rank, allocate by marginal value, prune each file, signature map (packDirectory is in `@ctxprune/core/node`).
export * from './pack/index.js';
