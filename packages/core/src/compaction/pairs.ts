/**
 * Tool-call pairing: which result answers which call (and the file its call names), and the rule
 * that a call and its results are kept, cut or evicted together, and left out together.
 */
import { degradation, type CompactionDegradation } from '../degradations.js';
import { pathArgument } from './cuts.js';
import type { Ctx, State } from './state.js';
import type { Message } from './types.js';

export interface Pairs {
  /** Result index → its call's message index. */
  callOf: Map<number, number>;
  /** Call message index → its results' indices. */
  resultsOf: Map<number, number[]>;
  /** Result index → the file its call names. */
  fileOf: Map<number, string>;
}

export function pairsOf(messages: readonly Message[], degraded: CompactionDegradation[] = []): Pairs {
  const calls = new Map<string, { i: number; args: string }>();
  const callOf = new Map<number, number>();
  const resultsOf = new Map<number, number[]>();
  const fileOf = new Map<number, string>();
  messages.forEach((m, i) => {
    for (const c of m.toolCalls ?? []) calls.set(c.id, { i, args: c.arguments });
    if (m.toolCallId === undefined) return;
    const c = calls.get(m.toolCallId);
    if (!c) {
      degraded.push(degradation('ORPHAN_TOOL_RESULT', `tool result ${m.id} names call ${m.toolCallId}, which no earlier message makes: compacted on its own`));
      return;
    }
    callOf.set(i, c.i);
    let l = resultsOf.get(c.i);
    if (!l) resultsOf.set(c.i, (l = []));
    l.push(i);
    const f = pathArgument(c.args);
    if (f) fileOf.set(i, f);
  });
  return { callOf, resultsOf, fileOf };
}

/**
 * A call and its results stay or go together: when one of them is left out, so are the others
 * (unless pinned); a call whose results are all evicted is evicted too when that saves tokens.
 */
export function pairConsistency(ctx: Ctx, states: State[]): void {
  for (const [c, rs] of ctx.pairs.resultsOf) {
    const group = [c, ...rs];
    if (group.some((i) => states[i].kind === 'omitted')) {
      for (const i of group) if (ctx.protectedBy[i] !== 'pinned') states[i] = { kind: 'omitted' };
    } else if (rs.every((i) => states[i].kind === 'evicted') && states[c].kind === 'full' && !ctx.protectedBy[c] && ctx.tokens[c] > ctx.placeholderCost[c])
      states[c] = { kind: 'evicted' };
  }
}
