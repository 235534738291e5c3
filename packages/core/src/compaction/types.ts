/**
 * Agent-history compaction: contracts. A transcript is a list of messages; compaction returns the
 * same list with some bodies replaced by placeholders (evicted) or shortened (pruned), never
 * more tokens than the budget unless the pinned messages alone exceed it.
 */
import type { PreparationCache } from './preparations.js';
import type { CompactionDegradation } from '../degradations.js';
import type { TokenCounter } from '../text/tokens.js';
import type { PruneOptions } from '../prune/types.js';
import type { GroupScore } from '../select/types.js';
import type { OverflowStore } from './store.js';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** One tool call of an assistant message (OpenAI `tool_calls[]`, Anthropic `tool_use` blocks). */
export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text (a `path` / `file_path` argument names the file a result holds). */
  arguments: string;
}

export interface Message {
  id: string;
  role: Role;
  content: string;
  toolName?: string;
  /** Pinned messages are never evicted or pruned: the only inviolable ones. */
  pinned?: boolean;
  /** Assistant messages: the tools it calls. Kept, pruned or evicted together with their results. */
  toolCalls?: ToolCall[];
  /** Tool messages: the call this is the result of. */
  toolCallId?: string;
}

export const COMPACTION_STRATEGIES = ['reactive', 'task_aware', 'mig', 'task_aware_mig'] as const;
export type CompactionStrategy = (typeof COMPACTION_STRATEGIES)[number];

/** The instruction sent to the caller's LLM callback to obtain the pruning goal. */
export const GOAL_PROMPT = 'Given the current task goal, summarize in one sentence what context is most important to preserve.';

export interface GoalRequest {
  /** GOAL_PROMPT followed by the recent conversation (latest user turn and the messages after it). */
  prompt: string;
  messages: readonly Message[];
  /** Suggested answer length in tokens (about 50). */
  maxTokens: number;
}

/** Relevance hook (the neural backbone's document score): one score per text, higher = more relevant. */
export type RelevanceFn = (goal: string, texts: string[]) => Promise<number[]>;

export type GroupBy = 'role' | 'turn';

export interface CompactOptions {
  /** Default 'reactive' (oldest tool outputs first). */
  strategy?: CompactionStrategy;
  /** Budget in tokens for the whole compacted transcript (sum of message contents). */
  tokens: number;
  /**
   * The last N messages (with the calls of any result among them) are kept whole while the budget
   * allows: only when everything older is evicted are they pruned line by line for the goal. Default 2.
   */
  protectedTail?: number;
  /** A goal given outright (e.g. the transcript's "goal"); takes precedence over the callback. */
  goal?: string;
  /** Caller's LLM: answers GOAL_PROMPT in one sentence. Used by task_aware and task_aware_mig. */
  summarizeGoal?: (request: GoalRequest) => Promise<string>;
  /** Relevance backbone; default lexical BM25 over identifier-split terms. */
  relevance?: RelevanceFn;
  /**
   * Time limit of each summarizeGoal / relevance call in milliseconds (default 30,000; Infinity: none):
   * a hook past it counts as failed, which compact() notes in `degraded` and works around.
   */
  hookTimeoutMs?: number;
  /**
   * The line pruner's scorer (LaMR, `prune`): 'lexical' (default, as for `prune`: the library loads no
   * model unless asked), 'neural', 'auto' or an instance. Messages are cut line by line with the goal
   * as the query, the language from the tool call's path. The CLI and the MCP server pass 'auto' (the
   * model where it loads): on the validation transcripts it keeps more of what the task needs
   * (task_aware_mig on the 253-transcript holdout, ¼ / ⅛: 0.754 / 0.522 lexical, 0.775 / 0.575 auto).
   */
  scorer?: PruneOptions['scorer'];
  /**
   * How relevant each message is as a whole to the goal (task_aware, task_aware_mig; the
   * `relevance` hook wins over it), which decides which read gets the budget: 'bm25' (default),
   * BM25 of the goal; or a line scorer's document score with the goal as the query — 'auto' (the
   * model where it loads, else the lexical scorer), 'neural', 'lexical' or an instance. See
   * evidence.ts for what the model's score changes on the validation transcripts.
   */
  documentScorer?: PruneOptions['scorer'] | 'bm25';
  /**
   * Weight of the transcript's own evidence in a message's relevance as a whole (task_aware,
   * task_aware_mig; not with a `relevance` hook): how many lines of the other messages name the
   * file the message's call reads (grep hits, traceback frames, the task naming the file), blended
   * with the document score as (1 − w) · document + w · named when some file is named. 0..1;
   * default 0.3; 0 turns it off. See evidence.ts.
   */
  mentionWeight?: number;
  /** Counts the budget. Default o200k_base. */
  tokenCounter?: TokenCounter;
  /**
   * Preparations to reuse across calls (createPreparationCache): pass the same cache to every
   * compact() of a session (a harness that compacts each turn, a budget slider) and a message cut
   * for the same goal again is not parsed and scored again. Results are the same with or without
   * it. Default: none (each call prepares its own).
   */
  preparations?: PreparationCache;
  /**
   * Coarse groups for MIG: per role (tool outputs per tool name), or per turn window (a turn
   * starts at each user or assistant message and takes the tool outputs after it). Default 'turn'.
   */
  groupBy?: GroupBy;
  /** Turns per window when groupBy = 'turn'. Default 1. */
  turnWindow?: number;
  /** Redundancy weight λ in MIG = relevance − λ · redundancy. Default 1. */
  redundancyWeight?: number;
  /**
   * Redundancy measure: 'shingles' (verbatim word 4-gram containment: repeated outputs, re-reads)
   * or 'terms' (TF-IDF cosine over identifier terms: topical overlap). Default 'shingles'.
   */
  similarity?: 'shingles' | 'terms';
  /** Softmax temperature of the coarse allocation. Default 0.3 (tuned on the even half of the dev cases). */
  temperature?: number;
  /**
   * The cuts a message offers the selection, as fractions of its tokens: each is the LaMR pruning of
   * the message to that share (the goal as the query), the last offer is the whole message. Messages
   * under 100 tokens offer only the whole. Default [0.125, 0.25, 0.5].
   */
  levels?: number[];
}

export type MessageStatus = 'kept' | 'pruned' | 'evicted' | 'protected' | 'omitted';

export interface BlockDump {
  /** `<messageId>#<n>`: the n-th cut of the message (the lines it adds to cut n − 1). */
  id: string;
  messageId: string;
  /** 1-based inclusive range of the lines this cut adds. */
  lines: [number, number];
  tokens: number;
  relevance: number | null;
  redundancy: number | null;
  mig: number | null;
  group: string | null;
  selected: boolean;
}

export interface MessageDump {
  id: string;
  role: Role;
  toolName?: string;
  status: MessageStatus;
  /** Why it is protected (system, latest-user, pinned, tail) when it is. */
  protectedBy?: string;
  tokensBefore: number;
  tokensAfter: number;
  key?: string;
  /** How a pruned message was cut: always the line pruner (LaMR). */
  prunedBy?: 'line-pruner';
}

export interface CompactionDump {
  strategy: CompactionStrategy;
  budget: number;
  tokenizer: string;
  tokensBefore: number;
  tokensAfter: number;
  protectedTokens: number;
  /** Tokens of the pinned messages (the only ones compaction may not touch). */
  pinnedTokens: number;
  overBudget: boolean;
  /** The same list as the result's `degraded`. */
  degraded: CompactionDegradation[];
  /** The goal the blocks were scored against (null for reactive). */
  goal: string | null;
  goalSource: 'option' | 'callback' | 'latest_user' | 'recent_context' | null;
  relevanceBackend: 'lexical-bm25' | 'custom' | null;
  /**
   * The line scorers the messages were cut with, each once, as `prune`'s stats name them; 'auto'
   * adds what it fell back from (a grep output or a test log: "lexical (auto: language unknown)").
   * Empty when nothing was cut.
   */
  cutScorers: string[];
  groupBy: GroupBy | null;
  groups: GroupScore[] | null;
  blocks: BlockDump[];
  messages: MessageDump[];
  kept: string[];
  pruned: string[];
  evicted: string[];
}

export interface CompactResult {
  /** The compacted transcript, same order; omitted messages (see dump) are left out. */
  messages: Message[];
  /** Ids of messages whose content is unchanged (protected ones included). */
  kept: string[];
  /** Ids of messages shortened (part of the content kept, the rest in the store). */
  pruned: string[];
  /** Ids of messages replaced by a placeholder (or omitted). */
  evicted: string[];
  /** Originals of every pruned or evicted message, by placeholder key. */
  store: OverflowStore;
  tokensBefore: number;
  tokensAfter: number;
  budget: number;
  /** True only when the pinned messages alone exceed the budget. */
  overBudget: boolean;
  /** Why, typed: set exactly when overBudget is (the pinned messages' tokens against the budget). */
  pinnedOverBudget: { pinnedTokens: number; budget: number } | null;
  /** What compaction did instead of the plan, each once: a code (`COMPACTION_DEGRADATION_CODES`) and its message. */
  degraded: CompactionDegradation[];
  dump: CompactionDump;
}
