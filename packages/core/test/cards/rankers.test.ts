import { describe, expect, it } from 'vitest';
import { LinearRanker, MlpRanker, loadRanker, pairsFromExamples, pairwiseAccuracy, rng, type RankExample } from '../../src/cards/rankers.js';
import { RANKER_FEATURES } from '../../src/cards/utility.js';

const idx = (n: string) => RANKER_FEATURES.indexOf(n as (typeof RANKER_FEATURES)[number]);

/** Toy preference: utility = retrieval_score − stale + 0.5·type_rule; other features are noise. */
function toy(groups: number, perGroup: number, seed: number): RankExample[] {
  const rand = rng(seed);
  const out: RankExample[] = [];
  for (let g = 0; g < groups; g++) {
    for (let k = 0; k < perGroup; k++) {
      const f = new Float64Array(25);
      for (let i = 1; i < 25; i++) f[i] = rand();
      f[0] = 1;
      f[idx('stale')] = rand() < 0.3 ? 1 : 0;
      for (const t of ['type_file', 'type_symbol', 'type_class', 'type_rule', 'type_strategy', 'type_trajectory', 'type_failure', 'type_api']) f[idx(t)] = 0;
      f[idx('type_rule')] = rand() < 0.5 ? 1 : 0;
      out.push({ group: `t${g}`, features: f, label: f[idx('retrieval_score')] - f[idx('stale')] + 0.5 * f[idx('type_rule')] });
    }
  }
  return out;
}

describe('rankers learn a separable toy preference', () => {
  const train = pairsFromExamples(toy(30, 6, 1));
  const test = pairsFromExamples(toy(20, 6, 2));

  it('forms within-group pairs only, better first', () => {
    const pairs = pairsFromExamples([
      { group: 'a', features: new Float64Array(25).fill(1), label: 1 },
      { group: 'a', features: new Float64Array(25), label: 0 },
      { group: 'b', features: new Float64Array(25), label: 5 },
    ]);
    expect(pairs.length).toBe(1);
    expect(pairs[0].pos[3]).toBe(1);
    expect(train.length).toBe(30 * 15);
  });

  it('pairwise logistic linear ranker', () => {
    const r = LinearRanker.train(train);
    expect(pairwiseAccuracy(r, test)).toBeGreaterThanOrEqual(0.95);
    expect(r.weights[idx('retrieval_score')]).toBeGreaterThan(0);
    expect(r.weights[idx('stale')]).toBeLessThan(0);
    const back = loadRanker(JSON.parse(JSON.stringify(r)));
    expect(back.kind).toBe('linear');
    for (const p of test.slice(0, 20)) expect(back.score(p.pos)).toBe(r.score(p.pos));
  });

  it('two-layer MLP with BPR loss (AdamW, dropout)', () => {
    const r = MlpRanker.train(train, { lr: 0.01, epochs: 60, hidden: 16, batchSize: 64 });
    expect(pairwiseAccuracy(r, test)).toBeGreaterThanOrEqual(0.9);
    const back = loadRanker(JSON.stringify(r));
    expect(back.kind).toBe('mlp');
    for (const p of test.slice(0, 20)) expect(back.score(p.pos)).toBe(r.score(p.pos));
  });

  it('is deterministic for a seed', () => {
    const a = LinearRanker.train(train, { seed: 7, epochs: 5 });
    const b = LinearRanker.train(train, { seed: 7, epochs: 5 });
    expect([...a.weights]).toEqual([...b.weights]);
    const m1 = MlpRanker.train(train.slice(0, 50), { seed: 3, epochs: 2 });
    const m2 = MlpRanker.train(train.slice(0, 50), { seed: 3, epochs: 2 });
    expect(m1.toJSON()).toEqual(m2.toJSON());
  });

  it('rejects malformed ranker JSON', () => {
    const good = new LinearRanker().toJSON() as Record<string, unknown>;
    expect(() => loadRanker({ ...good, weights: [1, 2] })).toThrow(/25 finite numbers/);
    expect(() => loadRanker({ ...good, weights: new Array(25).fill(Number.NaN) })).toThrow(/finite/);
    expect(() => loadRanker({ ...good, features: [...RANKER_FEATURES].reverse() })).toThrow(/published features/);
    expect(() => loadRanker({ ...good, kind: 'forest' })).toThrow(/unknown kind/);
    expect(() => loadRanker({ kind: 'mlp', features: [...RANKER_FEATURES], hidden: 2, w1: [], b1: [0, 0], w2: [0, 0], b2: 0 })).toThrow(/w1/);
  });
});
