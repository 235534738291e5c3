/**
 * Defined degradations of `prune()`: what it did instead of the full pipeline, as a code a program
 * can switch on and a message a person can act on (`stats.degraded`). The README lists the codes.
 */

/** Each code and what it means. */
export const DEGRADATION_CODES = {
  UNKNOWN_LANGUAGE: 'the `language` asked for is not one ctxprune knows: pruned line by line, no syntax repair',
  LANGUAGE_NOT_DETECTED: 'no language from the file name or the content: pruned line by line, no syntax repair',
  NO_GRAMMAR: 'a data or style format without a grammar (JSON, YAML, TOML, CSS, …): pruned line by line, its brackets kept balanced',
  TOO_LARGE_TO_PARSE: 'input too large or minified to parse: structure from indentation, no syntax repair',
  SYNTAX_UNAVAILABLE: 'the grammar could not be loaded or run: structure from indentation, no syntax repair',
  EMPTY_QUERY: 'no query: the outline (imports, definitions) that fits is kept',
  QUERY_TRUNCATED: 'a query over 20,000 characters: only its beginning was used',
  SCORER_FALLBACK: "the scorer could not use its model's output: the lexical scorer scored this input",
  BUDGET_BELOW_MARKER: 'a budget below even one elision marker: the text returned is empty',
  BUDGET_TOO_SMALL: 'a budget too small for one evidence unit (its lines plus their repair): what fits is returned',
  INVALID_UTF8: 'the input read from a file or stdin was not valid UTF-8: invalid sequences read as U+FFFD',
} as const;

export type DegradationCode = keyof typeof DEGRADATION_CODES;

export interface Degradation {
  code: DegradationCode;
  /** This occurrence in words (names the language, the budget, …). */
  message: string;
}

export function degradation(code: DegradationCode, message: string): Degradation {
  return { code, message };
}

/** The messages, joined for one line of text (CLI notes, headers). */
export function describeDegradations(degraded: readonly Degradation[], sep = '; '): string {
  return degraded.map((d) => d.message).join(sep);
}
