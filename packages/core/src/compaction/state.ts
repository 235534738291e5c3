/**
 * What compaction decides for each message, and the per-call context every step reads: the
 * messages with their token counts, store keys and placeholder costs, which are protected and
 * why, and how calls and results pair up.
 */
import type { TokenCounter } from '../text/tokens.js';
import type { Cut, CutContext } from './cuts.js';
import type { Pairs } from './pairs.js';
import type { Message } from './types.js';

/** A message stays whole, becomes a placeholder, is cut line by line, or is left out. */
export type State = { kind: 'full' } | { kind: 'evicted' } | { kind: 'cut'; cut: Cut } | { kind: 'omitted' };

export interface Ctx {
  messages: Message[];
  counter: TokenCounter;
  tokens: number[];
  keys: string[];
  placeholderCost: number[];
  protectedBy: (string | null)[];
  pairs: Pairs;
  cut: CutContext;
}

/** Tokens message i takes in its state. */
export function costOf(ctx: Ctx, states: readonly State[], i: number): number {
  const s = states[i];
  return s.kind === 'full' ? ctx.tokens[i] : s.kind === 'evicted' ? ctx.placeholderCost[i] : s.kind === 'cut' ? s.cut.tokens : 0;
}
