/**
 * Messages between the playground and its workbench worker (context cards), and the view models
 * of the cards and compaction tabs: plain, structured-cloneable data. (Compaction runs in the
 * pruning worker, which holds the model that cuts the tool outputs: compaction.ts.)
 */
import type {
  AuditReport,
  BlockDump,
  CompactionStrategy,
  CompressionMode,
  GroupScore,
  MessageStatus,
  PackDecision,
  Role,
  Selector,
  UnitType,
} from '@ctxprune/core';
import type { WorkerAssets } from '@ctxprune/core/worker';

export interface CardsParams {
  task: string;
  budget: number;
  selector: Selector;
  mode: CompressionMode;
  /** The most units to take (default: one per 60 tokens of budget, at least 5). */
  maxUnits?: number;
}

export interface CompactParams {
  strategy: CompactionStrategy;
  budget: number;
  /** Empty: the latest user message (what compact() does without a goal). */
  goal: string;
}

export type WorkbenchRequest = { id: number; kind: 'cards'; params: CardsParams };

/** The first message to a new workbench worker: the same-origin asset URLs the page resolved (assets.ts). */
export interface WorkbenchInit {
  kind: 'init';
  assets: WorkerAssets;
}

export type WorkbenchReply =
  | { id: number; ok: true; superseded?: false; view: CardsView; ms: number }
  | { id: number; ok: false; superseded: true }
  | { id: number; ok: false; superseded?: false; error: { message: string; code?: string } };

export interface UnitRow {
  id: string;
  type: UnitType;
  source: string;
  title: string | null;
  tokens: number;
  stale: boolean;
  /** Retrieval route (lexical / structural / neighbour) or 'expansion' for a packer neighbour. */
  via: string;
  retrieval: number | null;
  action_shift: number | null;
  necessity: number | null;
  expected_outcome_uplift: number | null;
  negative_transfer_risk: number | null;
  cost: number | null;
  /** Utility (the packer's score: stale penalty and expansion factor applied). */
  score: number;
  /** The packing cost in tokens (raw text or card, by mode). */
  packCost: number;
  decision: PackDecision;
  /** In the assembled text (a selected unit may still be dropped by the final budget check). */
  selected: boolean;
  expandedFrom: string | null;
}

export interface CardsView {
  kind: 'cards';
  params: CardsParams;
  tokenizer: string;
  graph: { units: number; edges: number; files: number };
  rows: UnitRow[];
  items: { unitId: string; score: number; tokens: number; text: string; card: boolean }[];
  text: string;
  tokens: number;
  audit: AuditReport;
}

/** A block as the view shows it: the dump's block without its message id (rows sit under their message). */
export type BlockRow = Omit<BlockDump, 'messageId'>;

export interface MessageRow {
  id: string;
  role: Role;
  toolName: string | null;
  status: MessageStatus;
  protectedBy: string | null;
  tokensBefore: number;
  tokensAfter: number;
  key: string | null;
  prunedBy: string | null;
  blocks: BlockRow[];
  /** The compacted content (null when omitted). */
  content: string | null;
}

export interface CompactView {
  kind: 'compact';
  params: CompactParams;
  tokenizer: string;
  /** What cut the tool outputs (the worker's engine report: 'neural, lexical (auto: language unknown)'), 'none' when nothing was cut. */
  cutBy: string;
  /** Where the model ran ('wasm', 'webgpu', 'js'; 'cpu' for the lexical scorer). */
  backend: string;
  /** Why the engine is not the one asked for (no model, a failed load), else null. */
  engineNote: string | null;
  tokensBefore: number;
  tokensAfter: number;
  budget: number;
  overBudget: boolean;
  degraded: string[];
  goal: string | null;
  goalSource: string | null;
  relevanceBackend: string | null;
  groups: GroupScore[] | null;
  messages: MessageRow[];
  kept: string[];
  pruned: string[];
  evicted: string[];
  /** read_overflow: key → original content. */
  store: Record<string, { messageId: string; content: string }>;
}
