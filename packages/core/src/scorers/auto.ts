/**
 * What `auto` runs once the model has loaded, shared by the registry (CLI, MCP) and the worker
 * (playground): the model for every language with a grammar, the lexical scorer for text whose
 * language is unknown.
 */
import { LexicalScorer } from './lexical.js';
import type { Scorer, ScorerInput, ScorerOutput } from './types.js';

/**
 * 'auto' with the model loaded: the neural scorer wherever the language is known, the lexical
 * scorer otherwise (a data file or prose has no line kinds or scopes for the model to read).
 *
 * The model was trained on Python and TypeScript/JavaScript only (on the other languages both of
 * its language features are 0), yet it ranks their code better than the lexical scorer: on 1,007
 * commit cases of the eight other languages (training/mine_languages.py, the repositories of
 * `ctxprune bench languages`), recall 0.583 → 0.625 at 4× and 0.419 → 0.475 at 8×. Chosen on
 * the "tune" repositories (600 cases: +0.058 / +0.066), confirmed on the "held-out" ones (407:
 * +0.016 / +0.043). Before, `auto` ran the lexical scorer for them.
 */
export class AutoScorer implements Scorer {
  readonly name = 'neural';
  private readonly lexical = new LexicalScorer();
  constructor(private readonly neural: Scorer & { readonly backend?: string }) {}
  get backend(): string | undefined {
    return this.neural.backend;
  }
  score(input: ScorerInput): ScorerOutput | Promise<ScorerOutput> {
    if (input.language) return this.neural.score(input);
    const why = 'language unknown';
    if (input.pause) return this.lexical.scoreAsync(input).then((out) => ({ ...out, fallbackReason: why }));
    return { ...this.lexical.score(input), fallbackReason: why };
  }
}
