export { compact } from './compact.js';
export { pairsOf } from './pairs.js';
export { compactChat, detectShape } from './chat.js';
export type { ChatShape, CompactChatOptions, CompactChatResult, CompactRunner, SystemPrompt } from './chat.js';
export { OverflowStore, readOverflow, overflowKey } from './store.js';
export type { OverflowEntry } from './store.js';
export { resolveGoal, goalPrompt, latestUserIndex } from './goal.js';
export { lexicalRelevance, normalizeScores } from './relevance.js';
export { evictedPlaceholder } from './blocks.js';
export { cutFooter, pathArgument } from './cuts.js';
export { createPreparationCache, PreparationCache } from './preparations.js';
export type { PreparationCacheOptions } from './preparations.js';
export { validateMessages, validateOptions, parseStrategy } from './validate.js';
export { COMPACTION_STRATEGIES, GOAL_PROMPT } from './types.js';
export type {
  Message,
  Role,
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
  ToolCall,
} from './types.js';
