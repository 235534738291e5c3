/**
 * LaMR's multi-rubric layer: K rubric heads, each a CRF with its own transitions, fused by a
 * per-line mixture-of-experts gate g ∈ Δ^{K-1}: e_fused[t] = Σ_k g[t,k] · E_k[t].
 */
import { type CrfParams, keepProbabilities, marginals } from './chain.js';

export const RUBRICS = ['semantic', 'dependency'] as const;
export type RubricName = (typeof RUBRICS)[number];

export interface RubricEmissions {
  /** Number of lines. */
  n: number;
  /** One emission array per rubric (line-major, [prune, keep] per line), in RUBRICS order. */
  heads: Float64Array[];
  /** Gate weights, line-major: gate[K*t + k], each row sums to 1. */
  gate: Float64Array;
  /** CRF parameters of each rubric head (same order) and of the fused decoder. */
  headCrfs: CrfParams[];
  fusedCrf: CrfParams;
}

/**
 * The standard deviation of a head's keep margin (keep − prune emission) over the lines: the unit
 * in which the pipeline's adjustments (report clues, docstrings) are given, so that they mean the
 * same whatever the scorer's scale.
 */
export function marginSpread(E: Float64Array, n: number): number {
  let sum = 0,
    sq = 0;
  for (let t = 0; t < n; t++) {
    const m = E[2 * t + 1] - E[2 * t];
    sum += m;
    sq += m * m;
  }
  const mean = sum / Math.max(1, n);
  return Math.sqrt(Math.max(1e-12, sq / Math.max(1, n) - mean * mean));
}

/** e_fused[t] = Σ_k g[t,k] E_k[t], for both states. */
export function fuseEmissions(r: RubricEmissions, out?: Float64Array): Float64Array {
  const K = r.heads.length;
  const fused = out ?? new Float64Array(2 * r.n);
  fused.fill(0);
  for (let k = 0; k < K; k++) {
    const E = r.heads[k];
    for (let t = 0; t < r.n; t++) {
      const g = r.gate[K * t + k];
      fused[2 * t] += g * E[2 * t];
      fused[2 * t + 1] += g * E[2 * t + 1];
    }
  }
  return fused;
}

/**
 * Per line, 1 when the semantic rubric leads the keep decision: its gate-weighted keep
 * probability, relative to the most confident line of its head, is at least the dependency
 * rubrics' (relative, so a head calibrated to sparse labels, which rarely says P > 0.5, is
 * compared on the same footing as one that says keep for every header).
 */
export function leadingRubric(r: RubricEmissions): Uint8Array {
  const { n, heads, gate } = r;
  const K = heads.length;
  const prob = heads.map((E) => {
    const p = keepProbabilities(E);
    let max = 0;
    for (let t = 0; t < n; t++) if (p[t] > max) max = p[t];
    if (max > 0) for (let t = 0; t < n; t++) p[t] /= max;
    return p;
  });
  const led = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    let dep = 0;
    for (let k = 1; k < K; k++) dep += gate[K * t + k] * prob[k][t];
    led[t] = gate[K * t] * prob[0][t] >= dep ? 1 : 0;
  }
  return led;
}

/** Gate row normalisation from raw logits (softmax per line). */
export function softmaxRows(logits: Float64Array, K: number): Float64Array {
  const n = logits.length / K;
  const g = new Float64Array(logits.length);
  for (let t = 0; t < n; t++) {
    let m = -Infinity;
    for (let k = 0; k < K; k++) m = Math.max(m, logits[K * t + k]);
    let z = 0;
    for (let k = 0; k < K; k++) {
      const v = Math.exp(logits[K * t + k] - m);
      g[K * t + k] = v;
      z += v;
    }
    for (let k = 0; k < K; k++) g[K * t + k] /= z;
  }
  return g;
}

export interface RubricMarginals {
  /** P(keep) per line under each head's own CRF. */
  heads: Float64Array[];
  /** P(keep) per line under the fused CRF. */
  fused: Float64Array;
}

/** Each CRF's marginals: one forward–backward pass over every line each (sharing one scratch array). */
export function rubricMarginals(r: RubricEmissions, fused: Float64Array, keepBias = 0): RubricMarginals {
  const scratch = new Float64Array(2 * r.n);
  return {
    heads: r.heads.map((E, k) => marginals(E, r.headCrfs[k], 0, scratch).keep),
    fused: marginals(fused, r.fusedCrf, keepBias, scratch).keep,
  };
}
