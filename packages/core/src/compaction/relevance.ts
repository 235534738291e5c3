/**
 * Relevance of blocks to a goal: lexical BM25 over identifier-split terms by default, or the
 * caller's backbone. Scores are normalised to 0..1 so they can be set against redundancy.
 */
import { bm25Scores, buildBm25Index } from '../scorers/bm25.js';
import { termsOf } from '../text/identifiers.js';
import { checkedScores, DEFAULT_HOOK_TIMEOUT_MS, withTimeout } from './hooks.js';
import type { RelevanceFn } from './types.js';

export function lexicalRelevance(goal: string, texts: string[]): number[] {
  const q = termsOf(goal);
  if (q.length === 0 || texts.length === 0) return texts.map(() => 0);
  const index = buildBm25Index(texts.map((t) => termsOf(t)));
  return [...bm25Scores(index, q)];
}

/** x / max when all ≥ 0, else min-max; all-equal or non-finite input gives zeros. */
export function normalizeScores(raw: readonly number[]): number[] {
  const xs = raw.map((x) => (Number.isFinite(x) ? x : 0));
  if (xs.length === 0) return [];
  const min = Math.min(...xs), max = Math.max(...xs);
  if (min >= 0) return max > 0 ? xs.map((x) => x / max) : xs.map(() => 0);
  return max > min ? xs.map((x) => (x - min) / (max - min)) : xs.map(() => 0);
}

/**
 * Relevance by the caller's hook (within `timeoutMs`; NaN, infinite or missing scores are an
 * error the caller turns into a degradation), else lexical BM25.
 */
export async function scoreRelevance(goal: string, texts: string[], custom?: RelevanceFn, timeoutMs = DEFAULT_HOOK_TIMEOUT_MS): Promise<number[]> {
  if (!custom) return normalizeScores(lexicalRelevance(goal, texts));
  const raw = await withTimeout(custom(goal, texts), timeoutMs, 'relevance hook');
  return normalizeScores(checkedScores(raw, texts.length));
}
