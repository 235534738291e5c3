/**
 * Source shims: constructs that today's code uses and the shipped grammars predate, rewritten
 * for the parser only, without changing a byte offset (a keyword becomes as many spaces), so
 * every row and column of the tree still points into the caller's text. The text that is
 * pruned and returned is never the shimmed one. Pure.
 *
 * TypeScript 4.7's variance annotations (`interface Z<out O, in I>`, `<in out T>`) are not in
 * tree-sitter-typescript 0.23 (the newest published grammar): one such type parameter turns the
 * whole declaration into ERROR nodes. Blanking the modifier leaves an ordinary type parameter.
 */
import type { LanguageId } from './types.js';

/**
 * `<` or `,` (a type parameter list), then `in`, `out` or `in out`, then a type parameter
 * (optionally `const`) followed by what may follow one: `extends`, `=`, `,` or `>`.
 */
const VARIANCE = /([<,]\s*)((?:in|out)\s+(?:out\s+)?)(?=(?:const\s+)?[A-Za-z_$][\w$]*\s*(?:extends\b|=|,|>))/g;

/** Whether a shim can change `text` (a cheap test before the rewrite). */
const MAY_NEED = /[<,]\s*(?:in|out)\s/;

export function shimForGrammar(language: LanguageId, text: string): string {
  if (language !== 'typescript' && language !== 'tsx') return text;
  if (!MAY_NEED.test(text)) return text;
  return text.replace(VARIANCE, (_m, lead: string, modifiers: string) => lead + ' '.repeat(modifiers.length));
}
