import { describe, expect, it } from 'vitest';
import { crfParams } from '../../src/crf/chain.js';
import { evidenceValue, fitBudget, packByValue, type Selection, type SelectionContext } from '../../src/prune/budget.js';
import { Reason } from '../../src/prune/reasons.js';
import { buildRepairIndex } from '../../src/prune/repair.js';
import { LineKind as K } from '../../src/syntax/types.js';
import { handStructure } from './structure-fixture.js';

// 0 def a():
// 1     x = 1
// 2     y = 2
// 3 def b():
// 4     z = 3
const LINES = ['def a():', '    x = 1', '    y = 2', 'def b():', '    z = 3'];
const st = handStructure(5, {
  kind: [K.DefHeader, K.Code, K.Code, K.DefHeader, K.Code],
  parent: [-1, 0, 0, -1, 3],
  blockEnd: { 0: 2, 3: 4 },
  firstBodyLine: { 0: 1, 3: 4 },
});

/** Every line costs 4 tokens, every marker 2 (unless `count` says otherwise). */
function context(value: number[], count: (text: string) => number = () => 2): SelectionContext {
  return {
    lines: LINES,
    structure: st,
    fused: new Float64Array(10),
    fusedCrf: crfParams([0, 0, 0, 0]),
    value: Float64Array.from(value),
    evidenceLed: new Uint8Array(5).fill(1),
    costs: new Float64Array(5).fill(4),
    counter: { name: 'fixed', count },
    commentPrefix: '#',
    cr: '',
    elision: 'compact',
    repair: { syntactic: true, dependencies: true, language: 'python', maxWholeSpan: 8, wholeSpans: null },
    repairIndex: buildRepairIndex(st, LINES, 'python'),
    units: new Map(),
  };
}

/** `def a(): x = 1` already decoded. */
function decoded(): Selection {
  return { keep: Uint8Array.from([1, 1, 0, 0, 0]), reason: Uint8Array.from([Reason.Repair, Reason.Evidence, 0, 0, 0]), estimatedTokens: 10, bias: 0 };
}

const kept = (s: Selection) => [...s.keep].flatMap((k, i) => (k ? [i] : []));

describe('packByValue', () => {
  it('prefers a line in a scope already paid for over a slightly better one that needs its header', () => {
    // y (value 1) costs 4; z (value 1.2) costs 8 with `def b():`. Per token^0.75: 0.354 vs 0.252.
    const s = packByValue(context([0, 0, 1, 0, 1.2]), decoded(), 18, new Map());
    expect(kept(s)).toEqual([0, 1, 2]);
    expect(s.estimatedTokens).toBe(14); // three lines and the marker for 3–4
  });

  it('takes the better unit with its repair when it is worth the tokens, and stays within the budget', () => {
    const s = packByValue(context([0, 0, 1, 0, 3]), decoded(), 18, new Map());
    expect(kept(s)).toEqual([0, 1, 3, 4]);
    expect(Array.from(s.reason)).toEqual([Reason.Repair, Reason.Evidence, 0, Reason.Repair, Reason.Evidence]);
    expect(s.estimatedTokens).toBe(18); // four lines and the marker for line 2
  });

  it('drops the last units when the real markers overshoot the running estimate', () => {
    // `def b(): z = 3` kept. Adding `y` (with `def a():`) is priced at 8 against markers of 2;
    // the real marker for line 2 costs 10, so line 2 is shown instead (4) and the total, 20, is
    // over 19: the packer falls back to what it started from.
    const start: Selection = {
      keep: Uint8Array.from([0, 0, 0, 1, 1]),
      reason: Uint8Array.from([0, 0, 0, Reason.Repair, Reason.Evidence]),
      estimatedTokens: 10,
      bias: 0,
    };
    const s = packByValue(
      context([0, 0, 1, 0, 0], (m) => (m.includes('line 2') ? 10 : 2)),
      start,
      19,
      new Map(),
    );
    expect(kept(s)).toEqual([3, 4]);
    expect(s.estimatedTokens).toBe(10);
  });

  it('adds nothing when no unit fits', () => {
    const s = packByValue(context([0, 0, 1, 0, 3]), decoded(), 13, new Map());
    expect(kept(s)).toEqual([0, 1]);
  });
});

describe('evidenceValue', () => {
  it('is the squared odds of the semantic keep−prune margin, capped against overflow', () => {
    const v = evidenceValue(Float64Array.from([0, 0, 0, Math.log(3), 0, 1000]));
    expect(v[0]).toBe(1);
    expect(v[1]).toBeCloseTo(9, 12);
    expect(v[2]).toBe(Math.exp(300));
  });
});

describe('fitBudget with decoding variants', () => {
  // Fused margins: `y = 2` 0.4, `z = 3` 0.5, the rest −5. The CRF's end penalty keeps the Viterbi
  // decode off the last line, so the default way keeps `def a(): … y = 2`; packing from nothing
  // (a Viterbi share of 0) with the value on `z` keeps `def b(): z = 3`.
  const margins = [-5, -5, 0.4, -5, 0.5];
  function withVariants(variants: SelectionContext['variants']): SelectionContext {
    const ctx = context([0, 0, 1, 0, 3]);
    ctx.fused = Float64Array.from(margins.flatMap((m) => [0, m]));
    ctx.fusedCrf = crfParams([0, 0, 0, 0], [0, 0], [0, -10]);
    ctx.variants = variants;
    ctx.expected = Float64Array.from(margins, (m) => 1 / (1 + Math.exp(-m)));
    return ctx;
  }

  it('keeps the default decode without variants', () => {
    const f = fitBudget(withVariants(undefined), 13, new Map());
    expect(kept(f!.selection)).toEqual([0, 2]);
  });

  it('keeps the variant whose lines hold the most expected evidence: σ(0.5) over σ(0.4)', () => {
    const f = fitBudget(withVariants([{ viterbiShare: 0, value: Float64Array.from([0, 0, 3, 0, 1]) }, { viterbiShare: 0 }]), 13, new Map());
    expect(kept(f!.selection)).toEqual([3, 4]);
    expect(f!.tokens).toBe(2);
  });

  it('keeps the default on a tie (a variant that decodes the same lines)', () => {
    const f = fitBudget(withVariants([{ viterbiShare: 0, value: Float64Array.from([0, 0, 3, 0, 1]) }]), 13, new Map());
    expect(kept(f!.selection)).toEqual([0, 2]);
  });
});

describe('calibration without CRF transitions', () => {
  // 60 top-level statements with random margins and costs: each line decodes on its own, so the
  // search over the distinct margins (calibrateByThresholdSteps) must find what the bisection over
  // the bias finds. A CRF with transitions of 1e-300 decodes the same lines (they vanish in every
  // sum) but takes the bisection.
  const n = 60;
  const lines = Array.from({ length: n }, (_, i) => `v${i} = ${'x'.repeat(i % 7)}`);
  const flat = handStructure(n, { kind: new Array<number>(n).fill(K.Code), parent: new Array<number>(n).fill(-1), blockEnd: {}, firstBodyLine: {} });
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  function flatContext(margins: number[], costs: number[], transitions: [number, number, number, number]): SelectionContext {
    return {
      lines,
      structure: flat,
      fused: Float64Array.from(margins.flatMap((m) => [0, m])),
      fusedCrf: crfParams(transitions, [0, 0.3], [0, -0.2]),
      value: evidenceValue(Float64Array.from(margins.flatMap((m) => [0, m]))),
      evidenceLed: new Uint8Array(n).fill(1),
      costs: Float64Array.from(costs),
      counter: { name: 'fixed', count: (text) => 3 * text.split('\n').length },
      commentPrefix: '#',
      cr: '',
      elision: 'compact',
      repair: null,
      repairIndex: buildRepairIndex(flat, lines, 'python'),
      units: new Map(),
    };
  }

  it('keeps the lines the bias bisection keeps, over random margins, ties and budgets', () => {
    for (let trial = 0; trial < 40; trial++) {
      // Margins on a grid of 0.25 (ties) in every other trial, else continuous.
      const margins = Array.from({ length: n }, () => (trial % 2 ? Math.round((random() * 8 - 4) * 4) / 4 : random() * 8 - 4));
      const costs = Array.from({ length: n }, () => 4 + Math.floor(random() * 12));
      const budget = 20 + Math.floor(random() * 400);
      const a = fitBudget(flatContext(margins, costs, [0, 0, 0, 0]), budget, new Map());
      const b = fitBudget(flatContext(margins, costs, [1e-300, 1e-300, 1e-300, 1e-300]), budget, new Map());
      expect(a === null).toBe(b === null);
      if (a && b) {
        expect(kept(a.selection)).toEqual(kept(b.selection));
        expect(a.tokens).toBe(b.tokens);
      }
    }
  });
});
