/**
 * Decision utility (CICL Eq. 3) and the deterministic proxy for its four components.
 *
 *   s = 0.34·action_shift + 0.26·necessity + 0.28·expected_outcome_uplift
 *       − 0.22·negative_transfer_risk − 0.08·cost,   cost = min(1, tokens/1000 + 0.2·risk)
 *
 * The weights are fixed (as in the paper, to keep judges comparable). The proxy estimates the
 * components from model-free signals; it is meant for ablations, tests and as the fallback when a
 * judge answer is malformed — the paper finds it weaker than an LLM judge on real code.
 */
import type { ContextUnit, CiclTask, UnitType, UtilityComponents } from './types.js';
import { clamp01, coverage, jaccard, termSet } from './text.js';

export const UTILITY_WEIGHTS = {
  action_shift: 0.34,
  necessity: 0.26,
  expected_outcome_uplift: 0.28,
  negative_transfer_risk: 0.22,
  cost: 0.08,
} as const;

/** cost = min(1, tokens/1000 + 0.2·risk). */
export function utilityCost(tokens: number, risk: number): number {
  return Math.min(1, Math.max(0, tokens) / 1000 + 0.2 * risk);
}

export interface UtilityBreakdown extends UtilityComponents {
  cost: number;
  score: number;
}

/** The fixed aggregation. Components are clamped to 0..1 first (NaN counts as 0). */
export function utilityScore(c: UtilityComponents, tokens: number): UtilityBreakdown {
  const action_shift = clamp01(c.action_shift);
  const necessity = clamp01(c.necessity);
  const expected_outcome_uplift = clamp01(c.expected_outcome_uplift);
  const negative_transfer_risk = clamp01(c.negative_transfer_risk);
  const cost = utilityCost(tokens, negative_transfer_risk);
  const w = UTILITY_WEIGHTS;
  const score =
    w.action_shift * action_shift +
    w.necessity * necessity +
    w.expected_outcome_uplift * expected_outcome_uplift -
    w.negative_transfer_risk * negative_transfer_risk -
    w.cost * cost;
  return { action_shift, necessity, expected_outcome_uplift, negative_transfer_risk, cost, score };
}

/** Signals the proxy and the rankers read about one (task, unit) pair. */
export interface UnitSignals {
  /** Retrieval score normalised to 0..1 within the candidate pool. */
  retrievalScore: number;
  /** Number of conflict edges touching the unit. */
  conflictDegree: number;
  /** Largest conflict degree in the pool (for normalisation). */
  maxConflictDegree: number;
}

/** Action verbs that make a unit's text read as a prescription. */
const ACTION_WORDS =
  /\b(inspect|read|open|search|check|update|fix|call|run|use|compare|look|avoid|never|always|must|ensure|set|add|remove|rename|return|raise)\b/i;

/** How much a unit of this type tends to change the next action (prior, 0..1). */
const TYPE_ACTION_PRIOR: Record<UnitType, number> = {
  failure: 0.8,
  rule: 0.7,
  strategy: 0.6,
  memory: 0.6,
  api: 0.5,
  trajectory: 0.4,
  symbol: 0.4,
  class: 0.3,
  file: 0.2,
};

const ACTION_VERBS_IN_TASK =
  /\b(fix|add|remove|rename|implement|update|change|refactor|support|handle|raise|return|call|use|check|test|debug|replace|avoid|allow|make|ensure)\b/gi;

export interface ProxyFeatures {
  task_context_jaccard: number;
  expected_action_overlap: number;
  source_jaccard: number;
  conflict_risk: number;
  history_success: number;
  history_failure: number;
}

/** Lexical and graph signals of the proxy, all on 0..1. */
export function proxyFeatures(task: CiclTask, unit: ContextUnit, signals: UnitSignals): ProxyFeatures {
  const q = termSet(task.query);
  const u = termSet(unit.title ? unit.title + '\n' + unit.content : unit.content);
  const actionText = task.expectedAction ?? (task.query.match(ACTION_VERBS_IN_TASK) ?? []).join(' ') + ' ' + task.query;
  const a = termSet(actionText);
  const src = termSet(unit.source.replace(/[/\\.]/g, ' '));
  const used = (unit.history?.usedSuccess ?? 0) + (unit.history?.usedFailure ?? 0);
  return {
    task_context_jaccard: jaccard(q, u),
    expected_action_overlap: coverage(a, u),
    source_jaccard: jaccard(q, src),
    conflict_risk: signals.maxConflictDegree > 0 ? clamp01(signals.conflictDegree / signals.maxConflictDegree) : 0,
    history_success: used > 0 ? (unit.history?.usedSuccess ?? 0) / used : 0,
    history_failure: used > 0 ? (unit.history?.usedFailure ?? 0) / used : 0,
  };
}

/**
 * Deterministic proxy of the four components:
 *  action_shift = 0.45·retrieval + 0.25·expected_action_overlap + 0.20·type prior + 0.10·(text prescribes an action)
 *  necessity    = 0.55·retrieval + 0.30·task_context_jaccard·3 (capped) + 0.15·source_jaccard·3 (capped)
 *  uplift       = 0.50·retrieval + 0.25·confidence + 0.25·history success rate
 *  risk         = 0.45·stale + 0.35·conflict risk + 0.20·history failure rate, +0.1 when confidence < 0.5
 * each clamped to 0..1.
 */
export function proxyComponents(task: CiclTask, unit: ContextUnit, signals: UnitSignals): UtilityComponents {
  const f = proxyFeatures(task, unit, signals);
  const r = clamp01(signals.retrievalScore);
  const prescriptive = ACTION_WORDS.test(unit.content) ? 1 : 0;
  return {
    action_shift: clamp01(0.45 * r + 0.25 * f.expected_action_overlap + 0.2 * TYPE_ACTION_PRIOR[unit.type] + 0.1 * prescriptive),
    necessity: clamp01(0.55 * r + 0.3 * Math.min(1, 3 * f.task_context_jaccard) + 0.15 * Math.min(1, 3 * f.source_jaccard)),
    expected_outcome_uplift: clamp01(0.5 * r + 0.25 * clamp01(unit.confidence) + 0.25 * f.history_success),
    negative_transfer_risk: clamp01(0.45 * (unit.stale ? 1 : 0) + 0.35 * f.conflict_risk + 0.2 * f.history_failure + (unit.confidence < 0.5 ? 0.1 : 0)),
  };
}

/** The 25 published ranker features, in order. */
export const RANKER_FEATURES = [
  'bias',
  'retrieval_score',
  'task_context_jaccard',
  'expected_action_overlap',
  'source_jaccard',
  'heuristic_action_delta',
  'heuristic_necessity',
  'heuristic_cost',
  'heuristic_final',
  'token_cost_norm',
  'confidence',
  'stale',
  'conflict_risk',
  'conflict_degree_norm',
  'history_used_success',
  'history_used_failure',
  'is_memory',
  'type_file',
  'type_symbol',
  'type_class',
  'type_rule',
  'type_strategy',
  'type_trajectory',
  'type_failure',
  'type_api',
] as const;
export type RankerFeature = (typeof RANKER_FEATURES)[number];

/** Feature vector (length 25, order of RANKER_FEATURES) for one (task, unit) pair. */
export function rankerFeatures(task: CiclTask, unit: ContextUnit, signals: UnitSignals): Float64Array {
  const f = proxyFeatures(task, unit, signals);
  const comps = proxyComponents(task, unit, signals);
  const h = utilityScore(comps, unit.tokens);
  const used = (unit.history?.usedSuccess ?? 0) + (unit.history?.usedFailure ?? 0);
  const v = new Float64Array(RANKER_FEATURES.length);
  const set = (name: RankerFeature, x: number) => {
    v[RANKER_FEATURES.indexOf(name)] = Number.isFinite(x) ? x : 0;
  };
  set('bias', 1);
  set('retrieval_score', clamp01(signals.retrievalScore));
  set('task_context_jaccard', f.task_context_jaccard);
  set('expected_action_overlap', f.expected_action_overlap);
  set('source_jaccard', f.source_jaccard);
  set('heuristic_action_delta', comps.action_shift);
  set('heuristic_necessity', comps.necessity);
  set('heuristic_cost', h.cost);
  set('heuristic_final', h.score);
  set('token_cost_norm', Math.min(1, unit.tokens / 1000));
  set('confidence', clamp01(unit.confidence));
  set('stale', unit.stale ? 1 : 0);
  set('conflict_risk', f.conflict_risk);
  set('conflict_degree_norm', Math.min(1, signals.conflictDegree / 5));
  set('history_used_success', used > 0 ? Math.min(1, (unit.history?.usedSuccess ?? 0) / 5) : 0);
  set('history_used_failure', used > 0 ? Math.min(1, (unit.history?.usedFailure ?? 0) / 5) : 0);
  set('is_memory', unit.type === 'memory' ? 1 : 0);
  if (unit.type !== 'memory') set(`type_${unit.type}` as RankerFeature, 1);
  return v;
}
