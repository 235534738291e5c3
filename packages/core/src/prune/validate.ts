/** Input and option checks: bad input becomes a typed error before any work starts. */
import { CtxpruneError } from '../errors.js';
import { ELISION_STYLES, type ElisionStyle } from '../text/elision.js';
import { refuseUnknownOptions } from '../util/options.js';
import type { PruneOptions } from './types.js';

export const MAX_INPUT_CHARS = 8 * 1024 * 1024;

export function validateText(text: unknown): asserts text is string {
  if (typeof text !== 'string') throw new CtxpruneError('INVALID_OPTION', `text must be a string, got ${typeof text}`);
  if (text.length === 0) throw new CtxpruneError('EMPTY_INPUT', 'Nothing to prune: the input text is empty.');
  if (text.length > MAX_INPUT_CHARS) {
    throw new CtxpruneError('INPUT_TOO_LARGE', `Input is ${(text.length / 1048576).toFixed(1)} MB; the limit is ${MAX_INPUT_CHARS / 1048576} MB of text.`);
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    throw new CtxpruneError('BINARY_INPUT', `Input looks binary (NUL byte at offset ${nul}); ctxprune prunes text files only.`);
  }
}

/** Every option prune() reads (a Record, so that the compiler keeps it equal to PruneOptions). */
const OPTION_KEYS: Record<keyof PruneOptions, true> = {
  query: true,
  ratio: true,
  tokens: true,
  language: true,
  fileName: true,
  scorer: true,
  tokenCounter: true,
  ablation: true,
  elision: true,
  signal: true,
  tuning: true,
};

/** A key prune() does not read is refused (`budget` for `tokens` would otherwise prune at 4×). */
export function checkOptionKeys(options: object): void {
  refuseUnknownOptions(options, OPTION_KEYS);
}

/** The token budget for an input of `originalTokens`. */
export function resolveBudget(opts: Pick<PruneOptions, 'ratio' | 'tokens'>, originalTokens: number): number {
  if (opts.tokens !== undefined && opts.tokens !== null) {
    const t = opts.tokens;
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) {
      throw new CtxpruneError('INVALID_BUDGET', `tokens must be a positive finite number, got ${String(t)}`);
    }
    return Math.floor(t);
  }
  const r = opts.ratio ?? 4;
  if (typeof r !== 'number' || !Number.isFinite(r) || r < 1) {
    throw new CtxpruneError('INVALID_BUDGET', `ratio must be a finite number ≥ 1 (4 keeps a quarter of the tokens), got ${String(r)}`);
  }
  return Math.floor(originalTokens / r);
}

/** The marker style, default 'bare'. */
export function resolveElision(style: unknown): ElisionStyle {
  if (style === undefined || style === null) return 'bare';
  if (typeof style === 'string' && (ELISION_STYLES as readonly string[]).includes(style)) return style as ElisionStyle;
  throw new CtxpruneError('INVALID_OPTION', `elision must be one of ${ELISION_STYLES.join(', ')}, got ${JSON.stringify(style)}`);
}

export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CtxpruneError('ABORTED', 'Pruning was cancelled.');
}
