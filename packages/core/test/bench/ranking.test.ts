import { describe, expect, it } from 'vitest';
import { rankingRecall } from '../../src/bench/ranking.js';
import type { RubricEmissions } from '../../src/crf/rubrics.js';

/** One head whose keep−prune margin per line is `margins`; the gate all on it. */
function emissions(margins: number[]): RubricEmissions {
  const n = margins.length;
  const head = new Float64Array(2 * n);
  margins.forEach((m, t) => {
    head[2 * t + 1] = m;
  });
  const crf = { start: [0, 0], end: [0, 0], transitions: [0, 0, 0, 0] };
  return { n, heads: [head], gate: new Float64Array(n).fill(1), headCrfs: [crf], fusedCrf: crf };
}

describe('rankingRecall', () => {
  const costs = Float64Array.from([5, 5, 5, 5]);
  it('takes lines by margin while their tokens fit', () => {
    const r = emissions([0.1, 2, -1, 1]);
    expect(rankingRecall(r, costs, 10, [2, 4])).toBe(1);
    expect(rankingRecall(r, costs, 9, [2, 4])).toBe(0.5);
    expect(rankingRecall(r, costs, 4, [2, 4])).toBe(0);
  });
  it('stops at the first line that does not fit (a prefix of the ranking)', () => {
    const r = emissions([3, 2, 1, 0]);
    expect(rankingRecall(r, Float64Array.from([5, 50, 1, 1]), 10, [3])).toBe(0);
  });
  it('ties go to the earlier line; no gold lines is full recall', () => {
    const r = emissions([1, 1, 1, 1]);
    expect(rankingRecall(r, costs, 5, [1])).toBe(1);
    expect(rankingRecall(r, costs, 5, [2])).toBe(0);
    expect(rankingRecall(r, costs, 0, [])).toBe(1);
  });
});
