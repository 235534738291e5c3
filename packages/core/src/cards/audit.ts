/**
 * Structural audit of memory cards (DESIGN.md §1, paper §5.8) — structure only, not faithfulness:
 *   FAIL if required-field rate < 0.98;
 *   PASS if actionable-hint rate ≥ 0.80, compression-success rate ≥ 0.70, placeholder rate ≤ 0.02
 *        and mean compression ratio < 0.80;
 *   WARN otherwise.
 * Rates are per card. A card has its required fields when all five are non-empty strings; its hint
 * is actionable when it contains one of the action verbs (as a word, optionally inflected);
 * compression succeeds when compressed_tokens < original_tokens; it has a placeholder when a field
 * is exactly todo / tbd / unknown / n/a / none / empty (case and punctuation aside) or contains the
 * word TODO or TBD. The compression ratio is compressed / original tokens (cards with original 0
 * count as ratio 1). An empty deck is WARN ('no cards').
 */
import { CARD_FIELDS, type MemoryCard } from './memory-cards.js';

export const AUDIT_THRESHOLDS = {
  requiredFieldRate: 0.98,
  actionableHintRate: 0.8,
  compressionSuccessRate: 0.7,
  placeholderRate: 0.02,
  meanCompressionRatio: 0.8,
} as const;

export const ACTION_VERBS = ['inspect', 'read', 'open', 'search', 'check', 'update', 'fix', 'call', 'run', 'use', 'compare', 'look'] as const;
const ACTION_RE = new RegExp(`\\b(${ACTION_VERBS.join('|')})(s|es|ed|d|ing)?\\b`, 'i');
const PLACEHOLDERS = new Set(['todo', 'tbd', 'unknown', 'n/a', 'na', 'none', 'empty']);
const PLACEHOLDER_WORD = /\b(todo|tbd)\b/i;

export type AuditVerdict = 'PASS' | 'WARN' | 'FAIL';

export interface AuditReport {
  verdict: AuditVerdict;
  cards: number;
  requiredFieldRate: number;
  actionableHintRate: number;
  compressionSuccessRate: number;
  placeholderRate: number;
  meanCompressionRatio: number;
  /** Why the verdict is not PASS (empty for PASS). */
  reasons: string[];
  /** Per card: which checks failed. */
  perCard: { id: string; missing: string[]; actionable: boolean; compressed: boolean; placeholders: string[] }[];
}

export function isActionableHint(hint: string): boolean {
  return ACTION_RE.test(hint);
}

export function isPlaceholder(value: string): boolean {
  const norm = value
    .trim()
    .toLowerCase()
    .replace(/^[\s"'`([{<.:;-]+|[\s"'`)\]}>.:;!?-]+$/g, '');
  return PLACEHOLDERS.has(norm) || PLACEHOLDER_WORD.test(value);
}

export function auditCards(cards: readonly MemoryCard[]): AuditReport {
  const perCard: AuditReport['perCard'] = [];
  let complete = 0,
    actionable = 0,
    compressed = 0,
    withPlaceholder = 0,
    ratioSum = 0;
  for (const c of cards) {
    const rec = c as unknown as Record<string, unknown>;
    const missing = CARD_FIELDS.filter((f) => typeof rec[f] !== 'string' || rec[f].trim() === '');
    const placeholders = CARD_FIELDS.filter((f) => typeof rec[f] === 'string' && rec[f].trim() !== '' && isPlaceholder(rec[f]));
    const act = typeof c.action_hint === 'string' && isActionableHint(c.action_hint);
    const orig = Number(c.original_tokens),
      comp = Number(c.compressed_tokens);
    const ok = Number.isFinite(orig) && Number.isFinite(comp) && orig > 0 && comp < orig;
    if (missing.length === 0) complete++;
    if (act) actionable++;
    if (ok) compressed++;
    if (placeholders.length) withPlaceholder++;
    ratioSum += Number.isFinite(orig) && Number.isFinite(comp) && orig > 0 ? comp / orig : 1;
    perCard.push({ id: c.id, missing, actionable: act, compressed: ok, placeholders });
  }
  const n = cards.length;
  const rate = (k: number) => (n ? k / n : 0);
  const r: AuditReport = {
    verdict: 'PASS',
    cards: n,
    requiredFieldRate: rate(complete),
    actionableHintRate: rate(actionable),
    compressionSuccessRate: rate(compressed),
    placeholderRate: rate(withPlaceholder),
    meanCompressionRatio: n ? ratioSum / n : 0,
    reasons: [],
    perCard,
  };
  const t = AUDIT_THRESHOLDS;
  if (n === 0) {
    // Nothing rendered as a card (e.g. raw mode, or every card cost more than its unit).
    r.verdict = 'WARN';
    r.reasons.push('no cards');
    return r;
  }
  if (r.requiredFieldRate < t.requiredFieldRate) {
    r.verdict = 'FAIL';
    r.reasons.push(`required-field rate ${r.requiredFieldRate.toFixed(3)} < ${t.requiredFieldRate}`);
    return r;
  }
  if (r.actionableHintRate < t.actionableHintRate) r.reasons.push(`actionable-hint rate ${r.actionableHintRate.toFixed(3)} < ${t.actionableHintRate}`);
  if (r.compressionSuccessRate < t.compressionSuccessRate)
    r.reasons.push(`compression-success rate ${r.compressionSuccessRate.toFixed(3)} < ${t.compressionSuccessRate}`);
  if (r.placeholderRate > t.placeholderRate) r.reasons.push(`placeholder rate ${r.placeholderRate.toFixed(3)} > ${t.placeholderRate}`);
  if (!(r.meanCompressionRatio < t.meanCompressionRatio))
    r.reasons.push(`mean compression ratio ${r.meanCompressionRatio.toFixed(3)} ≥ ${t.meanCompressionRatio}`);
  r.verdict = r.reasons.length ? 'WARN' : 'PASS';
  return r;
}
