/**
 * Budgets are counted in a real LLM tokenizer's tokens on the exact text returned. The default
 * is OpenAI's o200k_base (gpt-tokenizer, pure JS); callers inject their model's counter.
 */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

let defaultCounter: Promise<TokenCounter> | null = null;

/** o200k_base, loaded on first use (its rank table is a few MB; browsers fetch it lazily). */
export function loadDefaultTokenCounter(): Promise<TokenCounter> {
  defaultCounter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => ({
    name: 'o200k_base',
    count: (text: string) => (text.length === 0 ? 0 : m.countTokens(text)),
  }));
  return defaultCounter;
}

/** A rough counter (chars / 4) for tests and for callers who want no tokenizer download. */
export const approximateCounter: TokenCounter = {
  name: 'approx-chars/4',
  count: (text) => Math.ceil(text.length / 4),
};

/**
 * Token cost of each line including its newline. The sum approximates the cost of any subset
 * joined by '\n' (tokenizers rarely merge across a newline); the pipeline re-counts the final
 * text exactly, so the approximation only steers the search.
 */
export function lineTokenCosts(lines: string[], counter: TokenCounter): Float64Array {
  const costs = new Float64Array(lines.length);
  const cache = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    let c = cache.get(l);
    if (c === undefined) {
      c = counter.count(l + '\n');
      if (cache.size < 50_000) cache.set(l, c);
    }
    costs[i] = c;
  }
  return costs;
}
