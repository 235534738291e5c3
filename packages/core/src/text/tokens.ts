/**
 * Budgets are counted in a real LLM tokenizer's tokens on the exact text returned. The default
 * is OpenAI's o200k_base (text/o200k.ts: exact, O(n log n) on any input, special-token strings as
 * text); callers inject their model's counter.
 */
import { assetUrl, env, isNode } from '../config.js';
import { CtxpruneError } from '../errors.js';
import { builtAssetUrl, isLocal, loadAssetBytes, readLocal } from '../io/assets.js';
import type { O200k } from './o200k.js';
import { type Pause, runSteps, runStepsAsync, STEP_LINES, type Steps } from '../util/steps.js';

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

/**
 * The tokenizer, from the pre-built binary rank table (o200k_base.bin: viewed in place, no parse)
 * at `env.assets.tokenizerUrl` (default: the built package's copy in Node, `<assetBase>` in
 * browsers, fetched through io/assets.ts and kept in the Cache API, so a reload reads it from
 * there). Without one (a source checkout in Node, a page that does not host it) from
 * js-tiktoken's rank module, which costs ~0.5 s of parsing and building on every load.
 * Either way it is checked on a few known encodings before use.
 */
async function loadO200k(): Promise<O200k> {
  const m = await import('./o200k.js');
  const configured = env.assets.tokenizerUrl;
  const table = configured != null ? String(configured) : isNode ? builtAssetUrl('o200k_base.bin') : assetUrl('o200k_base.bin');
  try {
    // Read like every other asset (io/assets.ts); the table is viewed in place, not copied.
    const tk = m.o200kFromTable(isLocal(table) ? await readLocal(table) : await loadAssetBytes(table));
    if (selfCheck(tk)) return tk;
  } catch {
    /* no usable table: parse the module */
  }
  const ranks = await import('js-tiktoken/ranks/o200k_base');
  const tk = m.buildO200k(ranks.default.bpe_ranks);
  if (!selfCheck(tk)) throw new Error('the o200k_base rank table gives wrong encodings');
  return tk;
}

function selfCheck(tk: O200k): boolean {
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  return (
    tk.vocabularySize === 199_998 &&
    same(tk.encode('hello world'), [24912, 2375]) &&
    // ' \u0085x' and '\ufeffimport os' piece by piece, as the pre-tokenizer splits them: the same
    // multi-byte tokens without compiling its Unicode classes (~100 M instructions) on every load.
    same(tk.pieceRanks('\u0085x'), [126, 227, 87]) &&
    same(tk.pieceRanks('\ufeffimport'), [5574, 561]) &&
    same(tk.pieceRanks(' os'), [1994]) &&
    tk.count('A'.repeat(100)) === 13
  );
}

/** The exact token count of a text and each line's share of it. */
export interface LineCosts {
  total: number;
  costs: Float64Array;
}

/** Counters whose work can also run as steps (util/steps.ts): the default o200k_base counter. */
const stepwise = new WeakMap<TokenCounter, { count: (text: string) => Steps<number>; lineCosts: (text: string, lines: string[]) => Steps<LineCosts> }>();

/** o200k_base, loaded on first use (its rank table is a few MB; browsers fetch it lazily). */
export function loadDefaultTokenCounter(): Promise<TokenCounter> {
  defaultCounter ??= loadO200k().then(
    (tk) => {
      function* steps(text: string, lines: string[]): Steps<LineCosts> {
        const costs = new Float64Array(lines.length);
        let line = 0;
        let lineEnd = lines.length ? lines[0].length : 0; // index of the '\n' ending `line`
        const total = yield* tk.tokenStartSteps(text, (pos) => {
          while (line < lines.length - 1 && pos > lineEnd) lineEnd += lines[++line].length + 1;
          costs[line]++;
        });
        return { total, costs };
      }
      const counter: TokenCounter = {
        name: 'o200k_base',
        count: (text: string) => tk.count(text),
        lineCosts: (text: string, lines: string[]) => runSteps(steps(text, lines)),
      };
      stepwise.set(counter, { count: (text) => tk.countSteps(text), lineCosts: steps });
      return counter;
    },
    (e: unknown) => {
      defaultCounter = null;
      throw new CtxpruneError('ASSET_LOAD_FAILED', `Could not load the o200k_base tokenizer: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    },
  );
  return defaultCounter;
}

/**
 * A caller's counter, checked on every call: a count that is not a non-negative integer, or a
 * counter that throws, is a typed INVALID_OPTION (an unchecked NaN or negative count made an
 * empty or over-budget output, and a throw escaped untyped).
 */
export function checkedCounter(counter: unknown): TokenCounter {
  if (typeof counter !== 'object' || counter === null || typeof (counter as TokenCounter).count !== 'function') {
    throw new CtxpruneError('INVALID_OPTION', 'tokenCounter must be an object with a count(text) method');
  }
  const c = counter as TokenCounter;
  // The library's own o200k_base counter, passed back in (the CLI's bench does): nothing to check.
  if (stepwise.has(c)) return c;
  const name = typeof c.name === 'string' ? c.name : 'custom';
  const check = (n: unknown, what: string): number => {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
      throw new CtxpruneError(
        'INVALID_OPTION',
        `tokenCounter ${name}: ${what} returned ${typeof n === 'number' ? String(n) : typeof n}; a token count must be a non-negative integer`,
      );
    }
    return n;
  };
  const call = <T>(what: string, f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof CtxpruneError) throw e;
      throw new CtxpruneError('INVALID_OPTION', `tokenCounter ${name}: ${what} threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  };
  const checked: TokenCounter = {
    name,
    count: (text) =>
      check(
        call('count', () => c.count(text)),
        'count',
      ),
  };
  if (typeof c.lineCosts === 'function') {
    const lineCosts = c.lineCosts.bind(c);
    (checked as { lineCosts?: TokenCounter['lineCosts'] }).lineCosts = (text, lines) => {
      const r = call('lineCosts', () => lineCosts(text, lines));
      if (typeof r !== 'object' || r === null || !(r.costs instanceof Float64Array) || r.costs.length !== lines.length) {
        throw new CtxpruneError('INVALID_OPTION', `tokenCounter ${name}: lineCosts must return { total, costs: Float64Array(lines.length) }`);
      }
      check(r.total, 'lineCosts total');
      for (const v of r.costs)
        if (!Number.isFinite(v) || v < 0) throw new CtxpruneError('INVALID_OPTION', `tokenCounter ${name}: lineCosts gave a line cost of ${v}`);
      return r;
    };
  }
  return checked;
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
  return runSteps(lineTokenCostSteps(lines, counter));
}

function* lineTokenCostSteps(lines: string[], counter: TokenCounter): Steps<Float64Array> {
  const costs = new Float64Array(lines.length);
  const cache = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    if (i % STEP_LINES === STEP_LINES - 1) yield;
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
export function measureTokens(text: string, lines: string[], counter: TokenCounter): LineCosts {
  return runSteps(measureSteps(text, lines, counter));
}

/** measureTokens with `pause()` between its steps (util/steps.ts: abort, yield). Same result. */
export function measureTokensAsync(text: string, lines: string[], counter: TokenCounter, pause?: Pause): Promise<LineCosts> {
  return runStepsAsync(measureSteps(text, lines, counter), pause);
}

function* measureSteps(text: string, lines: string[], counter: TokenCounter): Steps<LineCosts> {
  const steps = stepwise.get(counter);
  if (steps) return yield* steps.lineCosts(text, lines);
  // A caller's counter: its own calls are not cut, the per-line loop is.
  if (counter.lineCosts) return counter.lineCosts(text, lines);
  const total = counter.count(text);
  yield;
  return { total, costs: yield* lineTokenCostSteps(lines, counter) };
}

/** counter.count(text), as steps where the counter has them (the default one), else in one call. */
export function* countSteps(counter: TokenCounter, text: string): Steps<number> {
  const steps = stepwise.get(counter);
  return steps ? yield* steps.count(text) : counter.count(text);
}
