/**
 * The reference points of ../shared/bench/README.md that a pruner has to beat, computed on the
 * same costs and budget as the pipeline. Pure.
 *
 * Smoothed-BM25 window: BM25 of each line (as a document) for the query, averaged over ±3 lines,
 * lines taken greedily in that order while their own tokens fit the budget (no markers).
 */
import { bm25Scores, buildBm25Index } from '../retrieval/bm25.js';
import { termsOf } from '../text/identifiers.js';

export const SMOOTHING_RADIUS = 3;

export function smoothedBm25Keep(lines: string[], query: string, costs: Float64Array, budget: number): Set<number> {
  const index = buildBm25Index(lines.map((l) => termsOf(l)));
  const raw = bm25Scores(index, termsOf(query));
  const n = lines.length;
  const smooth = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    let s = 0,
      k = 0;
    for (let u = Math.max(0, t - SMOOTHING_RADIUS); u <= Math.min(n - 1, t + SMOOTHING_RADIUS); u++, k++) s += raw[u];
    smooth[t] = s / k;
  }
  const order = Array.from({ length: n }, (_, t) => t).sort((a, b) => smooth[b] - smooth[a] || a - b);
  const kept = new Set<number>();
  let used = 0;
  for (const t of order) {
    if (used + costs[t] > budget) continue;
    used += costs[t];
    kept.add(t + 1);
  }
  return kept;
}

export function keptRecall(kept: Set<number>, gold: number[]): number {
  if (gold.length === 0) return 1;
  let hit = 0;
  for (const g of gold) if (kept.has(g)) hit++;
  return hit / gold.length;
}
