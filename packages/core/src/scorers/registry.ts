/**
 * Scorers by name, for the CLI, the worker and the playground's engine picker. 'lexical' needs
 * nothing; model-backed scorers register here and load lazily.
 */
import { CtxpruneError } from '../errors.js';
import { LexicalScorer } from './lexical.js';
import type { Scorer } from './types.js';

export type ScorerName = 'lexical' | 'neural' | 'auto';

const loaders: Record<string, () => Promise<Scorer>> = {
  lexical: async () => new LexicalScorer(),
};

export function registerScorer(name: string, load: () => Promise<Scorer>): void {
  loaders[name] = load;
}

export function availableScorers(): string[] {
  return Object.keys(loaders);
}

export async function resolveScorer(name: string): Promise<Scorer> {
  const load = loaders[name];
  if (!load) {
    throw new CtxpruneError('INVALID_OPTION', `unknown scorer "${name}" (available: ${availableScorers().join(', ')})`);
  }
  return load();
}
