/**
 * Budgeted assembly. The reference packer (DESIGN.md §1): at most 5 units; a unit needs score ≥ 0.02
 * to be first and ≥ 0.06 after that; stale units pay a penalty; a unit whose term-set Jaccard with
 * an already chosen one is ≥ 0.82 is skipped as redundant; a unit in conflict with a chosen one is
 * blocked; the top third of candidates pull in their one-hop graph neighbours at score × 0.6.
 * MIG (select/: relevance − redundancy, coarse group allocation, fine greedy) is the alternative
 * selector. Compression modes: 'raw' (unit text), 'post-selection' (pick ids on raw costs, then
 * render the picked units as cards; the raw budget is the largest whose cards fit the budget) and 'pre-budget' (cards' costs are what is packed, which can
 * change the ids). The rendered text never exceeds the budget in the given counter.
 */
import { packMig, type SelectUnit } from '../select/index.js';
import { loadDefaultTokenCounter, type TokenCounter } from '../text/tokens.js';
import { auditCards, type AuditReport } from './audit.js';
import type { ContextGraph, RetrieveOptions } from './graph.js';
import type { JudgeStats } from './judge.js';
import { makeCard, renderCard, unitHeading, type MemoryCard } from './memory-cards.js';
import { scoreCandidates, type ScoreOptions, type ScoredUnit } from './score.js';
import { jaccard, termSet } from './text.js';
import type { CiclTask, ContextUnit } from './types.js';

export interface PackCandidate {
  unit: ContextUnit;
  /** Utility (thresholds apply to it). */
  score: number;
  /** Ordering key (default: score). */
  rank?: number;
  /** Set by expansion. */
  expandedFrom?: string;
}

export type PackDecision = 'selected' | 'below_min_score' | 'over_budget' | 'redundant' | 'conflict' | 'max_units';

export interface PackOptions {
  budget: number;
  /** Tokens a candidate costs (default unit.tokens). */
  cost?: (u: ContextUnit) => number;
  maxUnits?: number;
  minScore?: number;
  minScoreAfterFirst?: number;
  /** Subtracted from a stale unit's score (default 0.1). */
  stalePenalty?: number;
  redundancyJaccard?: number;
  /** Neighbour score = parent × this (default 0.6). */
  expansionFactor?: number;
  /** Share of candidates (top, by rank) whose neighbours are added (default 1/3; 0 disables). */
  expandFraction?: number;
  /** Needed for expansion and conflicts. */
  graph?: ContextGraph;
}

export interface PackResult {
  selected: PackCandidate[];
  used: number;
  decisions: { id: string; score: number; cost: number; decision: PackDecision; expandedFrom?: string }[];
}

export const REFERENCE_PACKER = {
  maxUnits: 5,
  minScore: 0.02,
  minScoreAfterFirst: 0.06,
  stalePenalty: 0.1,
  redundancyJaccard: 0.82,
  expansionFactor: 0.6,
  expandFraction: 1 / 3,
} as const;

const termCache = new WeakMap<ContextUnit, Set<string>>();
function unitTerms(u: ContextUnit): Set<string> {
  let s = termCache.get(u);
  if (!s) termCache.set(u, (s = termSet(u.content)));
  return s;
}

export function referencePack(candidates: readonly PackCandidate[], opts: PackOptions): PackResult {
  const R = REFERENCE_PACKER;
  const cost = opts.cost ?? ((u: ContextUnit) => u.tokens);
  const maxUnits = opts.maxUnits ?? R.maxUnits;
  const minFirst = opts.minScore ?? R.minScore,
    minLater = opts.minScoreAfterFirst ?? R.minScoreAfterFirst;
  const stale = opts.stalePenalty ?? R.stalePenalty;
  const redJ = opts.redundancyJaccard ?? R.redundancyJaccard;
  const factor = opts.expansionFactor ?? R.expansionFactor;
  const frac = opts.expandFraction ?? R.expandFraction;
  const keyOf = (c: PackCandidate) => c.rank ?? c.score;

  const pool = candidates.map((c) => ({ ...c, score: c.unit.stale ? c.score - stale : c.score }));
  const order = (a: PackCandidate, b: PackCandidate) => keyOf(b) - keyOf(a) || b.score - a.score || (a.unit.id < b.unit.id ? -1 : 1);
  pool.sort(order);
  if (opts.graph && frac > 0 && pool.length) {
    const have = new Set(pool.map((c) => c.unit.id));
    const top = pool.slice(0, Math.ceil(pool.length * frac));
    for (const c of top) {
      for (const n of opts.graph.neighbours(c.unit.id, ['containment', 'similarity', 'precondition', 'task-memory'])) {
        if (have.has(n.id)) continue;
        const u = opts.graph.get(n.id)!;
        have.add(n.id);
        const s = c.score * factor - (u.stale ? stale : 0);
        pool.push({ unit: u, score: s, ...(c.rank !== undefined ? { rank: c.rank * factor } : {}), expandedFrom: c.unit.id });
      }
    }
    pool.sort(order);
  }
  const selected: PackCandidate[] = [];
  const decisions: PackResult['decisions'] = [];
  let used = 0;
  for (const c of pool) {
    const k = cost(c.unit);
    const decide = (decision: PackDecision) =>
      decisions.push({ id: c.unit.id, score: c.score, cost: k, decision, ...(c.expandedFrom ? { expandedFrom: c.expandedFrom } : {}) });
    if (selected.length >= maxUnits) {
      decide('max_units');
      continue;
    }
    if (c.score < (selected.length === 0 ? minFirst : minLater)) {
      decide('below_min_score');
      continue;
    }
    if (used + k > opts.budget) {
      decide('over_budget');
      continue;
    }
    if (opts.graph && selected.some((s) => opts.graph!.inConflict(s.unit.id, c.unit.id))) {
      decide('conflict');
      continue;
    }
    const t = unitTerms(c.unit);
    if (selected.some((s) => jaccard(unitTerms(s.unit), t) >= redJ)) {
      decide('redundant');
      continue;
    }
    selected.push(c);
    used += k;
    decide('selected');
  }
  return { selected, used, decisions };
}

export interface MigPackOptions {
  budget: number;
  cost?: (u: ContextUnit) => number;
  graph?: ContextGraph;
  lambda?: number;
  /** Units below this MIG are never chosen (default 0: only positive gain). */
  minGain?: number;
  maxUnits?: number;
}

/** MIG selection via select/: relevance = max(0, utility), group = unit type, Jaccard similarity; conflicts blocked afterwards. */
export function migPack(candidates: readonly PackCandidate[], opts: MigPackOptions): PackResult {
  const cost = opts.cost ?? ((u: ContextUnit) => u.tokens);
  const byId = new Map(candidates.map((c) => [c.unit.id, c]));
  const maxRel = Math.max(1e-9, ...candidates.map((c) => Math.max(0, c.rank ?? c.score)));
  const units: SelectUnit[] = candidates.map((c) => ({
    id: c.unit.id,
    tokens: Math.max(1, cost(c.unit)),
    relevance: Math.max(0, c.rank ?? c.score) / maxRel,
    group: c.unit.type,
  }));
  const sim = (a: SelectUnit, b: SelectUnit) => jaccard(unitTerms(byId.get(a.id)!.unit), unitTerms(byId.get(b.id)!.unit));
  const r = packMig(units, opts.budget, sim, { lambda: opts.lambda ?? 1, minGain: opts.minGain ?? 0 });
  const selected: PackCandidate[] = [];
  const decisions: PackResult['decisions'] = [];
  let used = 0;
  const chosen = new Set(r.selected);
  for (const id of r.selected) {
    const c = byId.get(id)!;
    const k = cost(c.unit);
    let decision: PackDecision = 'selected';
    if (opts.maxUnits !== undefined && selected.length >= opts.maxUnits) decision = 'max_units';
    else if (opts.graph && selected.some((s) => opts.graph!.inConflict(s.unit.id, id))) decision = 'conflict';
    if (decision === 'selected') {
      selected.push(c);
      used += k;
    }
    decisions.push({ id, score: c.score, cost: k, decision });
  }
  for (const c of candidates) if (!chosen.has(c.unit.id)) decisions.push({ id: c.unit.id, score: c.score, cost: cost(c.unit), decision: 'over_budget' });
  return { selected, used, decisions };
}

export type CompressionMode = 'raw' | 'post-selection' | 'pre-budget';
export type Selector = 'reference' | 'mig';

export interface AssembleOptions extends ScoreOptions {
  /** Token budget of the assembled text. */
  budget: number;
  mode?: CompressionMode;
  selector?: Selector;
  counter?: TokenCounter;
  retrieve?: RetrieveOptions;
  /** The most units to take (default: defaultMaxUnits(budget), one per 60 tokens, at least 5). */
  maxUnits?: number;
  pack?: Omit<PackOptions, 'budget' | 'cost' | 'graph'>;
  mig?: Omit<MigPackOptions, 'budget' | 'cost' | 'graph'>;
}

export interface AssembledItem {
  unit: ContextUnit;
  score: number;
  /** What was rendered for it. */
  text: string;
  tokens: number;
  card?: MemoryCard;
}

export interface AssembleResult {
  task: CiclTask;
  mode: CompressionMode;
  selector: Selector;
  budget: number;
  /**
   * The budget the ids were packed under, in the pack's costs: the budget itself, except in
   * 'post-selection', where it is the largest raw budget whose cards fit the budget.
   */
  packBudget: number;
  items: AssembledItem[];
  cards: MemoryCard[];
  /** The prompt text (items joined by blank lines). */
  text: string;
  /** counter.count(text) ≤ budget. */
  tokens: number;
  candidates: ScoredUnit[];
  decisions: PackResult['decisions'];
  audit: AuditReport;
  judgeStats?: JudgeStats;
}

/** A unit's raw text under a one-line title (`# symbol Invoice.total: … (ledger/invoice.py:10-24)`; a note's source is left out when it only repeats its type). */
export function renderRawUnit(u: ContextUnit): string {
  const where = u.span ? `${u.source}:${u.span.startLine}-${u.span.endLine}` : u.source;
  const title = unitHeading(u);
  const tail = where && where !== u.type && where !== title ? ` (${where})` : '';
  return `# ${u.type} ${title}${tail}\n${u.content}`;
}

/**
 * The most units a pack takes by default: one per 60 tokens of budget (a card is 50-70 tokens),
 * at least the reference packer's 5, so that a larger budget is filled rather than capped.
 */
export function defaultMaxUnits(budget: number): number {
  return Math.max(REFERENCE_PACKER.maxUnits, Math.floor(budget / 60));
}

/** Retrieve → score → pack under the budget → cards → audit. */
export async function assembleContext(task: CiclTask, graph: ContextGraph, opts: AssembleOptions): Promise<AssembleResult> {
  const counter = opts.counter ?? (await loadDefaultTokenCounter());
  const mode = opts.mode ?? 'post-selection';
  const selector = opts.selector ?? 'reference';
  const retrieved = graph.retrieve(task.query, opts.retrieve);
  const { scored, judgeStats } = await scoreCandidates(task, graph, retrieved, opts);
  const byId = new Map(scored.map((s) => [s.unit.id, s]));
  const cardOf = new Map<string, MemoryCard>();
  const card = (u: ContextUnit, score: number): MemoryCard => {
    let c = cardOf.get(u.id);
    if (!c) {
      const s = byId.get(u.id);
      c = makeCard(task, { unit: u, score, withContextAction: s?.judgment?.with_context_action, confidence: s?.judgment?.confidence }, counter);
      cardOf.set(u.id, c);
    }
    return c;
  };
  const rawText = new Map<string, string>();
  const raw = (u: ContextUnit) => {
    let t = rawText.get(u.id);
    if (t === undefined) rawText.set(u.id, (t = renderRawUnit(u)));
    return t;
  };
  const sep = '\n\n';
  const rawCost = (u: ContextUnit) => counter.count(raw(u) + sep);
  const scoreOf = (u: ContextUnit) => byId.get(u.id)?.score ?? 0;
  const cardCost = (u: ContextUnit) => counter.count(renderCard(card(u, scoreOf(u))) + sep);
  const cost = mode === 'pre-budget' ? cardCost : rawCost;
  const cands: PackCandidate[] = scored.map((s) => ({ unit: s.unit, score: s.score, rank: s.rank }));
  const maxUnits = opts.maxUnits ?? (selector === 'mig' ? opts.mig?.maxUnits : (opts.pack?.maxUnits ?? defaultMaxUnits(opts.budget)));
  const pack = (budget: number): PackResult =>
    selector === 'mig'
      ? migPack(cands, { ...opts.mig, ...(maxUnits !== undefined ? { maxUnits } : {}), budget, cost, graph })
      : referencePack(cands, { ...opts.pack, ...(maxUnits !== undefined ? { maxUnits } : {}), budget, cost, graph });

  const render = (selected: readonly PackCandidate[]) => {
    const items: AssembledItem[] = selected.map((c) => {
      const useCard = mode !== 'raw';
      const cd = useCard ? card(c.unit, c.score) : undefined;
      // post-selection: a card never costs more than the raw text it replaces.
      const text = cd && !(mode === 'post-selection' && cardCost(c.unit) > rawCost(c.unit)) ? renderCard(cd) : raw(c.unit);
      return { unit: c.unit, score: c.score, text, tokens: counter.count(text + sep), ...(cd && text !== raw(c.unit) ? { card: cd } : {}) };
    });
    const text = items.map((i) => i.text).join(sep);
    return { items, text, tokens: counter.count(text) };
  };

  let packBudget = opts.budget;
  let packed = pack(packBudget);
  let out = render(packed.selected);
  if (mode === 'post-selection' && out.tokens <= opts.budget) {
    // Ids are picked on raw costs, but cards cost less than the raw text: picked under the budget
    // itself they leave much of it unused. Pick under the largest raw budget whose cards still fit
    // the budget, so that the budget is filled with units while the packer finds them worth taking
    // (its thresholds, redundancy, conflicts and the unit cap all still apply).
    const total = cands.reduce((a, c) => a + rawCost(c.unit), 0);
    const fits = (b: number) => {
      const p = pack(b);
      const r = render(p.selected);
      return r.tokens <= opts.budget ? { p, r } : null;
    };
    let lo = opts.budget,
      hi = Math.max(opts.budget, total);
    // Double the raw budget while the cards fit (at `total` every unit fits raw), then bisect.
    while (lo < hi) {
      const b = Math.min(hi, Math.max(lo * 2, lo + 1));
      const f = fits(b);
      if (!f) {
        hi = b;
        break;
      }
      [lo, packed, out] = [b, f.p, f.r];
    }
    while (hi - lo > Math.max(1, opts.budget / 100)) {
      const mid = Math.floor((lo + hi) / 2);
      const f = fits(mid);
      if (f) [lo, packed, out] = [mid, f.p, f.r];
      else hi = mid;
    }
    packBudget = lo;
  }
  const items = out.items;
  let { text, tokens } = out;
  while (tokens > opts.budget && items.length) {
    items.pop();
    text = items.map((i) => i.text).join(sep);
    tokens = counter.count(text);
  }
  const cards = items.flatMap((i) => (i.card ? [i.card] : []));
  return {
    task,
    mode,
    selector,
    budget: opts.budget,
    packBudget,
    items,
    cards,
    text,
    tokens,
    candidates: scored,
    decisions: packed.decisions,
    audit: auditCards(cards),
    ...(judgeStats ? { judgeStats } : {}),
  };
}
