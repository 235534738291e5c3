export { compact } from './compact.js';
export { OverflowStore, readOverflow, overflowKey } from './store.js';
export type { OverflowEntry } from './store.js';
export { resolveGoal, goalPrompt, latestUserIndex } from './goal.js';
export { lexicalRelevance, normalizeScores } from './relevance.js';
export { splitBlocks, evictedPlaceholder, gapMarker, renderPartial } from './blocks.js';
export { validateMessages, validateOptions, parseStrategy } from './validate.js';
export { COMPACTION_STRATEGIES, GOAL_PROMPT } from './types.js';
export type {
  Message, Role, CompactionStrategy, CompactOptions, CompactResult, CompactionDump, BlockDump, MessageDump,
  MessageStatus, GoalRequest, PruneTextFn, RelevanceFn, GroupBy,
} from './types.js';
