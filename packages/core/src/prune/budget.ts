/**
 * Budget calibration: search the keep bias added to the fused emissions until the decoded,
 * repaired and rendered output fits the token budget. The search steers with per-line token
 * costs (fast); the caller re-counts the final text exactly and tightens if needed.
 */
import { type CrfParams, viterbi } from '../crf/chain.js';
import { type FileStructure, LineKind } from '../syntax/types.js';
import { type ElisionStyle, elisionMarker, type Rendered, renderKept } from '../text/elision.js';
import type { TokenCounter } from '../text/tokens.js';
import { Reason } from './reasons.js';
import { isStandaloneLine, repairKeepSet, type RepairIndex, type RepairOptions } from './repair.js';

export interface SelectionContext {
  lines: string[];
  structure: FileStructure;
  fused: Float64Array;
  fusedCrf: CrfParams;
  /** Per line: 1 when the semantic rubric's weighted keep emission outweighs the dependency one. */
  evidenceLed: Uint8Array;
  costs: Float64Array;
  counter: TokenCounter;
  commentPrefix: string;
  cr: string;
  elision: ElisionStyle;
  repair: RepairOptions | null;
  repairIndex: RepairIndex;
}

export interface Selection {
  keep: Uint8Array;
  reason: Uint8Array;
  estimatedTokens: number;
  bias: number;
}

/** Token cost of the marker for lines [from, to]; a marker depends only on its range. */
function markerCost(ctx: SelectionContext, cache: Map<number, number>, from: number, to: number): number {
  const key = from * ctx.lines.length + to;
  let c = cache.get(key);
  if (c === undefined) {
    const m = elisionMarker(ctx.lines, from, to, ctx.commentPrefix, ctx.cr, to + 1 < ctx.lines.length ? to + 1 : -1, ctx.elision);
    c = ctx.counter.count(m + '\n');
    cache.set(key, c);
  }
  return c;
}

/** Viterbi decode at `bias`; decoded lines are evidence or dependency by their leading rubric. */
function decodeAt(ctx: SelectionContext, bias: number): { keep: Uint8Array; reason: Uint8Array } {
  const n = ctx.lines.length;
  const keep = viterbi(ctx.fused, ctx.fusedCrf, bias).path;
  const reason = new Uint8Array(n);
  for (let t = 0; t < n; t++) if (keep[t]) reason[t] = ctx.evidenceLed[t] ? Reason.Evidence : Reason.Dependency;
  return { keep, reason };
}

/**
 * Repair the keep set, show gaps cheaper than their own marker, and estimate the tokens of the
 * rendered text. Mutates keep/reason.
 */
function complete(
  ctx: SelectionContext, keep: Uint8Array, reason: Uint8Array, bias: number, cache: Map<number, number>, seeds?: number[],
): Selection {
  const n = ctx.lines.length;
  if (ctx.repair) repairKeepSet(keep, reason, ctx.structure, ctx.repair, ctx.repairIndex, seeds);
  let tokens = 0;
  let t = 0;
  while (t < n) {
    if (keep[t]) { tokens += ctx.costs[t]; t++; continue; }
    let e = t;
    let gapCost = ctx.costs[t];
    let standalone = isStandaloneLine(ctx.structure, t);
    while (e + 1 < n && !keep[e + 1]) { e++; gapCost += ctx.costs[e]; standalone &&= isStandaloneLine(ctx.structure, e); }
    const mc = markerCost(ctx, cache, t, e);
    if (standalone && gapCost <= mc) {
      for (let x = t; x <= e; x++) { keep[x] = 1; reason[x] = Reason.Repair; }
      tokens += gapCost;
    } else tokens += mc;
    t = e + 1;
  }
  return { keep, reason, estimatedTokens: tokens, bias };
}

/** Decode at `bias`, repair, fill gaps cheaper than their marker, and estimate the tokens. */
export function selectAt(ctx: SelectionContext, bias: number, cache: Map<number, number>): Selection {
  const { keep, reason } = decodeAt(ctx, bias);
  return complete(ctx, keep, reason, bias, cache);
}

/**
 * Viterbi keeps whole blocks, so the step from one bias to the next can jump past the budget.
 * Spend what is left line by line: the best-scoring pruned lines (with their repair) that fit.
 */
export function fillGreedily(ctx: SelectionContext, sel: Selection, budget: number, cache: Map<number, number>, maxMisses = 48): Selection {
  const n = ctx.lines.length;
  const order: number[] = [];
  // Evidence-led lines only: structure follows them through repair.
  for (let t = 0; t < n; t++) {
    const k = ctx.structure.kind[t];
    if (!sel.keep[t] && ctx.evidenceLed[t] && k !== LineKind.Blank && k !== LineKind.Closer) order.push(t);
  }
  const margin = (t: number) => ctx.fused[2 * t + 1] - ctx.fused[2 * t];
  order.sort((a, b) => margin(b) - margin(a));
  let best = sel;
  let misses = 0;
  for (const t of order) {
    if (best.keep[t]) continue;
    if (misses >= maxMisses || best.estimatedTokens + ctx.costs[t] > budget) { misses++; if (misses >= maxMisses) break; continue; }
    const keep = best.keep.slice();
    const reason = best.reason.slice();
    keep[t] = 1;
    reason[t] = ctx.evidenceLed[t] ? Reason.Evidence : Reason.Dependency;
    // The rest is already closed under repair: only the new line needs closing.
    const next = complete(ctx, keep, reason, best.bias, cache, [t]);
    if (next.estimatedTokens <= budget) { best = next; misses = 0; } else misses++;
  }
  return best;
}
/**
 * The largest-bias selection whose estimate fits `budget`, or null when even the all-pruned
 * selection does not. Bisection over the bias; the cost is non-decreasing in it up to ties.
 */
export function calibrate(ctx: SelectionContext, budget: number, cache: Map<number, number>): Selection | null {
  let maxAbs = 1;
  for (let i = 0; i < ctx.fused.length; i++) maxAbs = Math.max(maxAbs, Math.abs(ctx.fused[i]));
  let maxT = 0;
  for (let i = 0; i < 4; i++) maxT = Math.max(maxT, Math.abs(ctx.fusedCrf.transitions[i]));
  const bound = 2 * maxAbs + 4 * maxT + Math.abs(ctx.fusedCrf.start[1]) + Math.abs(ctx.fusedCrf.end[1]) + 1;
  let lo = -bound, hi = bound;
  const low = selectAt(ctx, lo, cache);
  if (low.estimatedTokens > budget) return null;
  let best = low;
  const high = selectAt(ctx, hi, cache);
  if (high.estimatedTokens <= budget) return high;
  for (let iter = 0; iter < 36 && hi - lo > 1e-4; iter++) {
    const mid = (lo + hi) / 2;
    const s = selectAt(ctx, mid, cache);
    if (s.estimatedTokens <= budget) { best = s; lo = mid; } else hi = mid;
  }
  return fillGreedily(ctx, best, budget, cache);
}

export interface Fitted {
  selection: Selection;
  rendered: Rendered;
  /** Exact token count of rendered.text. */
  tokens: number;
}

/**
 * Calibrate on estimates, then count the rendered text exactly and tighten until it fits.
 * null when not even the all-elided rendering fits.
 */
export function fitBudget(ctx: SelectionContext, budget: number, cache: Map<number, number>): Fitted | null {
  let target = budget;
  for (let attempt = 0; attempt < 6; attempt++) {
    const s = calibrate(ctx, target, cache);
    if (!s) return null;
    const rendered = renderKept(ctx.lines, s.keep, ctx.commentPrefix, ctx.cr, ctx.elision);
    const tokens = ctx.counter.count(rendered.text);
    if (tokens <= budget) return { selection: s, rendered, tokens };
    target -= Math.max(1, tokens - budget);
  }
  return null;
}
