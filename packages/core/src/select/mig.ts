/**
 * Marginal information gain (COMI): MIG(u | S) = relevance(u) − λ · redundancy(u, S), with
 * redundancy the largest similarity of u to anything already selected. Coarse stage: groups are
 * scored the same way and share the budget by a softmax over their MIG (water-filled so no group
 * gets more than it holds); fine stage: greedy per-unit MIG inside each group; leftover budget
 * then goes to a global greedy fill. Pure: units and a similarity in, ids and scores out.
 */
import type { GroupScore, MigScore, SelectUnit, Similarity } from './types.js';

export interface MigOptions {
  /** Weight of redundancy (λ). Default 1: MIG = relevance − redundancy. */
  lambda?: number;
  /** Units whose MIG falls below this are never selected. Default −Infinity (fill the budget). */
  minGain?: number;
  /** Units already present (protected context): they count for redundancy and cost nothing. */
  context?: readonly SelectUnit[];
  /**
   * A unit may cross `budget` by up to this fraction of its own size (0..1): rounding an
   * allocation to the nearest whole unit. Never past `hardLimit`. Default 0.
   */
  overshoot?: number;
  /** Absolute cap when overshoot is allowed. Default `budget`. */
  hardLimit?: number;
}

export interface GreedyResult {
  /** Selected units in selection order. */
  selected: SelectUnit[];
  /** Score of each candidate: at selection time for selected ones, against the final set otherwise. */
  scores: Map<string, MigScore>;
  used: number;
}

/** Redundancy of a unit against a set: max similarity (0 for an empty set). */
export function redundancy(unit: SelectUnit, set: readonly SelectUnit[], sim: Similarity): number {
  let r = 0;
  for (const s of set) if (s.id !== unit.id) r = Math.max(r, sim(unit, s));
  return r;
}

export function migScore(unit: SelectUnit, set: readonly SelectUnit[], sim: Similarity, lambda = 1): MigScore {
  const red = redundancy(unit, set, sim);
  return { id: unit.id, relevance: unit.relevance, redundancy: red, mig: unit.relevance - lambda * red };
}

/**
 * Greedy MIG under a budget: repeatedly take the fitting candidate with the highest MIG given
 * everything selected so far (ties: earlier candidate). Redundancy is kept incrementally, so
 * the cost is O(candidates × selected) similarity calls.
 */
export function greedyMig(candidates: readonly SelectUnit[], budget: number, sim: Similarity, opts: MigOptions = {}): GreedyResult {
  const lambda = opts.lambda ?? 1;
  const minGain = opts.minGain ?? -Infinity;
  const context = opts.context ?? [];
  const overshoot = opts.overshoot ?? 0;
  const hard = opts.hardLimit ?? budget;
  const fits = (used: number, t: number) => used + t <= Math.min(hard, budget + overshoot * t) + 1e-9;
  const red = candidates.map((u) => redundancy(u, context, sim));
  const taken = new Array<boolean>(candidates.length).fill(false);
  // A chained unit is available once the unit it extends is taken (here or before: the context).
  const have = new Set<string>(context.map((u) => u.id));
  const selected: SelectUnit[] = [];
  const scores = new Map<string, MigScore>();
  let used = 0;
  for (;;) {
    let best = -1,
      bestGain = -Infinity;
    for (let i = 0; i < candidates.length; i++) {
      if (taken[i] || !fits(used, candidates[i].tokens)) continue;
      if (candidates[i].after !== undefined && !have.has(candidates[i].after!)) continue;
      const g = candidates[i].relevance - lambda * red[i];
      if (g > bestGain) {
        bestGain = g;
        best = i;
      }
    }
    if (best < 0 || bestGain < minGain) break;
    const u = candidates[best];
    taken[best] = true;
    have.add(u.id);
    selected.push(u);
    used += u.tokens;
    scores.set(u.id, { id: u.id, relevance: u.relevance, redundancy: red[best], mig: bestGain });
    for (let i = 0; i < candidates.length; i++) if (!taken[i]) red[i] = Math.max(red[i], sim(candidates[i], u));
  }
  for (let i = 0; i < candidates.length; i++) {
    if (taken[i]) continue;
    const u = candidates[i];
    scores.set(u.id, { id: u.id, relevance: u.relevance, redundancy: red[i], mig: u.relevance - lambda * red[i] });
  }
  return { selected, scores, used };
}

/** How a group's relevance comes from its units' relevances. */
export type GroupRelevance = 'max' | 'mean' | 'top3';

export interface GroupScoreOptions {
  lambda?: number;
  groupRelevance?: GroupRelevance;
  context?: readonly SelectUnit[];
}

function aggregate(values: number[], how: GroupRelevance): number {
  if (values.length === 0) return 0;
  if (how === 'max') return Math.max(...values);
  if (how === 'mean') return values.reduce((a, b) => a + b, 0) / values.length;
  const top = [...values].sort((a, b) => b - a).slice(0, 3);
  return top.reduce((a, b) => a + b, 0) / top.length;
}

/** Token-weighted mean over units of a of their best similarity to a unit of b. */
export function setSimilarity(a: readonly SelectUnit[], b: readonly SelectUnit[], sim: Similarity): number {
  if (a.length === 0 || b.length === 0) return 0;
  let num = 0,
    den = 0;
  for (const u of a) {
    const w = Math.max(1, u.tokens);
    let m = 0;
    for (const v of b) m = Math.max(m, sim(u, v));
    num += w * m;
    den += w;
  }
  return num / den;
}

/**
 * Group-level MIG. Groups are ranked by relevance; each group's redundancy is its largest set
 * similarity to a group ranked before it (or to the context). Returned in descending MIG order,
 * allocation and used left at 0 for the caller.
 */
export function scoreGroups(units: readonly SelectUnit[], sim: Similarity, opts: GroupScoreOptions = {}): GroupScore[] {
  const lambda = opts.lambda ?? 1;
  const how = opts.groupRelevance ?? 'top3';
  const byGroup = new Map<string, SelectUnit[]>();
  for (const u of units) {
    let g = byGroup.get(u.group);
    if (!g) byGroup.set(u.group, (g = []));
    g.push(u);
  }
  const groups = [...byGroup.entries()].map(([group, us]) => ({
    group,
    units: us,
    tokens: us.reduce((a, u) => a + u.tokens, 0),
    relevance: aggregate(
      us.map((u) => u.relevance),
      how,
    ),
  }));
  const order = groups.map((_, i) => i).sort((i, j) => groups[j].relevance - groups[i].relevance || i - j);
  const earlier: SelectUnit[][] = opts.context && opts.context.length ? [[...opts.context]] : [];
  const out: GroupScore[] = [];
  for (const i of order) {
    const g = groups[i];
    let red = 0;
    for (const h of earlier) red = Math.max(red, setSimilarity(g.units, h, sim));
    earlier.push(g.units);
    out.push({ group: g.group, tokens: g.tokens, relevance: g.relevance, redundancy: red, mig: g.relevance - lambda * red, allocation: 0, used: 0 });
  }
  return out.sort((a, b) => b.mig - a.mig);
}

/**
 * Share `budget` across groups in proportion to softmax(MIG / temperature), never giving a
 * group more than its tokens (water-filling: what a capped group cannot use is re-shared among
 * the others). Integer allocations (largest remainder) summing to min(budget, Σ tokens).
 */
export function allocateBudget(groups: readonly { group: string; tokens: number; mig: number }[], budget: number, temperature = 0.1): Map<string, number> {
  const out = new Map<string, number>();
  if (groups.length === 0) return out;
  const total = Math.floor(
    Math.min(
      Math.max(0, budget),
      groups.reduce((a, g) => a + g.tokens, 0),
    ),
  );
  const maxMig = Math.max(...groups.map((g) => g.mig));
  const t = temperature > 0 ? temperature : 1e-6;
  const weight = groups.map((g) => Math.exp((g.mig - maxMig) / t));
  const alloc = new Array<number>(groups.length).fill(0);
  let open = groups.map((_, i) => i);
  let remaining = total;
  while (remaining > 1e-9 && open.length) {
    const wsum = open.reduce((a, i) => a + weight[i], 0);
    const capped: number[] = [];
    for (const i of open) {
      const share = wsum > 0 ? (remaining * weight[i]) / wsum : remaining / open.length;
      if (alloc[i] + share >= groups[i].tokens) capped.push(i);
    }
    if (capped.length === 0) {
      for (const i of open) alloc[i] += wsum > 0 ? (remaining * weight[i]) / wsum : remaining / open.length;
      remaining = 0;
      break;
    }
    for (const i of capped) {
      remaining -= groups[i].tokens - alloc[i];
      alloc[i] = groups[i].tokens;
    }
    open = open.filter((i) => !capped.includes(i));
  }
  // Largest remainder rounding: integers, same total, caps respected (caps are integers).
  const floors = alloc.map((a) => Math.floor(a + 1e-9));
  let left = total - floors.reduce((a, b) => a + b, 0);
  const byFrac = alloc.map((a, i) => i).sort((i, j) => alloc[j] - floors[j] - (alloc[i] - floors[i]) || i - j);
  for (const i of byFrac) {
    if (left <= 0) break;
    if (floors[i] < groups[i].tokens) {
      floors[i]++;
      left--;
    }
  }
  groups.forEach((g, i) => out.set(g.group, floors[i]));
  return out;
}

export interface PackMigOptions extends MigOptions {
  groupRelevance?: GroupRelevance;
  /** Softmax temperature of the coarse allocation. Default 0.1 (on 0..1 relevances). */
  temperature?: number;
  /**
   * Inside a group, a unit may cross the group's allocation by up to this fraction of its size
   * (the group rounds to whole units, taking from groups after it). Default 0.5; 0 = strict.
   */
  roundUp?: number;
  /**
   * No starvation (default true): after the coarse and fine stages, a unit left out while units of
   * lower MIG were taken replaces them when dropping them (lowest MIG first) makes it fit. The
   * allocation shapes the selection; it never costs the best unit its place.
   */
  noStarvation?: boolean;
}

export interface PackMigResult {
  /** Selected unit ids in selection order. */
  selected: string[];
  scores: Map<string, MigScore>;
  groups: GroupScore[];
  used: number;
  /** Tokens the global fill took from what the groups left. */
  fill: number;
}

/**
 * Coarse-to-fine packing: score groups, allocate, greedy MIG inside each group (highest group
 * MIG first, redundancy against everything chosen so far; a group rounds its allocation to whole
 * units, see roundUp), then a global greedy fill with the leftover. Never exceeds `budget`.
 */
export function packMig(units: readonly SelectUnit[], budget: number, sim: Similarity, opts: PackMigOptions = {}): PackMigResult {
  const lambda = opts.lambda ?? 1;
  const context = [...(opts.context ?? [])];
  const groups = scoreGroups(units, sim, { lambda, groupRelevance: opts.groupRelevance, context });
  const alloc = allocateBudget(groups, budget, opts.temperature ?? 0.1);
  const chosen: SelectUnit[] = [];
  const chosenIds = new Set<string>();
  const scores = new Map<string, MigScore>();
  let used = 0;
  for (const g of groups) {
    g.allocation = alloc.get(g.group) ?? 0;
    const members = units.filter((u) => u.group === g.group);
    const r = greedyMig(members, g.allocation, sim, {
      lambda,
      minGain: opts.minGain,
      context: [...context, ...chosen],
      overshoot: opts.roundUp ?? 0.5,
      hardLimit: Math.max(0, budget - used),
    });
    for (const u of r.selected) {
      chosen.push(u);
      chosenIds.add(u.id);
    }
    for (const [id, s] of r.scores) scores.set(id, s);
    g.used = r.used;
    used += r.used;
  }
  const rest = units.filter((u) => !chosenIds.has(u.id));
  const fill = greedyMig(rest, budget - used, sim, { lambda, minGain: opts.minGain, context: [...context, ...chosen] });
  for (const u of fill.selected) {
    chosen.push(u);
    chosenIds.add(u.id);
  }
  for (const [id, s] of fill.scores) scores.set(id, s);
  for (const u of fill.selected) {
    const g = groups.find((x) => x.group === u.group);
    if (g) g.used += u.tokens;
  }
  used += fill.used;
  const fillUsed = fill.used;
  if (opts.noStarvation ?? true) used = unstarve(units, chosen, context, scores, budget, used, opts.minGain ?? -Infinity);
  for (const g of groups) g.used = chosen.filter((u) => u.group === g.group).reduce((a, u) => a + u.tokens, 0);
  return { selected: chosen.map((u) => u.id), scores, groups, used, fill: fillUsed };
}

/**
 * Swap pass: each left-out unit, best MIG first, takes the place of taken units of lower MIG (the
 * lowest first; only units nothing taken extends) when that makes it fit. Mutates `chosen`.
 */
function unstarve(
  units: readonly SelectUnit[],
  chosen: SelectUnit[],
  context: readonly SelectUnit[],
  scores: Map<string, MigScore>,
  budget: number,
  used: number,
  minGain: number,
): number {
  const given = new Set(context.map((u) => u.id));
  const mig = (u: SelectUnit) => scores.get(u.id)?.mig ?? u.relevance;
  const out = units.filter((u) => !chosen.includes(u)).sort((a, b) => mig(b) - mig(a));
  for (const u of out) {
    if (mig(u) < minGain) break;
    if (chosen.includes(u)) continue;
    if (u.after !== undefined && !given.has(u.after) && !chosen.some((c) => c.id === u.after)) continue;
    const victims: SelectUnit[] = [];
    let free = budget - used;
    const pool = new Set(chosen);
    while (free + 1e-9 < u.tokens) {
      let worst: SelectUnit | null = null;
      for (const c of pool) {
        if (mig(c) >= mig(u) || c.id === u.after) continue;
        if ([...pool].some((d) => d.after === c.id)) continue; // a taken unit extends it
        if (!worst || mig(c) < mig(worst)) worst = c;
      }
      if (!worst) break;
      pool.delete(worst);
      victims.push(worst);
      free += worst.tokens;
    }
    if (free + 1e-9 < u.tokens) continue;
    for (const v of victims) chosen.splice(chosen.indexOf(v), 1);
    chosen.push(u);
    used += u.tokens - victims.reduce((a, v) => a + v.tokens, 0);
  }
  return used;
}

/**
 * Plain relevance packing (task-aware without redundancy): highest relevance first, skip what does
 * not fit; a chained unit waits for the one it extends (taken here or given as context).
 */
export function packByRelevance(units: readonly SelectUnit[], budget: number, context: readonly SelectUnit[] = []): { selected: string[]; used: number } {
  const order = units.map((_, i) => i).sort((i, j) => units[j].relevance - units[i].relevance || i - j);
  const selected: string[] = [];
  const have = new Set<string>(context.map((u) => u.id));
  let used = 0;
  // Chained units wait for the unit they extend: rescan until nothing more is taken.
  for (let changed = true; changed;) {
    changed = false;
    for (const i of order) {
      const u = units[i];
      if (have.has(u.id) || used + u.tokens > budget + 1e-9) continue;
      if (u.after !== undefined && !have.has(u.after)) continue;
      selected.push(u.id);
      have.add(u.id);
      used += u.tokens;
      changed = true;
      break;
    }
  }
  return { selected, used };
}
