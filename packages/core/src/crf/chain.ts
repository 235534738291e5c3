/**
 * Linear-chain CRF over lines with two states (0 = prune, 1 = keep), in log space.
 * Emissions are laid out line-major: emissions[2*t + s] is the score of state s at line t.
 * Everything here is O(n) in the number of lines, allocation-light and free of I/O.
 */

export interface CrfParams {
  /** transitions[2*from + to]: score of moving from state `from` at line t-1 to `to` at line t. */
  transitions: Float64Array | number[];
  /** start[s], end[s]: scores of beginning / ending the sequence in state s. */
  start: Float64Array | number[];
  end: Float64Array | number[];
}

export function crfParams(transitions: [number, number, number, number], start: [number, number] = [0, 0], end: [number, number] = [0, 0]): CrfParams {
  return { transitions: Float64Array.from(transitions), start: Float64Array.from(start), end: Float64Array.from(end) };
}

/** Each line's keep probability from its own two emissions alone, σ(keep − prune) (no transitions). */
export function keepProbabilities(emissions: ArrayLike<number>): Float64Array {
  const n = emissions.length >> 1;
  const p = new Float64Array(n);
  for (let t = 0; t < n; t++) p[t] = 1 / (1 + Math.exp(emissions[2 * t] - emissions[2 * t + 1]));
  return p;
}

function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + softplus(b - a) : b + softplus(a - b);
}

/**
 * log(1 + e^d), remembered by d's exact value in a small direct-mapped table: the same d gives
 * the same bits, computed or looked up. Forward–backward over a run of identical lines (a
 * million blank lines) sees ~100 distinct d among 5 million, so the two transcendental calls
 * that dominate it are mostly skipped; elsewhere a miss costs a hash and a compare.
 */
function softplus(d: number): number {
  const h = slot(d);
  if (SP_KEYS[h] === d) return SP_VALUES[h];
  const v = Math.log1p(Math.exp(d));
  SP_KEYS[h] = d;
  SP_VALUES[h] = v;
  return v;
}

/** A table slot from the bits of x. */
function slot(x: number): number {
  BITS_VIEW[0] = x;
  return Math.imul(BITS_WORDS[0] ^ BITS_WORDS[1], 0x9e3779b1) >>> (32 - MEMO_BITS);
}
const MEMO_BITS = 10;
/** Keys start as NaN, which equals nothing (a NaN d is computed every time, as before). */
const SP_KEYS = new Float64Array(1 << MEMO_BITS).fill(Number.NaN);
const SP_VALUES = new Float64Array(1 << MEMO_BITS);
const BITS_VIEW = new Float64Array(1);
const BITS_WORDS = new Uint32Array(BITS_VIEW.buffer);

/**
 * Most likely state sequence. `keepBias` is added to every keep emission (budget calibration
 * shifts it without rebuilding emissions). Returns 0/1 per line and the path score.
 */
export function viterbi(emissions: ArrayLike<number>, params: CrfParams, keepBias = 0, out?: Uint8Array): { path: Uint8Array; score: number } {
  const n = emissions.length >> 1;
  const path = out ?? new Uint8Array(n);
  if (n === 0) return { path, score: 0 };
  const T = params.transitions;
  const t00 = T[0],
    t01 = T[1],
    t10 = T[2],
    t11 = T[3];
  // back[t] bit s = best previous state for state s at line t
  const back = new Uint8Array(n);
  let a0 = params.start[0] + emissions[0];
  let a1 = params.start[1] + emissions[1] + keepBias;
  for (let t = 1; t < n; t++) {
    const e0 = emissions[2 * t],
      e1 = emissions[2 * t + 1] + keepBias;
    const from0to0 = a0 + t00,
      from1to0 = a1 + t10;
    const from0to1 = a0 + t01,
      from1to1 = a1 + t11;
    let b = 0;
    let n0: number, n1: number;
    if (from1to0 > from0to0) {
      n0 = from1to0;
      b |= 1;
    } else n0 = from0to0;
    if (from1to1 > from0to1) {
      n1 = from1to1;
      b |= 2;
    } else n1 = from0to1;
    back[t] = b;
    a0 = n0 + e0;
    a1 = n1 + e1;
  }
  a0 += params.end[0];
  a1 += params.end[1];
  let s = a1 > a0 ? 1 : 0;
  const score = s ? a1 : a0;
  for (let t = n - 1; t >= 0; t--) {
    path[t] = s;
    if (t > 0) s = (back[t] >> s) & 1;
  }
  return { path, score };
}

/**
 * Forward-backward: per-line marginal P(keep) and the log partition function.
 * Stable for any magnitude of emissions (log-sum-exp at every step). `scratch` (at least
 * 2 × lines long) holds the forward scores instead of a new array: callers that run several
 * passes over one file share it.
 */
export function marginals(emissions: ArrayLike<number>, params: CrfParams, keepBias = 0, scratch?: Float64Array): { keep: Float64Array; logZ: number } {
  const n = emissions.length >> 1;
  const keep = new Float64Array(n);
  if (n === 0) return { keep, logZ: 0 };
  const T = params.transitions;
  const alpha = scratch && scratch.length >= 2 * n ? scratch : new Float64Array(2 * n);
  alpha[0] = params.start[0] + emissions[0];
  alpha[1] = params.start[1] + emissions[1] + keepBias;
  for (let t = 1; t < n; t++) {
    const p0 = alpha[2 * t - 2],
      p1 = alpha[2 * t - 1];
    alpha[2 * t] = logAdd(p0 + T[0], p1 + T[2]) + emissions[2 * t];
    alpha[2 * t + 1] = logAdd(p0 + T[1], p1 + T[3]) + emissions[2 * t + 1] + keepBias;
  }
  const logZ = logAdd(alpha[2 * n - 2] + params.end[0], alpha[2 * n - 1] + params.end[1]);
  // beta carried as two scalars, marginals written on the way back
  let b0 = params.end[0],
    b1 = params.end[1];
  for (let t = n - 1; t >= 0; t--) {
    const m0 = alpha[2 * t] + b0,
      m1 = alpha[2 * t + 1] + b1;
    keep[t] = Math.exp(m1 - logAdd(m0, m1));
    if (t > 0) {
      const e0 = emissions[2 * t] + b0,
        e1 = emissions[2 * t + 1] + keepBias + b1;
      b0 = logAdd(T[0] + e0, T[1] + e1);
      b1 = logAdd(T[2] + e0, T[3] + e1);
    }
  }
  return { keep, logZ };
}

/** Unnormalised log score of one labelling (used by training parity tests and brute force). */
export function sequenceScore(emissions: ArrayLike<number>, params: CrfParams, path: ArrayLike<number>, keepBias = 0): number {
  const n = path.length;
  if (n === 0) return 0;
  let s = params.start[path[0]] + params.end[path[n - 1]];
  for (let t = 0; t < n; t++) {
    s += emissions[2 * t + path[t]] + (path[t] ? keepBias : 0);
    if (t > 0) s += params.transitions[2 * path[t - 1] + path[t]];
  }
  return s;
}
