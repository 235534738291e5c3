import { describe, expect, it } from 'vitest';
import { RANKER_FEATURES, proxyComponents, rankerFeatures, utilityCost, utilityScore } from '../../src/cards/utility.js';
import type { ContextUnit } from '../../src/cards/types.js';

describe('utility aggregation s = 0.34·shift + 0.26·necessity + 0.28·uplift − 0.22·risk − 0.08·cost', () => {
  it('matches hand-computed values', () => {
    // cost = min(1, 200/1000 + 0.2·0.5) = 0.3; s = 0.17 + 0.13 + 0.14 − 0.11 − 0.024
    const a = utilityScore({ action_shift: 0.5, necessity: 0.5, expected_outcome_uplift: 0.5, negative_transfer_risk: 0.5 }, 200);
    expect(a.cost).toBeCloseTo(0.3, 12);
    expect(a.score).toBeCloseTo(0.306, 12);
    // cost = 0.35 + 0.05 = 0.4; s = 0.272 + 0.156 + 0.112 − 0.055 − 0.032
    const b = utilityScore({ action_shift: 0.8, necessity: 0.6, expected_outcome_uplift: 0.4, negative_transfer_risk: 0.25 }, 350);
    expect(b.cost).toBeCloseTo(0.4, 12);
    expect(b.score).toBeCloseTo(0.453, 12);
    // best case: no cost
    expect(utilityScore({ action_shift: 1, necessity: 1, expected_outcome_uplift: 1, negative_transfer_risk: 0 }, 0).score).toBeCloseTo(0.88, 12);
    // cost saturates at 1: s = −0.22 − 0.08
    const c = utilityScore({ action_shift: 0, necessity: 0, expected_outcome_uplift: 0, negative_transfer_risk: 1 }, 5000);
    expect(c.cost).toBe(1);
    expect(c.score).toBeCloseTo(-0.3, 12);
  });

  it('cost = min(1, tokens/1000 + 0.2·risk)', () => {
    expect(utilityCost(0, 0)).toBe(0);
    expect(utilityCost(500, 0.5)).toBeCloseTo(0.6, 12);
    expect(utilityCost(900, 1)).toBe(1);
  });

  it('clamps components to 0..1 and treats NaN as 0', () => {
    const r = utilityScore({ action_shift: 2, necessity: Number.NaN, expected_outcome_uplift: -1, negative_transfer_risk: 0 }, 0);
    expect(r.action_shift).toBe(1);
    expect(r.necessity).toBe(0);
    expect(r.expected_outcome_uplift).toBe(0);
    expect(r.score).toBeCloseTo(0.34, 12);
  });
});

describe('features', () => {
  const unit: ContextUnit = {
    id: 'rule:0',
    type: 'rule',
    source: 'rules',
    content: 'Never call requests.get without a timeout',
    tokens: 250,
    confidence: 0.9,
    stale: true,
  };
  it('has the 25 published features in order, with the right one-hot', () => {
    expect(RANKER_FEATURES.length).toBe(25);
    const f = rankerFeatures({ query: 'add a timeout to requests.get' }, unit, { retrievalScore: 0.7, conflictDegree: 1, maxConflictDegree: 2 });
    expect(f.length).toBe(25);
    const at = (n: string) => f[RANKER_FEATURES.indexOf(n as (typeof RANKER_FEATURES)[number])];
    expect(at('bias')).toBe(1);
    expect(at('retrieval_score')).toBe(0.7);
    expect(at('token_cost_norm')).toBe(0.25);
    expect(at('stale')).toBe(1);
    expect(at('conflict_risk')).toBe(0.5);
    expect(at('conflict_degree_norm')).toBeCloseTo(0.2, 12);
    expect(at('type_rule')).toBe(1);
    expect(at('type_file')).toBe(0);
    expect(at('is_memory')).toBe(0);
    expect([...f].every(Number.isFinite)).toBe(true);
  });
  it('proxy: a stale unit carries more risk than a fresh one', () => {
    const sig = { retrievalScore: 0.5, conflictDegree: 0, maxConflictDegree: 0 };
    const stale = proxyComponents({ query: 'timeout' }, unit, sig);
    const fresh = proxyComponents({ query: 'timeout' }, { ...unit, stale: false }, sig);
    expect(stale.negative_transfer_risk - fresh.negative_transfer_risk).toBeCloseTo(0.45, 12);
  });
});
