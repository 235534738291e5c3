/**
 * Gold-line recall of a scorer's ranking alone: lines in order of fused keep−prune margin, taken
 * while their own tokens fit the budget, with no markers, no decoding and no repair. Not a
 * pruning output (it neither parses nor reads as code): it says how much of the pipeline's
 * recall the ranking sets and how much the readable output costs. Pure.
 */
import { fuseEmissions, type RubricEmissions } from '../crf/rubrics.js';

/** `gold` holds 1-based line numbers, `costs` the tokens of each line with its newline. */
export function rankingRecall(r: RubricEmissions, costs: Float64Array, budget: number, gold: number[]): number {
  if (gold.length === 0) return 1;
  const f = fuseEmissions(r);
  const order = Array.from({ length: r.n }, (_, t) => t);
  order.sort((a, b) => f[2 * b + 1] - f[2 * b] - (f[2 * a + 1] - f[2 * a]) || a - b);
  const kept = new Set<number>();
  let used = 0;
  for (const t of order) {
    if (used + costs[t] > budget) break;
    used += costs[t];
    kept.add(t + 1);
  }
  let hit = 0;
  for (const g of gold) if (kept.has(g)) hit++;
  return hit / gold.length;
}
