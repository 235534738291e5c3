/**
 * Scorers by name, for the CLI, the worker and the playground's engine picker. 'lexical' needs
 * nothing; model-backed scorers register here and load lazily.
 */
import { CtxpruneError } from '../errors.js';
import { AutoScorer } from './auto.js';
import { LexicalScorer } from './lexical.js';
import { loadDefaultNeuralScorer } from './neural.js';
import type { Scorer, ScorerInput, ScorerOutput } from './types.js';
import { own } from '../util/own.js';

export type ScorerName = 'lexical' | 'neural' | 'auto';

/**
 * 'auto' when the model cannot load: the lexical scorer; `fallbackReason` says why and
 * `degraded` carries MODEL_UNAVAILABLE, so a program sees it without parsing prose.
 */
class LexicalFallbackScorer implements Scorer {
  readonly name = 'auto';
  private readonly lexical = new LexicalScorer();
  constructor(readonly fallbackReason: string) {}
  async score(input: ScorerInput): Promise<ScorerOutput> {
    const out = await this.lexical.scoreAsync(input);
    const why = `neural unavailable: ${this.fallbackReason}`;
    const unavailable = {
      code: 'MODEL_UNAVAILABLE' as const,
      message: `the model could not load (${this.fallbackReason}): the lexical scorer scored this input`,
    };
    return { ...out, fallbackReason: why, degraded: [...(out.degraded ?? []), unavailable] };
  }
}

const loaders: Record<string, () => Promise<Scorer>> = {
  lexical: async () => new LexicalScorer(),
  neural: () => loadDefaultNeuralScorer(),
  auto: async () => {
    try {
      return new AutoScorer(await loadDefaultNeuralScorer());
    } catch (e) {
      return new LexicalFallbackScorer(e instanceof Error ? e.message : String(e));
    }
  },
};

export function registerScorer(name: string, load: () => Promise<Scorer>): void {
  loaders[name] = load;
}

export function availableScorers(): string[] {
  return Object.keys(loaders);
}

export async function resolveScorer(name: string): Promise<Scorer> {
  const load = typeof name === 'string' ? own(loaders, name) : undefined;
  if (!load) {
    throw new CtxpruneError('INVALID_OPTION', `unknown scorer ${JSON.stringify(name)} (available: ${availableScorers().join(', ')})`);
  }
  return load();
}
