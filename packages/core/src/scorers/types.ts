/**
 * A scorer turns (query, code, structure) into LaMR's rubric emissions and gate. The lexical
 * scorer (lexical.ts) ships in the core; the neural backbone implements the same interface.
 */
import type { RubricEmissions } from '../crf/rubrics.js';
import type { Degradation } from '../degradations.js';
import type { FileStructure, LanguageId } from '../syntax/types.js';

export interface ScorerInput {
  query: string;
  lines: string[];
  structure: FileStructure;
  language: LanguageId | null;
  signal?: AbortSignal;
  /**
   * Awaited between chunks of the scorer's work, where it has chunks (the pipeline passes its
   * checkpoint, prune/checkpoint.ts: it throws ABORTED once `signal` has fired, and yields now and
   * then so that the signal can fire). A scorer without one runs its work back to back.
   */
  pause?: () => Promise<void>;
}

export interface ScorerOutput extends RubricEmissions {
  /** Document-level relevance of the whole input to the query (0..1 when calibrated). */
  documentScore: number;
  /** What actually ran, for stats: e.g. 'lexical', 'neural'. */
  scorer: string;
  /** Set when `auto` ran another scorer than the model, in words: why (e.g. the model did not load). */
  fallbackReason?: string;
  /** 'cpu' for pure TypeScript, 'wasm' / 'webgpu' for ONNX backends. */
  backend: string;
  /**
   * What the scorer did instead of its own scoring, each with a documented code of prune's
   * (DEGRADATION_CODES: SCORER_FALLBACK when its model's output was unusable, TOO_LARGE_FOR_MODEL),
   * added to the prune's stats.degraded as they are.
   */
  degraded?: Degradation[];
}

/** `lexical (auto: language unknown)`: what ran and, after a fallback, why. */
export function describeScorer(s: { scorer: string; fallbackReason?: string }): string {
  return s.fallbackReason ? `${s.scorer} (auto: ${s.fallbackReason})` : s.scorer;
}

export interface Scorer {
  readonly name: string;
  score(input: ScorerInput): Promise<ScorerOutput> | ScorerOutput;
}
