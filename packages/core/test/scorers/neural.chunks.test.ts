import { describe, expect, it } from 'vitest';
import { planChunks } from '../../src/scorers/neural.js';

describe('neural scorer chunking', () => {
  it('one chunk when the input fits', () => {
    expect(planChunks(100, 4096, 128)).toEqual([{ start: 0, end: 100, keepFrom: 0, keepTo: 100 }]);
  });
  it('overlapping chunks own every line exactly once, away from chunk edges', () => {
    for (const [n, w, ov] of [
      [10_000, 4096, 128],
      [4097, 4096, 128],
      [50_000, 2048, 256],
      [300, 100, 40],
    ]) {
      const cs = planChunks(n, w, ov);
      let next = 0;
      for (const c of cs) {
        expect(c.end - c.start).toBe(w);
        expect(c.keepFrom).toBe(next);
        expect(c.keepFrom).toBeGreaterThanOrEqual(c.start);
        expect(c.keepTo).toBeLessThanOrEqual(c.end);
        if (c.start > 0) expect(c.keepFrom - c.start).toBeGreaterThanOrEqual(Math.floor(ov / 2));
        if (c.end < n) expect(c.end - c.keepTo).toBeGreaterThanOrEqual(Math.floor(ov / 2) - 1);
        next = c.keepTo;
      }
      expect(next).toBe(n);
    }
  });
});
