import { describe, expect, it } from 'vitest';
import { CUT_EVIDENCE_EXPONENT, cutEvidence, unitGains } from '../../src/compaction/gain.js';
import type { Offer } from '../../src/compaction/offers.js';
import type { Unit } from '../../src/compaction/plan.js';

const cut = (tokens: number) => ({ content: '', tokens, keptLines: [] });
const unit = (msg: number, level: number): Unit => ({ id: `m${msg}#${level}`, msg, level, tokens: 1, relevance: 0, group: 'g', text: '', lines: [1, 1] });

describe('cutEvidence', () => {
  it('is x^0.35 on 0..1, clamped', () => {
    expect(CUT_EVIDENCE_EXPONENT).toBe(0.35);
    expect(cutEvidence(0)).toBe(0);
    expect(cutEvidence(1)).toBe(1);
    expect(cutEvidence(0.25)).toBeCloseTo(0.25 ** 0.35, 12);
    expect(cutEvidence(2)).toBe(1);
    expect(cutEvidence(-1)).toBe(0);
  });
});

describe('unitGains', () => {
  // Message 1 (800 tokens) offers cuts of 100 and 400 tokens and itself; message 2 (50 tokens) only itself.
  const offers = new Map<number, Offer>([
    [1, { cuts: [cut(100), cut(400), cut(800)] }],
    [2, { cuts: [cut(50)] }],
    [3, { cuts: [cut(20)] }],
  ]);
  const sizes = [0, 800, 50, 20];
  const units = [unit(1, 0), unit(1, 1), unit(1, 2), unit(2, 0)];

  it('message likelihood (softmax of relevance / T) × the evidence each cut adds', () => {
    const gains = unitGains(
      units,
      offers,
      sizes,
      new Map([
        [1, 1],
        [2, 0.85],
      ]),
      () => false,
      0.15,
    );
    const p1 = 1 / (1 + Math.exp(-1));
    expect(gains.get('m1#0')).toBeCloseTo(p1 * 0.125 ** 0.35, 12);
    expect(gains.get('m1#1')).toBeCloseTo(p1 * (0.5 ** 0.35 - 0.125 ** 0.35), 12);
    expect(gains.get('m1#2')).toBeCloseTo(p1 * (1 - 0.5 ** 0.35), 12);
    expect(gains.get('m2#0')).toBeCloseTo(1 - p1, 12);
    // A message's cuts add up to its likelihood; all messages' to 1.
    expect([...gains.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('the request counts as likely as the likeliest message; a message without relevance as 0', () => {
    const gains = unitGains([unit(2, 0), unit(3, 0)], offers, sizes, new Map([[2, 0.3]]), (u) => u.msg === 3, 0.15);
    expect(gains.get('m3#0')).toBeCloseTo(0.5, 12);
    expect(gains.get('m2#0')).toBeCloseTo(0.5, 12);
    const noRel = unitGains([unit(2, 0), unit(3, 0)], offers, sizes, new Map(), () => false, 0.15);
    expect(noRel.get('m2#0')).toBeCloseTo(0.5, 12);
  });

  it('a lower temperature trusts the ranking more; 0 gives everything to the best', () => {
    const rel = new Map([
      [1, 1],
      [2, 0.9],
    ]);
    const share = (t: number) => [...unitGains(units, offers, sizes, rel, () => false, t)].filter(([id]) => id.startsWith('m1')).reduce((a, [, v]) => a + v, 0);
    expect(share(1)).toBeLessThan(share(0.15));
    expect(share(0)).toBe(1);
  });
});
