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
