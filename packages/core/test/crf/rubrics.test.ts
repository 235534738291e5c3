import { describe, expect, it } from 'vitest';
import { leadingRubric } from '../../src/crf/rubrics.js';

describe('leadingRubric', () => {
  it('compares the heads relative to their most confident line, gate-weighted', () => {
    // Semantic P(keep) ≈ 0.018, 0.119 (relative 0.15, 1); dependency 0.88 for both (relative 1, 1).
    const led = leadingRubric({
      n: 2,
      heads: [Float64Array.from([0, -4, 0, -2]), Float64Array.from([0, 2, 0, 2])],
      gate: Float64Array.from([0.5, 0.5, 0.5, 0.5]),
      headCrfs: [],
      fusedCrf: { transitions: [0, 0, 0, 0], start: [0, 0], end: [0, 0] },
    });
    expect(Array.from(led)).toEqual([0, 1]);
  });
});
