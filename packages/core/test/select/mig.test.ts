import { describe, expect, it } from 'vitest';
import { allocateBudget, greedyMig, migScore, packByRelevance, packMig, redundancy, scoreGroups, setSimilarity } from '../../src/select/mig.js';
import { shingleSets, termVectors } from '../../src/select/similarity.js';
import type { SelectUnit, Similarity } from '../../src/select/types.js';

/** Toy similarity from a table; 0 for pairs not listed, 1 on the diagonal. */
function table(pairs: Record<string, number>): Similarity {
  return (a, b) => (a.id === b.id ? 1 : (pairs[`${a.id}|${b.id}`] ?? pairs[`${b.id}|${a.id}`] ?? 0));
}

const u = (id: string, relevance: number, tokens = 10, group = 'g'): SelectUnit => ({ id, tokens, relevance, group });

describe('MIG on a toy example', () => {
  const a = u('a', 0.9),
    b = u('b', 0.8),
    c = u('c', 0.5);
  const sim = table({ 'a|b': 0.9, 'a|c': 0.1, 'b|c': 0.2 });

  it('MIG = relevance − redundancy, redundancy = max similarity to the selected set', () => {
    expect(redundancy(b, [], sim)).toBe(0);
    expect(redundancy(b, [a, c], sim)).toBe(0.9);
    const s = migScore(b, [a], sim);
    expect(s.relevance).toBe(0.8);
    expect(s.redundancy).toBe(0.9);
    expect(s.mig).toBeCloseTo(-0.1, 12);
    expect(migScore(b, [a], sim, 0.5).mig).toBeCloseTo(0.35, 12);
  });

  it('greedy picks the near-duplicate last: a (0.9), then c (0.5 − 0.1 = 0.4) before b (0.8 − 0.9 = −0.1)', () => {
    const r = greedyMig([a, b, c], 20, sim);
    expect(r.selected.map((x) => x.id)).toEqual(['a', 'c']);
    expect(r.used).toBe(20);
    expect(r.scores.get('a')).toEqual({ id: 'a', relevance: 0.9, redundancy: 0, mig: 0.9 });
    expect(r.scores.get('c')!.mig).toBeCloseTo(0.4, 12);
    // b is scored against the final set {a, c}: max(0.9, 0.2)
    expect(r.scores.get('b')!.redundancy).toBe(0.9);
    expect(r.scores.get('b')!.mig).toBeCloseTo(-0.1, 12);
  });

  it('plain relevance packing keeps the duplicate instead', () => {
    expect(packByRelevance([a, b, c], 20).selected).toEqual(['a', 'b']);
  });

  it('minGain stops at non-positive gain; context counts for redundancy but costs nothing', () => {
    expect(greedyMig([a, b, c], 30, sim, { minGain: 0 }).selected.map((x) => x.id)).toEqual(['a', 'c']);
    const r = greedyMig([b, c], 30, sim, { context: [a] });
    expect(r.selected.map((x) => x.id)).toEqual(['c', 'b']);
    expect(r.used).toBe(20);
  });

  it('skips what does not fit and keeps going', () => {
    const big = u('big', 1, 25);
    expect(greedyMig([big, a, c], 20, sim).selected.map((x) => x.id)).toEqual(['a', 'c']);
  });
});

describe('coarse stage: group scores and allocation', () => {
  it('allocation sums to the budget, equal MIG splits evenly', () => {
    const m = allocateBudget(
      [
        { group: 'x', tokens: 100, mig: 0.5 },
        { group: 'y', tokens: 100, mig: 0.5 },
      ],
      60,
    );
    expect(m.get('x')).toBe(30);
    expect(m.get('y')).toBe(30);
  });

  it('softmax over MIG / temperature, integer shares by largest remainder', () => {
    // weights exp(0) = 1 and exp(−0.1·ln 3 / 0.1) = 1/3 → 75 % / 25 %
    const m = allocateBudget(
      [
        { group: 'x', tokens: 1000, mig: Math.log(3) * 0.1 },
        { group: 'y', tokens: 1000, mig: 0 },
      ],
      101,
      0.1,
    );
    expect(m.get('x')! + m.get('y')!).toBe(101);
    expect(m.get('x')).toBe(76); // 75.75 → 76
    expect(m.get('y')).toBe(25); // 25.25 → 25
  });

  it('water-fills: a capped group gives its excess to the others; never more than the groups hold', () => {
    const m = allocateBudget(
      [
        { group: 'small', tokens: 10, mig: 1 },
        { group: 'big', tokens: 100, mig: 1 },
        { group: 'low', tokens: 100, mig: 0 },
      ],
      60,
      1,
    );
    const w = Math.exp(-1); // low's weight relative to big's
    expect(m.get('small')).toBe(10);
    expect(m.get('big')! + m.get('low')!).toBe(50);
    expect(m.get('big')).toBe(Math.round((50 * 1) / (1 + w)));
    const all = allocateBudget(
      [
        { group: 'a', tokens: 7, mig: 0 },
        { group: 'b', tokens: 5, mig: 0 },
      ],
      100,
    );
    expect([all.get('a'), all.get('b')]).toEqual([7, 5]);
  });

  it('group MIG: relevance of the group minus its similarity to groups ranked before it', () => {
    const units = [u('a1', 0.9, 10, 'A'), u('a2', 0.1, 10, 'A'), u('b1', 0.6, 10, 'B'), u('c1', 0.35, 10, 'C')];
    const sim = table({ 'b1|a1': 0.5, 'c1|a2': 0.2 });
    const g = scoreGroups(units, sim, { groupRelevance: 'max' });
    const byId = Object.fromEntries(g.map((x) => [x.group, x]));
    expect(byId.A).toMatchObject({ relevance: 0.9, redundancy: 0, mig: 0.9, tokens: 20 });
    expect(byId.B).toMatchObject({ relevance: 0.6, redundancy: 0.5 });
    expect(byId.B.mig).toBeCloseTo(0.1, 12);
    expect(byId.C.redundancy).toBeCloseTo(0.2, 12);
    expect(byId.C.mig).toBeCloseTo(0.15, 12);
    expect(g.map((x) => x.group)).toEqual(['A', 'C', 'B']);
    expect(setSimilarity([units[2]], [units[0], units[1]], sim)).toBe(0.5);
    expect(scoreGroups(units, sim, { groupRelevance: 'mean' })[0].relevance).toBeCloseTo(0.6, 12);
  });

  it('packMig: allocations sum to the budget, selection never exceeds it, leftover goes to the fill', () => {
    const units = [u('a1', 1, 10, 'A'), u('a2', 0.9, 10, 'A'), u('a3', 0.8, 10, 'A'), u('b1', 0.2, 10, 'B'), u('b2', 0.1, 10, 'B')];
    const sim = table({});
    const r = packMig(units, 35, sim, { temperature: 0.1, roundUp: 0 });
    expect(r.groups.reduce((s, g) => s + g.allocation, 0)).toBe(35);
    expect(r.used).toBeLessThanOrEqual(35);
    expect(r.selected).toEqual(['a1', 'a2', 'a3']);
    expect(r.groups.find((g) => g.group === 'A')).toMatchObject({ allocation: 30, used: 30 });
    expect(r.groups.find((g) => g.group === 'B')).toMatchObject({ allocation: 5, used: 0 });
    // A gets 28 (two 10-token units fit, 8 left), B gets 12 (b1 fits, 2 left): the fill takes a3.
    const v = [u('a1', 1, 10, 'A'), u('a2', 0.9, 10, 'A'), u('a3', 0.8, 10, 'A'), u('b1', 1 - Math.log(7 / 3), 10, 'B'), u('b2', 0, 10, 'B')];
    const r2 = packMig(v, 40, sim, { temperature: 1, groupRelevance: 'max', roundUp: 0 });
    expect(r2.groups.map((g) => [g.group, g.allocation])).toEqual([
      ['A', 28],
      ['B', 12],
    ]);
    expect(r2.selected).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(r2.fill).toBe(10);
    expect(r2.used).toBe(40);
    // Default roundUp 0.5: A rounds 28 up to three whole units (30 ≤ 28 + 5), B gets what is left.
    const r3 = packMig(v, 40, sim, { temperature: 1, groupRelevance: 'max' });
    expect(r3.selected).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(r3.fill).toBe(0);
    expect(r3.groups.map((g) => [g.group, g.allocation, g.used])).toEqual([
      ['A', 28, 30],
      ['B', 12, 10],
    ]);
  });
});

describe('termVectors', () => {
  it('cosine is 1 for the same terms, 0 for disjoint ones, symmetric in between', () => {
    const tv = termVectors(['parse header value', 'parseHeaderValue header', 'render template', 'parse header value']);
    expect(tv.cosine(0, 3)).toBeCloseTo(1, 12);
    expect(tv.cosine(0, 2)).toBe(0);
    expect(tv.cosine(0, 1)).toBeGreaterThan(0);
    expect(tv.cosine(0, 1)).toBeLessThan(1);
    expect(tv.cosine(1, 0)).toBe(tv.cosine(0, 1));
    expect(termVectors(['', 'x y']).cosine(0, 0)).toBe(0);
  });
});

describe('shingleSets', () => {
  it('containment: share of the first text word 4-grams found in the second (asymmetric)', () => {
    const s = shingleSets(['a b c d e', 'x a b c d e y z w', 'a b c x', 'p q']);
    expect(s.containment(0, 1)).toBe(1); // both 4-grams of text 0 are in text 1
    expect(s.containment(1, 0)).toBeCloseTo(2 / 6, 12);
    expect(s.containment(0, 2)).toBe(0);
    expect(s.containment(3, 3)).toBe(1); // shorter than n: the whole text is one shingle
    expect(shingleSets(['', 'a']).containment(0, 1)).toBe(0);
  });

  it('packMig never starves the best unit: a left-out unit replaces lower-MIG ones when that makes it fit', () => {
    const u = (id: string, group: string, tokens: number, relevance: number, after?: string): SelectUnit => ({
      id,
      group,
      tokens,
      relevance,
      ...(after ? { after } : {}),
    });
    const units = [u('best', 'A', 90, 0.6), u('b1', 'B', 30, 0.5), u('c1', 'C', 30, 0.5)];
    const none = () => 0;
    // Three groups of about the same MIG share the budget in thirds: 'best' (90) cannot fit its third.
    const starved = packMig(units, 100, none, { temperature: 1, noStarvation: false });
    expect(starved.selected.sort()).toEqual(['b1', 'c1']);
    const r = packMig(units, 100, none, { temperature: 1 });
    expect(r.selected).toEqual(['best']);
    expect(r.used).toBe(90);
    expect(r.groups.find((g) => g.group === 'A')!.used).toBe(90);
  });

  it('chained units (after): a longer cut only with the shorter one, in packMig and packByRelevance', () => {
    const u = (id: string, tokens: number, relevance: number, after?: string): SelectUnit => ({
      id,
      group: 'g',
      tokens,
      relevance,
      ...(after ? { after } : {}),
    });
    const units = [u('m#0', 10, 0.2), u('m#1', 10, 0.9, 'm#0'), u('n#0', 10, 0.5)];
    expect(packByRelevance(units, 20).selected).toEqual(['n#0', 'm#0']);
    expect(packByRelevance(units, 30).selected).toEqual(['n#0', 'm#0', 'm#1']);
    expect(packByRelevance(units, 20, [u('m#0', 0, 0)]).selected).toEqual(['m#1', 'n#0']);
    // greedy takes n#0 then m#0; the swap pass then gives n#0's place to m#1 (0.9), now available
    const r = packMig(units, 20, () => 0, {});
    expect(r.selected).toEqual(['m#0', 'm#1']);
    expect(packMig(units, 20, () => 0, { noStarvation: false }).selected).toEqual(['n#0', 'm#0']);
  });
});
