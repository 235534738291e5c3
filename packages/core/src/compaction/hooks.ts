/**
 * Guards for the caller's hooks (summarizeGoal, relevance): a time limit, so that a hook that
 * never answers cannot hang compact() (it fell back only on a rejection), and a check of what a
 * relevance hook returns (NaN scores were taken as 0 without a word). A failing hook is a
 * degradation the callers note, never an error of compact().
 */
import { CtxpruneError } from '../errors.js';

/** How long a hook may take by default: an LLM call, with room to spare. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

/** The `hookTimeoutMs` option: a positive number of milliseconds (Infinity: no limit), default 30 s. */
export function hookTimeout(ms: unknown): number {
  if (ms === undefined || ms === null) return DEFAULT_HOOK_TIMEOUT_MS;
  if (typeof ms !== 'number' || Number.isNaN(ms) || ms <= 0) {
    throw new CtxpruneError(
      'INVALID_OPTION',
      `hookTimeoutMs must be a positive number of milliseconds, got ${typeof ms === 'number' ? ms : (JSON.stringify(ms) ?? typeof ms)}`,
    );
  }
  return ms;
}

/** `p`, or a rejection "<what> gave no answer in <ms> ms" once `ms` have passed. */
export function withTimeout<T>(p: Promise<T> | T, ms: number, what: string): Promise<T> {
  if (!Number.isFinite(ms)) return Promise.resolve(p);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} gave no answer in ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve(p), late]).finally(() => clearTimeout(timer));
}

/** A relevance hook's answer: one finite number per text, else an Error saying what was wrong. */
export function checkedScores(raw: unknown, n: number): number[] {
  if (!Array.isArray(raw) || raw.length !== n) {
    throw new Error(`relevance hook returned ${Array.isArray(raw) ? raw.length : typeof raw} scores for ${n} texts`);
  }
  const bad = raw.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x));
  if (bad >= 0) throw new Error(`relevance hook returned ${typeof raw[bad] === 'number' ? raw[bad] : typeof raw[bad]} for text ${bad + 1} of ${n}`);
  return raw as number[];
}
