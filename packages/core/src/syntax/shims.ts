/**
 * Source shims: rewrites of constructs that a shipped grammar predates or gets wrong, for the
 * parser only and without changing a byte offset (the pruned text is never the shimmed one).
 * Each language's shim is its GrammarTable.shim (grammars.ts; today the JavaScript family's,
 * shims-typescript.ts); a language without one is parsed as it is. Pure.
 */
import { languageEntry } from './grammars.js';
import type { LanguageId } from './types.js';
import { runSteps, runStepsAsync, type Pause, type Steps } from '../util/steps.js';

/** shimForGrammar, awaiting `pause()` between its rewrites. Same result. */
export function shimForGrammarAsync(language: LanguageId, text: string, pause: Pause): Promise<string> {
  return runStepsAsync(shimSteps(language, text), pause);
}

export function shimForGrammar(language: LanguageId, text: string): string {
  return runSteps(shimSteps(language, text));
}

/** shimForGrammar as steps (util/steps.ts): a yield after each rewrite of the whole text. */
export function* shimSteps(language: LanguageId, text: string): Steps<string> {
  const shim = languageEntry(language)?.shim;
  return shim ? yield* shim(text) : text;
}
