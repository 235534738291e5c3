/**
 * What `auto` runs once the model has loaded, shared by the registry (CLI, MCP) and the worker
 * (playground): the model for the languages it was trained on, the lexical scorer otherwise.
 */
import { MODELLED_LANGUAGES } from '../features/lines.js';
import { LexicalScorer } from './lexical.js';
import type { Scorer, ScorerInput, ScorerOutput } from './types.js';

/**
 * 'auto' with the model loaded: the neural scorer for the languages it was trained on, the
 * lexical scorer for the rest (the model never saw them: both of its language features are 0).
 */
export class ModelledLanguagesScorer implements Scorer {
  readonly name = 'neural';
  private readonly lexical = new LexicalScorer();
  constructor(private readonly neural: Scorer & { readonly backend?: string }) {}
  get backend(): string | undefined {
    return this.neural.backend;
  }
  score(input: ScorerInput): ScorerOutput | Promise<ScorerOutput> {
    if (input.language && MODELLED_LANGUAGES.has(input.language)) return this.neural.score(input);
    const why = input.language ? `the model was not trained on ${input.language}` : 'language unknown';
    if (input.pause) return this.lexical.scoreAsync(input).then((out) => ({ ...out, fallbackReason: why }));
    return { ...this.lexical.score(input), fallbackReason: why };
  }
}
