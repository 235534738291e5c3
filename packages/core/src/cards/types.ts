/**
 * CICL (decision-aware context selection): the shared vocabulary of units, edges, tasks and
 * judgments. Field names follow the paper and DESIGN.md §1 exactly where they are published.
 */

export const UNIT_TYPES = ['file', 'symbol', 'class', 'rule', 'strategy', 'trajectory', 'failure', 'api', 'memory'] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

export const EDGE_TYPES = ['containment', 'similarity', 'conflict', 'precondition', 'task-memory'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** One candidate piece of context (a node of the instance graph). */
export interface ContextUnit {
  /** Unique within a graph: `file:PATH`, `symbol:PATH#Class.method`, `memory:ID` … */
  id: string;
  /** Instance (task / repository snapshot) the unit belongs to, when known. */
  instanceId?: string;
  type: UnitType;
  /** Where it comes from: a path relative to the tree, or the caller's label for memories and rules. */
  source: string;
  content: string;
  /** Token cost of `content` in the configured counter. */
  tokens: number;
  /** 0..1, how far the unit can be trusted (1 for code read from the tree). */
  confidence: number;
  /** Short name: a symbol's qualified name, a file's path, a memory's title. */
  title?: string;
  /** 1-based inclusive line span inside `source` for symbol and class units. */
  span?: { startLine: number; endLine: number };
  /** Known to be out of date (stale penalty in packing, risk in the proxy). */
  stale?: boolean;
  /** How often the unit was shown in past runs that succeeded / failed. */
  history?: { usedSuccess: number; usedFailure: number };
}

export interface ContextEdge {
  from: string;
  to: string;
  type: EdgeType;
  /** 0..1 strength (similarity cosine, 1 for explicit relations). */
  weight: number;
}

/** What the agent is about to do: the query of selection. */
export interface CiclTask {
  id?: string;
  /** The task text (issue, instruction, current goal). */
  query: string;
  /** The action the agent is expected to take next, when the caller knows it (improves the proxy). */
  expectedAction?: string;
}

/** The eight-field judgment schema (names as published). */
export interface Judgment {
  no_context_action: string;
  with_context_action: string;
  action_shift: number;
  necessity: number;
  expected_outcome_uplift: number;
  negative_transfer_risk: number;
  reason: string;
  confidence: number;
}

/** The four utility components on 0..1. */
export interface UtilityComponents {
  action_shift: number;
  necessity: number;
  expected_outcome_uplift: number;
  negative_transfer_risk: number;
}
