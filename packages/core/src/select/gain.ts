/**
 * Expected-evidence packing. Each unit carries `gain`: the share of what the task needs that it is
 * expected to add (the caller's estimate; over all units it sums to at most 1). Units are taken
 * greedily by what they add per token, gain × (1 − λ · redundancy) / tokens, where redundancy is
 * MIG's (the largest similarity to anything already in), so a repeat adds little. When each unit of
 * a chain adds less per token than the one before (concave gains: the first lines of a pruned file
 * hold most of what it offers), this gives the likely messages their first cuts before it deepens
 * any one of them. Chains are respected (a unit waits for the one it extends) and the budget is
 * never crossed. Pure: units and a similarity in, ids and scores out.
 */
import { redundancy } from './mig.js';
import type { MigScore, SelectUnit, Similarity } from './types.js';

export interface GainUnit extends SelectUnit {
  /** Expected share of the task's evidence the unit adds, ≥ 0. */
  gain: number;
}

export interface GainScore extends MigScore {
  /** gain × (1 − λ · redundancy), at least 0: what the unit adds given what is in. */
  added: number;
  /** `added` per token: the order of selection. */
  density: number;
}

export interface GainOptions {
  /** Weight of redundancy (λ): 1 discounts a unit fully contained in what is in to nothing. Default 1. */
  lambda?: number;
  /** Units already present (protected context): they count for redundancy and cost nothing. */
  context?: readonly SelectUnit[];
}

export interface GainResult {
  /** Selected unit ids in selection order. */
  selected: string[];
  /** Every unit's scores: at selection time for selected ones, against the final set otherwise. */
  scores: Map<string, GainScore>;
  used: number;
}

function score(u: GainUnit, red: number, lambda: number): GainScore {
  const added = Math.max(0, u.gain * (1 - lambda * red));
  return { id: u.id, relevance: u.relevance, redundancy: red, mig: u.relevance - lambda * red, added, density: added / Math.max(1, u.tokens) };
}

/** Greedy by added evidence per token under `budget` (ties: the earlier unit). */
export function packByGain(units: readonly GainUnit[], budget: number, sim: Similarity, opts: GainOptions = {}): GainResult {
  const lambda = opts.lambda ?? 1;
  const context = opts.context ?? [];
  const red = units.map((u) => redundancy(u, context, sim));
  const taken = new Array<boolean>(units.length).fill(false);
  const have = new Set<string>(context.map((u) => u.id));
  const selected: string[] = [];
  const scores = new Map<string, GainScore>();
  let used = 0;
  for (;;) {
    let best = -1;
    let bestScore: GainScore | null = null;
    for (let i = 0; i < units.length; i++) {
      const u = units[i];
      if (taken[i] || used + u.tokens > budget + 1e-9) continue;
      if (u.after !== undefined && !have.has(u.after)) continue;
      const s = score(u, red[i], lambda);
      if (!bestScore || s.density > bestScore.density) {
        best = i;
        bestScore = s;
      }
    }
    if (best < 0 || !bestScore) break;
    const u = units[best];
    taken[best] = true;
    have.add(u.id);
    selected.push(u.id);
    used += u.tokens;
    scores.set(u.id, bestScore);
    for (let i = 0; i < units.length; i++) if (!taken[i]) red[i] = Math.max(red[i], sim(units[i], u));
  }
  units.forEach((u, i) => {
    if (!taken[i]) scores.set(u.id, score(u, red[i], lambda));
  });
  return { selected, scores, used };
}
