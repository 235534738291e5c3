import { describe, expect, it } from 'vitest';
import { auditCards, isActionableHint, isPlaceholder } from '../../src/cards/audit.js';
import type { MemoryCard } from '../../src/cards/memory-cards.js';

const card = (i: number, over: Partial<MemoryCard> = {}): MemoryCard => ({
  id: `c${i}`,
  unitId: `u${i}`,
  type: 'symbol',
  title: 'prepare_content_length',
  trigger: 'When the issue mentions Content-Length on GET',
  evidence: "self.headers['Content-Length'] = '0' is set for every body",
  action_hint: 'Inspect prepare_content_length in requests/models.py',
  failure_if_ignored: 'If ignored, the GET request keeps sending the header',
  scope: 'requests/models.py:388-396',
  causal_score: 0.5,
  confidence: 0.9,
  original_tokens: 100,
  compressed_tokens: 40,
  ...over,
});
const deck = (n: number, bad: number, over: Partial<MemoryCard>) => Array.from({ length: n }, (_, i) => card(i, i < bad ? over : {}));

describe('card audit thresholds', () => {
  it('PASS when every rate is on the good side', () => {
    const r = auditCards(deck(50, 0, {}));
    expect(r.verdict).toBe('PASS');
    expect(r).toMatchObject({ requiredFieldRate: 1, actionableHintRate: 1, compressionSuccessRate: 1, placeholderRate: 0 });
    expect(r.meanCompressionRatio).toBeCloseTo(0.4, 12);
    expect(r.reasons).toEqual([]);
  });

  it('required-field rate: 0.98 is enough, below is FAIL', () => {
    expect(auditCards(deck(50, 1, { scope: '' })).verdict).toBe('PASS');
    const r = auditCards(deck(50, 2, { evidence: '   ' }));
    expect(r.requiredFieldRate).toBe(0.96);
    expect(r.verdict).toBe('FAIL');
    expect(r.perCard[0].missing).toEqual(['evidence']);
  });

  it('actionable-hint rate: 0.80 passes, 0.78 warns', () => {
    expect(auditCards(deck(50, 10, { action_hint: 'The header logic lives here' })).verdict).toBe('PASS');
    const r = auditCards(deck(50, 11, { action_hint: 'The header logic lives here' }));
    expect(r.actionableHintRate).toBe(0.78);
    expect(r.verdict).toBe('WARN');
  });

  it('compression-success rate: 0.70 passes, 0.68 warns', () => {
    expect(auditCards(deck(50, 15, { compressed_tokens: 100 })).verdict).toBe('PASS');
    const r = auditCards(deck(50, 16, { compressed_tokens: 100 }));
    expect(r.compressionSuccessRate).toBe(0.68);
    expect(r.verdict).toBe('WARN');
  });

  it('placeholder rate: 0.02 passes, 0.04 warns', () => {
    expect(auditCards(deck(50, 1, { failure_if_ignored: 'N/A' })).verdict).toBe('PASS');
    const r = auditCards(deck(50, 2, { trigger: 'TODO: fill in' }));
    expect(r.placeholderRate).toBe(0.04);
    expect(r.verdict).toBe('WARN');
  });

  it('mean compression ratio must be strictly below 0.80', () => {
    const at = auditCards([card(0, { compressed_tokens: 80 }), card(1, { compressed_tokens: 80 })]);
    expect(at.meanCompressionRatio).toBe(0.8);
    expect(at.verdict).toBe('WARN');
    expect(auditCards([card(0, { compressed_tokens: 79 }), card(1, { compressed_tokens: 79 })]).verdict).toBe('PASS');
  });

  it('FAIL beats WARN; an empty deck warns', () => {
    const r = auditCards(deck(10, 10, { scope: '', action_hint: 'nothing' }));
    expect(r.verdict).toBe('FAIL');
    expect(auditCards([])).toMatchObject({ verdict: 'WARN', reasons: ['no cards'] });
  });

  it('action verbs and placeholders', () => {
    expect(isActionableHint('Check the retry count')).toBe(true);
    expect(isActionableHint('checks the retry count')).toBe(true);
    expect(isActionableHint('The user model')).toBe(false);
    expect(isActionableHint('Use Session.send')).toBe(true);
    for (const p of ['todo', 'TBD', 'Unknown.', 'n/a', 'None', '(empty)']) expect(isPlaceholder(p)).toBe(true);
    expect(isPlaceholder('returns None when the header is absent')).toBe(false);
    expect(isPlaceholder('fix later TODO')).toBe(true);
  });
});
