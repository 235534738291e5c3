/**
 * Budgets are counted in a real LLM tokenizer's tokens on the exact text returned. The default
 * is OpenAI's o200k_base (gpt-tokenizer, pure JS); callers inject their model's counter.
 */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
  /**
   * Optional fast path: the exact count of `text` and each line's share of it (a token is
   * charged to the line where it starts), from one encoding pass instead of one per line.
   */
  lineCosts?(text: string, lines: string[]): { total: number; costs: Float64Array };
}

let defaultCounter: Promise<TokenCounter> | null = null;

/** o200k_base, loaded on first use (its rank table is a few MB; browsers fetch it lazily). */
export function loadDefaultTokenCounter(): Promise<TokenCounter> {
  defaultCounter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    const tokenChars = new Map<number, number>();
    return {
      name: 'o200k_base',
      count: (text: string) => (text.length === 0 ? 0 : m.countTokens(text)),
      lineCosts(text: string, lines: string[]) {
        const ids = m.encode(text);
        const costs = new Float64Array(lines.length);
        let line = 0;
        let lineEnd = lines.length ? lines[0].length : 0; // index of the '\n' ending `line`
        let pos = 0;
        for (const id of ids) {
          while (line < lines.length - 1 && pos > lineEnd) lineEnd += lines[++line].length + 1;
          costs[line]++;
          let len = tokenChars.get(id);
          if (len === undefined) { len = m.decode([id]).length; tokenChars.set(id, len); }
          pos += len;
        }
        return { total: ids.length, costs };
      },
    };
  });
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

/** The exact token count of `text` and each line's cost: one pass when the counter can, else per line. */
export function measureTokens(text: string, lines: string[], counter: TokenCounter): { total: number; costs: Float64Array } {
  if (counter.lineCosts) return counter.lineCosts(text, lines);
  return { total: counter.count(text), costs: lineTokenCosts(lines, counter) };
}
