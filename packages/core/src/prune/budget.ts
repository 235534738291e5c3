/**
 * Budget calibration: search the keep bias added to the fused emissions until the decoded,
 * repaired and rendered output fits the token budget, then spend what is left on the units
 * (a line with its repair) worth most per token. The search steers with per-line token costs
 * (fast); the caller re-counts the final text exactly and tightens if needed.
 */
import { type CrfParams, viterbi } from '../crf/chain.js';
import { type FileStructure, LineKind } from '../syntax/types.js';
import { type ElisionStyle, elisionMarker, type Rendered, renderKept } from '../text/elision.js';
import { countSteps, type TokenCounter } from '../text/tokens.js';
import { Reason } from './reasons.js';
import { isStandaloneLine, repairKeepSet, repairSteps, type RepairIndex, type RepairOptions } from './repair.js';
import { type Pause, runSteps, runStepsAsync, type Steps } from '../util/steps.js';

export interface SelectionContext {
  lines: string[];
  structure: FileStructure;
  fused: Float64Array;
  fusedCrf: CrfParams;
  /**
   * Per line: what keeping it is worth to the reader, in evidence (the packer's value), from
   * the semantic rubric's keep−prune margin m as exp(2m): the odds, sharpened so the most
   * confident lines lead.
   */
  value: Float64Array;
  /** Per line: 1 when the semantic rubric leads the keep decision (leadingRubric in crf/rubrics.ts). */
  evidenceLed: Uint8Array;
  costs: Float64Array;
  counter: TokenCounter;
  commentPrefix: string;
  cr: string;
  elision: ElisionStyle;
  repair: RepairOptions | null;
  repairIndex: RepairIndex;
  /**
   * Each packer candidate's unit (the line closed under repair on its own), reused by every
   * calibration of one prune; whoever changes `repair` clears it.
   */
  units: Map<number, Unit>;
  /**
   * Other ways to decode and pack the same budget: each is fitted as well, and the one whose
   * kept lines hold the most expected evidence (`expected`) wins. Absent or empty: only this way.
   */
  variants?: DecodeVariant[];
  /** Per line: the evidence a kept line is expected to hold, σ(fused margin); needed by `variants`. */
  expected?: Float64Array;
  /** What the ways of one fit share (fitSteps sets it): see FitMemo. */
  memo?: FitMemo;
  /**
   * Tuned constants (PruneTuning): the packer's cost exponent, whether packing starts from the
   * Viterbi decode, and the share of the budget that decode is calibrated to (default 1).
   */
  tuning?: { costExponent?: number; viterbiStart?: boolean; viterbiShare?: number };
}

/**
 * Work the ways of one fit share. Ways that decode with the same CRF bisect the same biases, and a
 * bias decodes and completes to the same selection whatever the packer does after (complete()
 * reads neither `value` nor `tuning`): per CRF, each bias's decode and completed selection, made
 * once. And each rendered text's exact token count, counted once.
 */
interface FitMemo {
  calibration: Map<CrfParams, Map<number, CalibrationStep>>;
  counts: Map<string, number>;
}

interface CalibrationStep {
  decoded: { keep: Uint8Array; reason: Uint8Array };
  /** complete() of a copy of `decoded`, once asked for. */
  selection?: Selection;
}

/** A decoding variant: what it replaces in the SelectionContext. */
export interface DecodeVariant {
  /** The CRF the Viterbi start decodes with. */
  fusedCrf?: CrfParams;
  /** The packer's value per line. */
  value?: Float64Array;
  /** The share of the budget the Viterbi start is calibrated to; the packer spends the rest. */
  viterbiShare?: number;
}

/** A line with the repair closure it drags in, sorted, with the reason each line joins for. */
export interface Unit {
  lines: Int32Array;
  reasons: Uint8Array;
  cost: number;
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
  const led = ctx.evidenceLed;
  for (let t = 0; t < n; t++) if (keep[t]) reason[t] = led[t] ? Reason.Evidence : Reason.Dependency;
  return { keep, reason };
}

/**
 * Repair the keep set, show gaps cheaper than their own marker, and estimate the tokens of the
 * rendered text. Mutates keep/reason.
 */
function* complete(ctx: SelectionContext, keep: Uint8Array, reason: Uint8Array, bias: number, cache: Map<number, number>, seeds?: number[]): Steps<Selection> {
  const n = ctx.lines.length;
  if (ctx.repair) {
    yield* repairSteps(keep, reason, ctx.structure, ctx.repair, ctx.repairIndex, seeds);
    yield;
  }
  // Locals: this loop runs at every bias tried, and field loads on a context of several shapes
  // (the ways of one fit) are the slow kind in the one-shot CLI's baseline code.
  const { costs, structure } = ctx;
  dropLoneBlanks(keep, structure);
  let tokens = 0;
  let t = 0;
  let runs = 0;
  while (t < n) {
    if (keep[t]) {
      tokens += costs[t];
      t++;
      continue;
    }
    if (++runs % 256 === 0) yield;
    let e = t;
    let gapCost = costs[t];
    let standalone = isStandaloneLine(structure, t);
    while (e + 1 < n && !keep[e + 1]) {
      e++;
      gapCost += costs[e];
      standalone &&= isStandaloneLine(structure, e);
    }
    const mc = markerCost(ctx, cache, t, e);
    if (standalone && gapCost <= mc) {
      for (let x = t; x <= e; x++) {
        keep[x] = 1;
        reason[x] = Reason.Repair;
      }
      tokens += gapCost;
    } else tokens += mc;
    t = e + 1;
  }
  return { keep, reason, estimatedTokens: tokens, bias };
}

/**
 * Blank lines kept with elided lines on both sides (or an elided line and the file's edge) show
 * nothing and split one marker into two: a decode that keeps blank lines for their neighbours'
 * sake (the lexical scorer scores a blank line like the lines around it) leaves them between
 * elided definitions. They are left out, so their tokens and the extra marker go to code.
 */
function dropLoneBlanks(keep: Uint8Array, st: FileStructure): void {
  const n = keep.length;
  let t = 0;
  while (t < n) {
    if (!keep[t] || st.kind[t] !== LineKind.Blank) {
      t++;
      continue;
    }
    let e = t;
    while (e + 1 < n && keep[e + 1] && st.kind[e + 1] === LineKind.Blank) e++;
    const before = t > 0 ? keep[t - 1] === 1 : null;
    const after = e + 1 < n ? keep[e + 1] === 1 : null;
    // Elided on both sides, or on one side with the file's edge on the other.
    if (before !== true && after !== true && (before === false || after === false)) for (let x = t; x <= e; x++) keep[x] = 0;
    t = e + 1;
  }
}

/** Decode at `bias`, repair, fill gaps cheaper than their marker, and estimate the tokens. */
export function selectAt(ctx: SelectionContext, bias: number, cache: Map<number, number>): Selection {
  return runSteps(selectSteps(ctx, bias, cache));
}

function* selectSteps(ctx: SelectionContext, bias: number, cache: Map<number, number>): Steps<Selection> {
  const { keep, reason } = decodeAt(ctx, bias);
  yield;
  return yield* complete(ctx, keep, reason, bias, cache);
}

/** Exponent on a unit's token cost when ranking units by value: see packByValue. */
const COST_EXPONENT = 0.75;
/** Units considered by the packer: the most valuable lines not yet kept. */
const MAX_UNITS = 400;

/** Value per line from the semantic rubric's emissions (SelectionContext.value): the odds to the power `sharpness`. */
export function evidenceValue(semantic: Float64Array, sharpness = 2): Float64Array {
  const n = semantic.length >> 1;
  const v = new Float64Array(n);
  for (let t = 0; t < n; t++) v[t] = Math.exp(Math.min(300, sharpness * (semantic[2 * t + 1] - semantic[2 * t])));
  return v;
}

/** Scratch masks for unitOf, grown on demand and left all-zero after each use. */
let scratchKeep = new Uint8Array(0);
let scratchReason = new Uint8Array(0);

const NO_LINES = new Int32Array(0);

/** The unit of line `c`; one that costs more than `budget` comes back without its lines. */
function unitOf(ctx: SelectionContext, c: number, budget: number): Unit {
  let unit = ctx.units.get(c);
  if (unit && (unit.lines.length || unit.cost > budget)) return unit;
  const n = ctx.lines.length;
  if (scratchKeep.length < n) {
    scratchKeep = new Uint8Array(n);
    scratchReason = new Uint8Array(n);
  }
  const keep = scratchKeep;
  const reason = scratchReason;
  const added = [c];
  keep[c] = 1;
  reason[c] = ctx.evidenceLed[c] ? Reason.Evidence : Reason.Dependency;
  if (ctx.repair) repairKeepSet(keep, reason, ctx.structure, ctx.repair, ctx.repairIndex, [c], added);
  let cost = 0;
  for (const t of added) cost += ctx.costs[t];
  if (cost > budget) {
    // Budgets only shrink within a prune: it will never fit; skip sorting a 900-line span.
    unit = { lines: NO_LINES, reasons: new Uint8Array(0), cost };
  } else {
    const lines = Int32Array.from(added).sort();
    unit = { lines, reasons: Uint8Array.from(lines, (t) => reason[t]), cost };
  }
  for (const t of added) {
    keep[t] = 0;
    reason[t] = 0;
  }
  ctx.units.set(c, unit);
  return unit;
}

/**
 * The line the budget most wants (the highest value among the lines the semantic rubric leads)
 * when the fit left it out because its unit (it and its repair) costs more than the whole budget
 * while the line alone does not; else -1. Units are built under `ctx.repair` as it is now.
 */
export function bestLineOutOfReach(ctx: SelectionContext, keep: Uint8Array, budget: number): number {
  let best = -1;
  for (let t = 0; t < ctx.value.length; t++) if (ctx.evidenceLed[t] && ctx.costs[t] > 0 && (best < 0 || ctx.value[t] > ctx.value[best])) best = t;
  if (best < 0 || keep[best] || ctx.costs[best] > budget) return -1;
  return unitOf(ctx, best, budget).cost > budget ? best : -1;
}

/** `a` with room for `size` entries, the new ones set to `fill` (`a` itself when it has the room). */
function grown<A extends Uint8Array | Float64Array>(a: A, size: number, fill: number): A {
  if (a.length >= size) return a;
  const b = new (a.constructor as new (n: number) => A)(size);
  b.set(a);
  b.fill(fill, a.length);
  return b;
}

/** Keep a unit's lines; lines already kept keep their reason. */
function addUnit(keep: Uint8Array, reason: Uint8Array, unit: Unit): void {
  const { lines, reasons } = unit;
  for (let i = 0; i < lines.length; i++)
    if (!keep[lines[i]]) {
      keep[lines[i]] = 1;
      reason[lines[i]] = reasons[i];
    }
}

/**
 * Viterbi keeps whole blocks, so the step from one bias to the next can jump past the budget.
 * Spend what is left unit by unit. A unit is a line not yet kept plus the repair closure it
 * drags in; each step adds the unit with the most value per token it would add (its new lines,
 * plus the marker it opens or minus the one it closes). A line in a scope already paid for is
 * cheap, so evidence clusters; a lone line deep in a class pays for its headers and closers.
 * Value is divided by cost^0.75, not cost: between pure ranking and value per token, because
 * the scorers' probabilities are not calibrated per token (a long line is not worth less).
 * Chosen on the training's held-out repositories, not on the benchmark.
 */
export function packByValue(ctx: SelectionContext, start: Selection, budget: number, cache: Map<number, number>): Selection {
  return runSteps(packSteps(ctx, start, budget, cache));
}

/** packByValue as steps (util/steps.ts): a yield every 64 units built, every unit accepted and every probe of the final cut. */
function* packSteps(ctx: SelectionContext, start: Selection, budget: number, cache: Map<number, number>): Steps<Selection> {
  const n = ctx.lines.length;
  const st = ctx.structure;
  const value = ctx.value;
  const keep = start.keep.slice();
  const reason = start.reason.slice();
  const cand: number[] = [];
  for (let t = 0; t < n; t++) {
    const k = st.kind[t];
    if (!keep[t] && k !== LineKind.Blank && k !== LineKind.Closer) cand.push(t);
  }
  cand.sort((a, b) => value[b] - value[a] || a - b);
  // Each candidate's unit: the line closed under repair on its own (a superset of what it adds
  // to any keep set, since repair only adds what is missing). Built MAX_UNITS at a time, the most
  // valuable first: the next batch only when every unit of this one is taken or adds nothing and
  // budget is left. That happens when the Viterbi start cannot reach the budget because many
  // lines score alike (a test log of thousands of PASSED lines decodes all of them or none of
  // them): with one batch, a 6,000-line log pruned to 1.5x kept 409 lines, a tenth of its budget.
  const units: Unit[] = [];
  const total = cand.length;
  const readers: (number[] | undefined)[] = new Array<number[] | undefined>(n);
  // Per unit, grown with each batch: whether it can still join, its score and cost as last
  // evaluated, and whether a line it reads changed since.
  let alive = new Uint8Array(0);
  let score = new Float64Array(0);
  let unitCost = new Float64Array(0);
  let stale = new Uint8Array(0);
  let built = 0;
  /** Units before this index are all taken or spent: the step's search starts here. */
  let batchStart = 0;
  function* buildBatch(): Steps<void> {
    batchStart = units.length;
    const end = Math.min(total, built + MAX_UNITS);
    const room = batchStart + end - built;
    alive = grown(alive, room, 1);
    score = grown(score, room, 0);
    unitCost = grown(unitCost, room, 0);
    stale = grown(stale, room, 1);
    for (let k = built; k < end; k++) {
      if (k % 64 === 63) yield;
      const unit = unitOf(ctx, cand[k], budget);
      // A unit whose own lines exceed the budget can never join.
      if (unit.cost > budget) continue;
      const u = units.length;
      units.push(unit);
      for (const t of unit.lines) {
        for (let x = Math.max(0, t - 1); x <= Math.min(n - 1, t + 1); x++) (readers[x] ??= []).push(u);
      }
    }
    built = end;
  }
  yield;
  yield* buildBatch();
  // Markers at a typical size; complete() and the caller count the real ones.
  const mid = n >> 1;
  const markerTokens = markerCost(ctx, cache, mid, Math.min(n - 1, mid + 9));
  let tokens = 0;
  for (let t = 0; t < n; t++) {
    if (keep[t]) tokens += ctx.costs[t];
    else if (t === 0 || keep[t - 1]) tokens += markerTokens;
  }
  const costExponent = ctx.tuning?.costExponent ?? COST_EXPONENT;
  const accepted: number[] = [];
  // A unit's gain and cost read the keep state of its lines and of the lines next to them, so
  // adding a unit changes only the units that read one of its new lines: each unit's score is
  // kept and made again only then (the same choices as making every score at every step, which
  // cost a step O(units × their lines): the half-budget start packs hundreds of units).
  const evaluate = (u: number): void => {
    stale[u] = 0;
    const L = units[u].lines;
    let gain = 0,
      cost = 0,
      fresh = 0;
    for (let i = 0; i < L.length; i++) {
      const t = L[i];
      if (keep[t]) continue;
      fresh++;
      gain += value[t];
      cost += ctx.costs[t];
      if (i > 0 && L[i - 1] === t - 1 && !keep[t - 1]) continue;
      // First line of a run of new lines: the run splits a gap (one more marker), trims it
      // (none), or fills it (one fewer).
      let e = i;
      while (e + 1 < L.length && L[e + 1] === L[e] + 1 && !keep[L[e + 1]]) e++;
      const gapBefore = t > 0 && !keep[t - 1];
      const gapAfter = L[e] < n - 1 && !keep[L[e] + 1];
      if (gapBefore && gapAfter) cost += markerTokens;
      else if (!gapBefore && !gapAfter) cost -= markerTokens;
    }
    if (!fresh) alive[u] = 0;
    unitCost[u] = cost;
    score[u] = gain / Math.pow(Math.max(cost, 1), costExponent);
  };
  for (;;) {
    let best = -1,
      bestScore = 0,
      left = false;
    for (let u = batchStart; u < units.length; u++) {
      if (!alive[u]) continue;
      if (stale[u]) {
        evaluate(u);
        if (!alive[u]) continue;
      }
      left = true;
      if (tokens + unitCost[u] > budget) continue;
      if (score[u] > bestScore) {
        best = u;
        bestScore = score[u];
      }
    }
    if (best < 0) {
      // This batch is spent and budget is left: the next most valuable candidates.
      if (!left && built < total) {
        yield* buildBatch();
        continue;
      }
      break;
    }
    for (const t of units[best].lines) if (!keep[t]) for (const r of readers[t] ?? []) stale[r] = 1;
    tokens += unitCost[best];
    addUnit(keep, reason, units[best]);
    alive[best] = 0;
    accepted.push(best);
    yield;
  }
  const all = yield* complete(ctx, keep, reason, start.bias, cache);
  if (all.estimatedTokens <= budget) return all;
  // The running estimate prices markers at a typical size; with the real ones the selection can
  // overshoot. Keep the longest prefix of the accepted units that fits (none: the start fits).
  const withFirst = (k: number): Steps<Selection> => {
    const kk = start.keep.slice();
    const rr = start.reason.slice();
    for (let j = 0; j < k; j++) addUnit(kk, rr, units[accepted[j]]);
    return complete(ctx, kk, rr, start.bias, cache);
  };
  let lo = 0,
    hi = accepted.length - 1;
  let fit: Selection = start;
  while (lo < hi) {
    yield;
    const mid = (lo + hi + 1) >> 1;
    const s = yield* withFirst(mid);
    if (s.estimatedTokens <= budget) {
      lo = mid;
      fit = s;
    } else hi = mid - 1;
  }
  return fit;
}

/**
 * The largest-bias selection whose estimate fits `budget`, or null when even the all-pruned
 * selection does not. Bisection over the bias; the cost is non-decreasing in it up to ties.
 */
export function calibrate(ctx: SelectionContext, budget: number, cache: Map<number, number>): Selection | null {
  return runSteps(calibrateSteps(ctx, budget, cache));
}

/**
 * calibrate's work, one decoding pass per step: calibrate runs the steps back to back,
 * fitBudgetAsync awaits `pause()` (abort, yield: prune/checkpoint.ts) between them. Same result.
 */
function* calibrateSteps(ctx: SelectionContext, budget: number, cache: Map<number, number>): Steps<Selection | null> {
  let maxAbs = 1;
  for (let i = 0; i < ctx.fused.length; i++) maxAbs = Math.max(maxAbs, Math.abs(ctx.fused[i]));
  let maxT = 0;
  for (let i = 0; i < 4; i++) maxT = Math.max(maxT, Math.abs(ctx.fusedCrf.transitions[i]));
  const bound = 2 * maxAbs + 4 * maxT + Math.abs(ctx.fusedCrf.start[1]) + Math.abs(ctx.fusedCrf.end[1]) + 1;
  let lo = -bound,
    hi = bound;
  if (isTransitionFree(ctx.fusedCrf)) return yield* calibrateByThresholdSteps(ctx, budget, cache, lo, hi);
  let steps = ctx.memo?.calibration.get(ctx.fusedCrf);
  if (ctx.memo && !steps) ctx.memo.calibration.set(ctx.fusedCrf, (steps = new Map<number, CalibrationStep>()));
  const stepAt = (bias: number): CalibrationStep => {
    let step = steps?.get(bias);
    if (!step) {
      step = { decoded: decodeAt(ctx, bias) };
      steps?.set(bias, step);
    }
    return step;
  };
  function* completeAt(bias: number, step: CalibrationStep): Steps<Selection> {
    step.selection ??= yield* complete(ctx, step.decoded.keep.slice(), step.decoded.reason.slice(), bias, cache);
    return step.selection;
  }
  // The decode at each end of the bracket, before repair: where a bias decodes the same lines
  // as an end, its selection is that end's (repair and gap filling depend on the decoded lines
  // only), so it is not repaired and measured again. Emissions with few distinct values (a
  // long run of blank lines) decode the same few sets at most biases.
  const loStep = stepAt(lo);
  let loDecoded = loStep.decoded;
  const low = yield* completeAt(lo, loStep);
  yield;
  if (low.estimatedTokens > budget) return null;
  if (ctx.tuning?.viterbiStart === false) return yield* packSteps(ctx, low, budget, cache);
  let best = low;
  const hiStep = stepAt(hi);
  let hiDecoded = hiStep.decoded;
  const high = yield* completeAt(hi, hiStep);
  yield;
  if (high.estimatedTokens <= budget) return high;
  // The decode spends this much; the packer, the rest.
  const startBudget = budget * (ctx.tuning?.viterbiShare ?? 1);
  for (let iter = 0; iter < 36 && hi - lo > 1e-4; iter++) {
    const mid = (lo + hi) / 2;
    const step = stepAt(mid);
    const decoded = step.decoded;
    yield;
    if (sameLines(decoded.keep, loDecoded.keep)) {
      best = { ...best, bias: mid };
      lo = mid;
      continue;
    }
    if (sameLines(decoded.keep, hiDecoded.keep)) {
      hi = mid;
      continue;
    }
    const s = yield* completeAt(mid, step);
    yield;
    if (s.estimatedTokens <= startBudget) {
      best = s;
      lo = mid;
      loDecoded = decoded;
    } else {
      hi = mid;
      hiDecoded = decoded;
    }
  }
  return yield* packSteps(ctx, best, budget, cache);
}

function isTransitionFree(crf: CrfParams): boolean {
  const T = crf.transitions;
  return T[0] === 0 && T[1] === 0 && T[2] === 0 && T[3] === 0;
}

/** Lines by their margin, highest first, cut into groups of equal margin (see calibrateByThresholdSteps). */
interface ThresholdOrder {
  fused: Float64Array;
  /** Line numbers, highest margin first. */
  order: Int32Array;
  /** ends[g]: lines in the first g + 1 groups; margins[g]: the margin of group g. */
  ends: Int32Array;
  margins: Float64Array;
}

/** Per CRF without transitions (the decoding variant makes one per prune), its lines in order. */
const thresholdOrders = new WeakMap<CrfParams, ThresholdOrder>();

function thresholdOrder(ctx: SelectionContext): ThresholdOrder {
  const crf = ctx.fusedCrf;
  const known = thresholdOrders.get(crf);
  if (known && known.fused === ctx.fused) return known;
  const e = ctx.fused;
  const n = e.length >> 1;
  const margin = new Float64Array(n);
  for (let t = 0; t < n; t++) margin[t] = e[2 * t + 1] - e[2 * t];
  margin[0] += crf.start[1] - crf.start[0];
  margin[n - 1] += crf.end[1] - crf.end[0];
  const order = Int32Array.from({ length: n }, (_, t) => t).sort((a, b) => margin[b] - margin[a] || a - b);
  const ends: number[] = [];
  const margins: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i + 1 < n && margin[order[i + 1]] === margin[order[i]]) continue;
    ends.push(i + 1);
    margins.push(margin[order[i]]);
  }
  const made = { fused: e, order, ends: Int32Array.from(ends), margins: Float64Array.from(margins) };
  thresholdOrders.set(crf, made);
  return made;
}

/**
 * calibrateSteps for a CRF without transitions, which decodes each line on its own: kept exactly
 * when its margin (keep − prune emission, and the start or end weight on the first or last line)
 * plus the bias is positive. So every decode keeps the lines above a threshold, and the search
 * runs over the distinct margins, highest first (one repair per halving, no Viterbi pass), to the
 * largest prefix whose estimate fits; the bisection over the bias found the same prefix, but
 * through ~20 decodes of every line and a repair for each new set (a one-shot CLI prune spent
 * ~5 ms of its ~0.35 s there). `lo`/`hi`: the bracket's biases, for the ends' selections.
 */
function* calibrateByThresholdSteps(ctx: SelectionContext, budget: number, cache: Map<number, number>, lo: number, hi: number): Steps<Selection | null> {
  const { order, ends, margins } = thresholdOrder(ctx);
  const n = order.length;
  const led = ctx.evidenceLed;
  // The first `groups` groups kept, at a bias between their margin and the next group's.
  const selectionOf = (groups: number, bias: number): Steps<Selection> => {
    const keep = new Uint8Array(n);
    const reason = new Uint8Array(n);
    const count = groups === 0 ? 0 : ends[groups - 1];
    for (let i = 0; i < count; i++) {
      const t = order[i];
      keep[t] = 1;
      reason[t] = led[t] ? Reason.Evidence : Reason.Dependency;
    }
    return complete(ctx, keep, reason, bias, cache);
  };
  const G = ends.length;
  const biasAt = (groups: number): number => (groups === 0 ? lo : groups === G ? hi : -(margins[groups - 1] + margins[groups]) / 2);
  const low = yield* selectionOf(0, lo);
  yield;
  if (low.estimatedTokens > budget) return null;
  if (ctx.tuning?.viterbiStart === false) return yield* packSteps(ctx, low, budget, cache);
  const high = yield* selectionOf(G, hi);
  yield;
  if (high.estimatedTokens <= budget) return high;
  const startBudget = budget * (ctx.tuning?.viterbiShare ?? 1);
  let best = low;
  let fits = 0,
    over = G;
  while (over - fits > 1) {
    const mid = (fits + over) >> 1;
    const s = yield* selectionOf(mid, biasAt(mid));
    yield;
    if (s.estimatedTokens <= startBudget) {
      best = s;
      fits = mid;
    } else over = mid;
  }
  return yield* packSteps(ctx, best, budget, cache);
}

/** Whether two keep masks are equal. */
function sameLines(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let t = 0; t < a.length; t++) if (a[t] !== b[t]) return false;
  return true;
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
  return runSteps(fitSteps(ctx, budget, cache));
}

/** fitBudget with `pause()` between its decoding passes (prune/checkpoint.ts: abort and yield). Same result. */
export function fitBudgetAsync(ctx: SelectionContext, budget: number, cache: Map<number, number>, pause: Pause): Promise<Fitted | null> {
  return runStepsAsync(fitSteps(ctx, budget, cache), pause);
}

/**
 * Fit the context's own way and each of its variants, and keep the fit whose kept lines hold the
 * most expected evidence (the earlier on a tie). The ways differ most on small budgets, where
 * the Viterbi start's blocks and the packer's units buy different structure: on the validation
 * corpus's even half no one way wins most cases, and the expected evidence picks well among them.
 */
function* fitSteps(ctx: SelectionContext, budget: number, cache: Map<number, number>): Steps<Fitted | null> {
  const expected = ctx.expected;
  if (!ctx.variants?.length || !expected) return yield* fitOneSteps(ctx, budget, cache);
  let best: Fitted | null = null;
  let bestScore = -Infinity;
  const memo: FitMemo = { calibration: new Map(), counts: new Map() };
  for (const v of [{}, ...ctx.variants]) {
    const tuning = v.viterbiShare === undefined ? ctx.tuning : { ...ctx.tuning, viterbiShare: v.viterbiShare };
    const fitted = yield* fitOneSteps({ ...ctx, ...v, tuning, memo }, budget, cache);
    if (!fitted) continue;
    const keep = fitted.selection.keep;
    let score = 0;
    for (let t = 0; t < keep.length; t++) if (keep[t]) score += expected[t];
    if (score > bestScore + 1e-9) {
      best = fitted;
      bestScore = score;
    }
  }
  return best;
}

/** Calibrate, pack, count exactly and tighten, for one way of decoding. */
function* fitOneSteps(ctx: SelectionContext, budget: number, cache: Map<number, number>): Steps<Fitted | null> {
  let target = budget;
  for (let attempt = 0; attempt < 6; attempt++) {
    const s = yield* calibrateSteps(ctx, target, cache);
    if (!s) return null;
    const rendered = renderKept(ctx.lines, s.keep, ctx.commentPrefix, ctx.cr, ctx.elision);
    yield;
    let tokens = ctx.memo?.counts.get(rendered.text);
    if (tokens === undefined) {
      tokens = yield* countSteps(ctx.counter, rendered.text);
      ctx.memo?.counts.set(rendered.text, tokens);
    }
    yield;
    if (tokens <= budget) return { selection: s, rendered, tokens };
    target -= Math.max(1, tokens - budget);
  }
  return null;
}
