import { describe, expect, it } from 'vitest';
import { packByGain, type GainUnit } from '../../src/select/gain.js';
import type { Similarity } from '../../src/select/types.js';

function table(pairs: Record<string, number>): Similarity {
  return (a, b) => (a.id === b.id ? 1 : (pairs[`${a.id}|${b.id}`] ?? pairs[`${b.id}|${a.id}`] ?? 0));
}
const none: Similarity = (a, b) => (a.id === b.id ? 1 : 0);

const g = (id: string, gain: number, tokens: number, after?: string): GainUnit => ({
  id,
  gain,
  tokens,
  relevance: 0.5,
  group: 'g',
  ...(after ? { after } : {}),
});

describe('packByGain', () => {
  // Two reads, each offering a first cut (most of what it holds, cheap) and the rest (little, dear).
  // A: likelier (0.8). B: 0.2.
  const units = [g('A#0', 0.8 * 0.6, 100), g('A#1', 0.8 * 0.4, 300, 'A#0'), g('B#0', 0.2 * 0.6, 100), g('B#1', 0.2 * 0.4, 300, 'B#0')];

  it('gives the next read its first cut before deepening the likeliest one', () => {
    // Densities: A#0 0.0048, B#0 0.0012, A#1 0.00107, B#1 0.00027.
    const r = packByGain(units, 200, none);
    expect(r.selected).toEqual(['A#0', 'B#0']);
    expect(r.used).toBe(200);
    expect(r.scores.get('A#0')).toEqual({ id: 'A#0', relevance: 0.5, redundancy: 0, mig: 0.5, added: 0.48, density: 0.0048 });
    expect(r.scores.get('A#1')!.density).toBeCloseTo(0.32 / 300, 12);
  });

  it('deepens once the first cuts are in, and never crosses the budget', () => {
    expect(packByGain(units, 500, none).selected).toEqual(['A#0', 'B#0', 'A#1']);
    expect(packByGain(units, 499, none).selected).toEqual(['A#0', 'B#0']);
    expect(packByGain(units, 99, none).selected).toEqual([]);
  });

  it('a unit waits for the one it extends', () => {
    // A#1 alone would be the densest if its chain were ignored.
    const r = packByGain([g('A#0', 0.01, 400), g('A#1', 0.9, 10, 'A#0'), g('B#0', 0.1, 100)], 110, none);
    expect(r.selected).toEqual(['B#0']);
  });

  it('discounts a repeat by its redundancy (λ), against the selection and the context', () => {
    const sim = table({ 'B#0|A#0': 0.9, 'C#0|ctx': 1 });
    const us = [g('A#0', 0.5, 100), g('B#0', 0.5, 50), g('C#0', 0.4, 100)];
    const r = packByGain(us, 200, sim, { context: [{ id: 'ctx', tokens: 0, relevance: 0, group: 'protected' }] });
    // B#0 is densest first (0.01); then A#0 is 90% held by B#0: 0.5 × 0.1 / 100 = 0.0005; C#0 is fully held by ctx: 0.
    expect(r.selected).toEqual(['B#0', 'A#0']);
    expect(r.scores.get('A#0')!.added).toBeCloseTo(0.05, 12);
    expect(r.scores.get('C#0')).toMatchObject({ redundancy: 1, added: 0, density: 0 });
    // λ = 0: redundancy is reported but does not discount.
    expect(packByGain(us, 200, sim, { lambda: 0 }).selected).toEqual(['B#0', 'A#0']);
    expect(packByGain(us, 250, sim, { lambda: 0, context: [{ id: 'ctx', tokens: 0, relevance: 0, group: 'p' }] }).selected).toEqual(['B#0', 'A#0', 'C#0']);
  });

  it('fills the budget with units that add nothing rather than leave it empty, and handles no units', () => {
    expect(packByGain([g('x', 0, 10)], 10, none).selected).toEqual(['x']);
    expect(packByGain([], 10, none)).toEqual({ selected: [], scores: new Map(), used: 0 });
  });
});
