import { describe, expect, it } from 'vitest';
import { crfParams, marginals, sequenceScore, viterbi } from '../../src/crf/chain.js';
import { fuseEmissions, softmaxRows, type RubricEmissions } from '../../src/crf/rubrics.js';

/** Deterministic pseudo-random numbers so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

function allPaths(n: number): number[][] {
  const out: number[][] = [];
  for (let m = 0; m < 1 << n; m++) out.push(Array.from({ length: n }, (_, i) => (m >> i) & 1));
  return out;
}

function bruteForce(em: Float64Array, p: ReturnType<typeof crfParams>, bias = 0) {
  const n = em.length / 2;
  let best = -Infinity,
    bestPath: number[] = [];
  const scores = allPaths(n).map((path) => {
    const s = sequenceScore(em, p, path, bias);
    if (s > best) {
      best = s;
      bestPath = path;
    }
    return { path, s };
  });
  const m = Math.max(...scores.map((x) => x.s));
  const logZ = m + Math.log(scores.reduce((a, x) => a + Math.exp(x.s - m), 0));
  const keep = Array.from({ length: n }, (_, t) => scores.filter((x) => x.path[t] === 1).reduce((a, x) => a + Math.exp(x.s - logZ), 0));
  return { best, bestPath, logZ, keep };
}

describe('linear-chain CRF', () => {
  it('Viterbi finds the brute-force best path and score (random cases, n = 1..9)', () => {
    const r = rng(7);
    for (let trial = 0; trial < 60; trial++) {
      const n = 1 + (trial % 9);
      const em = Float64Array.from({ length: 2 * n }, () => 3 * r());
      const p = crfParams([r(), r(), r(), r()], [r(), r()], [r(), r()]);
      const bias = trial % 3 === 0 ? r() : 0;
      const bf = bruteForce(em, p, bias);
      const v = viterbi(em, p, bias);
      expect(v.score).toBeCloseTo(bf.best, 10);
      expect(Array.from(v.path)).toEqual(bf.bestPath);
    }
  });

  it('forward-backward marginals and log Z match enumeration', () => {
    const r = rng(11);
    for (let trial = 0; trial < 40; trial++) {
      const n = 1 + (trial % 8);
      const em = Float64Array.from({ length: 2 * n }, () => 4 * r());
      const p = crfParams([r(), r(), r(), r()], [r(), r()], [r(), r()]);
      const bias = r();
      const bf = bruteForce(em, p, bias);
      const fb = marginals(em, p, bias);
      expect(fb.logZ).toBeCloseTo(bf.logZ, 10);
      fb.keep.forEach((k, t) => expect(k).toBeCloseTo(bf.keep[t], 10));
    }
  });

  it('stays finite with huge emissions (log-space)', () => {
    const n = 5000;
    const em = new Float64Array(2 * n);
    for (let t = 0; t < n; t++) {
      em[2 * t] = (t % 2) * 1e4;
      em[2 * t + 1] = ((t + 1) % 2) * 1e4;
    }
    const p = crfParams([5, -5, -5, 5]);
    const fb = marginals(em, p);
    expect(Number.isFinite(fb.logZ)).toBe(true);
    for (const k of fb.keep) expect(k >= 0 && k <= 1).toBe(true);
    // even lines: keep scores 1e4 higher; odd lines: prune scores 1e4 higher
    expect(fb.keep[0]).toBeCloseTo(1, 6);
    expect(fb.keep[1]).toBeCloseTo(0, 6);
    const v = viterbi(em, p);
    expect(Array.from(v.path.slice(0, 4))).toEqual([1, 0, 1, 0]);
  });

  it('marginals are bit for bit those of the plain log-sum-exp, on runs of identical lines and random emissions, with and without a shared scratch', () => {
    // The reference: the forward-backward of chain.ts with Math.log1p(Math.exp(·)) at every step
    // (chain.ts remembers that function by its argument's bits; the bits must not change).
    const lae = (a: number, b: number) =>
      a === -Infinity ? b : b === -Infinity ? a : a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
    const plain = (em: Float64Array, p: ReturnType<typeof crfParams>, bias: number) => {
      const n = em.length >> 1;
      const T = p.transitions;
      const alpha = new Float64Array(2 * n);
      const keep = new Float64Array(n);
      alpha[0] = p.start[0] + em[0];
      alpha[1] = p.start[1] + em[1] + bias;
      for (let t = 1; t < n; t++) {
        alpha[2 * t] = lae(alpha[2 * t - 2] + T[0], alpha[2 * t - 1] + T[2]) + em[2 * t];
        alpha[2 * t + 1] = lae(alpha[2 * t - 2] + T[1], alpha[2 * t - 1] + T[3]) + em[2 * t + 1] + bias;
      }
      const logZ = lae(alpha[2 * n - 2] + p.end[0], alpha[2 * n - 1] + p.end[1]);
      let b0 = p.end[0],
        b1 = p.end[1];
      for (let t = n - 1; t >= 0; t--) {
        const m0 = alpha[2 * t] + b0,
          m1 = alpha[2 * t + 1] + b1;
        keep[t] = Math.exp(m1 - lae(m0, m1));
        if (t > 0) {
          const e0 = em[2 * t] + b0,
            e1 = em[2 * t + 1] + bias + b1;
          b0 = lae(T[0] + e0, T[1] + e1);
          b1 = lae(T[2] + e0, T[3] + e1);
        }
      }
      return { keep, logZ };
    };
    /** The first line whose marginal differs in any bit, or -1. */
    const firstDiff = (a: Float64Array, b: Float64Array) => {
      const x = new BigUint64Array(a.buffer),
        y = new BigUint64Array(b.buffer);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
      return x.length === y.length ? -1 : x.length;
    };
    const r = rng(16);
    const runs = Float64Array.from({ length: 2 * 100_000 }, (_, i) => (i % 2 ? -1 : 0));
    const mixed = Float64Array.from({ length: 2 * 50_000 }, (_, i) => (Math.floor(i / 2) % 97 < 60 ? (i % 2 ? -1 : 0) : 4 * r()));
    const random = Float64Array.from({ length: 2 * 20_000 }, () => 6 * r());
    const scratch = new Float64Array(2 * 100_000);
    for (const em of [runs, mixed, random]) {
      for (const p of [crfParams([0.45, -0.45, -0.45, 0.45]), crfParams([0.7, -0.7, -0.7, 0.7], [0.2, -0.1], [0, 0.3])]) {
        for (const bias of [0, -3.25, 1.7]) {
          const want = plain(em, p, bias);
          for (const got of [marginals(em, p, bias), marginals(em, p, bias, scratch)]) {
            expect(got.logZ).toBe(want.logZ);
            expect(firstDiff(got.keep, want.keep)).toBe(-1);
          }
        }
      }
    }
  }, 60_000);

  it('handles empty input', () => {
    const p = crfParams([0, 0, 0, 0]);
    expect(viterbi(new Float64Array(0), p).path.length).toBe(0);
    expect(marginals(new Float64Array(0), p).logZ).toBe(0);
  });

  it('sticky transitions keep a contiguous block that per-line argmax would split', () => {
    // keep scores: strong, weak-negative, strong → a sticky chain keeps the middle line too
    const em = Float64Array.from([0, 3, 0, -0.5, 0, 3]);
    expect(Array.from(viterbi(em, crfParams([1, -1, -1, 1])).path)).toEqual([1, 1, 1]);
    expect(Array.from(viterbi(em, crfParams([0, 0, 0, 0])).path)).toEqual([1, 0, 1]);
  });
});

describe('multi-rubric fusion', () => {
  it('fuses emissions as the gate-weighted sum of the rubric heads', () => {
    const r: RubricEmissions = {
      n: 2,
      heads: [Float64Array.from([0, 2, 0, -1]), Float64Array.from([1, 0, 0, 4])],
      gate: Float64Array.from([0.25, 0.75, 1, 0]),
      headCrfs: [crfParams([0, 0, 0, 0]), crfParams([0, 0, 0, 0])],
      fusedCrf: crfParams([0, 0, 0, 0]),
    };
    expect(Array.from(fuseEmissions(r))).toEqual([0.75, 0.5, 0, -1]);
  });

  it('softmax gate rows sum to one', () => {
    const g = softmaxRows(Float64Array.from([0, 0, 1000, -1000, 2, 1]), 2);
    expect(Array.from(g.slice(0, 2))).toEqual([0.5, 0.5]);
    expect(g[2]).toBe(1);
    expect(g[3]).toBe(0);
    expect(g[4] + g[5]).toBeCloseTo(1, 12);
    expect(g[4]).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
  });
});
