/**
 * Defined degradations: what `prune()` (`stats.degraded`), `compact()` (`result.degraded`) or
 * `packContext()` (`stats.degraded`) did instead of the full pipeline, as a code a program can
 * switch on and a message a person can act on. The README lists the codes of all three.
 */

/** Each code and what it means. */
export const DEGRADATION_CODES = {
  UNKNOWN_LANGUAGE: 'the `language` asked for is not one ctxprune knows: pruned line by line, no syntax repair',
  LANGUAGE_NOT_DETECTED: 'no language from the file name or the content: pruned line by line, no syntax repair',
  NO_GRAMMAR: 'a data or style format without a grammar (JSON, YAML, TOML, CSS, …): pruned line by line, its brackets kept balanced',
  TOO_LARGE_TO_PARSE: 'input too large or minified to parse: structure from indentation, no syntax repair',
  SYNTAX_UNAVAILABLE: 'the grammar could not be loaded or run: structure from indentation, no syntax repair',
  EMPTY_QUERY: 'no query: the outline (imports, definitions, their comments) is kept first, then the lines around it, up to the budget',
  QUERY_UNMATCHED:
    'nothing in the input matches the query (no word of it of two or more letters that is not a stopword, no name or location of it occurs): kept as for an empty query, the outline first, then the lines around it, up to the budget',
  QUERY_TRUNCATED: 'a query over 20,000 characters: only its beginning was used',
  SCORER_FALLBACK: "the scorer could not use its model's output: the lexical scorer scored this input",
  TOO_LARGE_FOR_MODEL: 'more lines than the model scores in time (over 50,000): the lexical scorer scored this input',
  MODEL_UNAVAILABLE: "the scorer 'auto' could not load the model (missing asset, runtime that failed to start): the lexical scorer scored this input",
  BUDGET_BELOW_MARKER: 'a budget below even one elision marker: the text returned is empty',
  BUDGET_TOO_SMALL:
    'a budget too small for one evidence unit (its lines plus their repair): what fits is returned; where the best line fits alone, it is kept with fewer of the lines around it (no enclosing headers)',
  INVALID_UTF8: 'the input read from a file or stdin was not valid UTF-8: invalid sequences read as U+FFFD',
} as const;

export type DegradationCode = keyof typeof DEGRADATION_CODES;

/** Each code of `compact()`'s `degraded` and what it means. */
export const COMPACTION_DEGRADATION_CODES = {
  ORPHAN_TOOL_RESULT: 'a tool result names a call that no earlier message makes: it is compacted on its own',
  GOAL_CALLBACK_EMPTY: 'the goal callback returned no text: the cuts are scored against the latest user message',
  GOAL_CALLBACK_FAILED: 'the goal callback threw or timed out: the cuts are scored against the latest user message',
  NO_GOAL: 'no goal and no user message: relevance is flat, recency breaks ties',
  RELEVANCE_HOOK_FAILED: 'the relevance hook threw, timed out or returned unusable scores: the lexical scorer (BM25) rated the messages',
  LINE_PRUNER_REFUSED: 'the line pruner refused a message (e.g. binary content): it is kept whole or evicted, never cut',
  PROTECTED_CUT: 'the protected messages did not fit once everything older was evicted: they were cut line by line for the goal',
  MESSAGES_OMITTED: 'messages left out entirely (not even their placeholder fits the budget): their originals are in the store',
  PINNED_OVER_BUDGET: 'the pinned messages alone exceed the budget: everything else was left out and the result is over budget',
} as const;

export type CompactionDegradationCode = keyof typeof COMPACTION_DEGRADATION_CODES;

/** Each code of `packContext()`'s `stats.degraded` and what it means. */
export const PACK_DEGRADATION_CODES = {
  EMPTY_TASK: 'no task: files ranked by path, their outlines kept',
  EMPTY_POOL: 'no file to pack (tests and binary files are left out): the text is empty',
  FILE_DEGRADED: "a file's pruning degraded (its prune() degradation, the file named): the pack holds what that pruning gave",
  FILE_NOT_PRUNED: 'a file could not be pruned (the pipeline refused it): it is left out of the pack',
  NOTHING_FITS: 'not even one file header fits the budget: the text is empty',
} as const;

export type PackDegradationCode = keyof typeof PACK_DEGRADATION_CODES;

/** One degradation: `C` is `DegradationCode` for prune, `CompactionDegradationCode` for compact. */
export interface Degradation<C extends string = DegradationCode> {
  code: C;
  /** This occurrence in words (names the language, the budget, …). */
  message: string;
}

export type CompactionDegradation = Degradation<CompactionDegradationCode>;
export type PackDegradation = Degradation<PackDegradationCode>;

export function degradation<C extends string = DegradationCode>(code: C, message: string): Degradation<C> {
  return { code, message };
}

/** Adds `d` to `list` unless the same code and message are already there (a note said once). */
export function noteOnce<C extends string>(list: Degradation<C>[], d: Degradation<C>): void {
  if (!list.some((x) => x.code === d.code && x.message === d.message)) list.push(d);
}

/** The messages, joined for one line of text (CLI notes, headers). */
export function describeDegradations(degraded: readonly Degradation<string>[], sep = '; '): string {
  return degraded.map((d) => d.message).join(sep);
}
