/**
 * What a message offers the selection: LaMR cuts of it for the query at a few fractions of its
 * tokens, of increasing size, and last the whole message.
 */
import { lineCount, splitLines } from '../text/lines.js';
import { cutMessage, type Cut } from './cuts.js';
import type { Ctx } from './state.js';

/** Messages under this many tokens offer only themselves whole. */
const MIN_CUT_TOKENS = 100;

export interface Offer {
  /** Cuts of increasing size; the last is the whole message (content = original). */
  cuts: Cut[];
}

export async function offersOf(ctx: Ctx, i: number, query: string, levels: number[]): Promise<Offer> {
  const m = ctx.messages[i];
  const n = lineCount(splitLines(m.content));
  const whole: Cut = { content: m.content, tokens: ctx.tokens[i], keptLines: Array.from({ length: n }, (_, k) => k + 1) };
  const cuts: Cut[] = [];
  if (ctx.tokens[i] >= MIN_CUT_TOKENS && n >= 4) {
    for (const f of levels) {
      const c = await cutMessage(m, ctx.keys[i], query, Math.floor(ctx.tokens[i] * f), ctx.pairs.fileOf.get(i), ctx.cut);
      const prev = cuts.length ? cuts[cuts.length - 1].tokens : ctx.placeholderCost[i];
      if (c && c.tokens > prev && c.tokens < ctx.tokens[i]) cuts.push(c);
    }
  }
  cuts.push(whole);
  return { cuts };
}
