/**
 * The result from the decided states: the compacted messages (placeholders and cuts in place,
 * omitted ones left out), the ids per status, the store holding the original of everything evicted
 * or cut, and the per-message dump.
 */
import { degradation, type CompactionDegradation } from '../degradations.js';
import { evictedPlaceholder } from './blocks.js';
import { costOf, type Ctx, type State } from './state.js';
import { OverflowStore } from './store.js';
import type { CompactResult, CompactionDump, Message, MessageDump, MessageStatus } from './types.js';

export function buildResult(
  ctx: Ctx,
  states: readonly State[],
  dump: CompactionDump,
  degraded: CompactionDegradation[],
  budget: number,
  pinnedTokens: number,
): CompactResult {
  const { messages, tokens, keys } = ctx;
  const total = tokens.reduce((a, b) => a + b, 0);
  const after = messages.reduce((a, _, i) => a + costOf(ctx, states, i), 0);
  const store = new OverflowStore();
  const out: Message[] = [];
  const kept: string[] = [],
    pruned: string[] = [],
    evicted: string[] = [];
  const msgDump: MessageDump[] = [];
  messages.forEach((m, i) => {
    const s = states[i];
    let status: MessageStatus;
    let key: string | undefined;
    if (s.kind === 'full') {
      status = ctx.protectedBy[i] ? 'protected' : 'kept';
      kept.push(m.id);
    } else {
      key = store.put(m.id, m.content);
      if (s.kind === 'cut') {
        status = 'pruned';
        pruned.push(m.id);
      } else {
        status = s.kind;
        evicted.push(m.id);
      }
    }
    const content = s.kind === 'full' ? m.content : s.kind === 'cut' ? s.cut.content : s.kind === 'evicted' ? evictedPlaceholder(m, keys[i]) : null;
    if (content !== null) out.push({ ...m, content });
    msgDump.push({
      id: m.id,
      role: m.role,
      ...(m.toolName !== undefined ? { toolName: m.toolName } : {}),
      status,
      ...(ctx.protectedBy[i] ? { protectedBy: ctx.protectedBy[i] } : {}),
      tokensBefore: tokens[i],
      tokensAfter: costOf(ctx, states, i),
      ...(key ? { key } : {}),
      ...(s.kind === 'cut' ? { prunedBy: 'line-pruner' as const } : {}),
    });
  });
  const overBudget = after > budget;
  if (overBudget) {
    degraded.push(
      degradation(
        'PINNED_OVER_BUDGET',
        `the pinned messages alone take ${pinnedTokens} tokens, over the budget of ${budget}: everything else was left out and the result is over budget`,
      ),
    );
  }
  const pinnedOverBudget = overBudget ? { pinnedTokens, budget } : null;
  Object.assign(dump, { tokensAfter: after, overBudget, messages: msgDump, kept, pruned, evicted });
  return {
    messages: out,
    kept,
    pruned,
    evicted,
    store,
    tokensBefore: total,
    tokensAfter: after,
    budget,
    overBudget,
    pinnedOverBudget,
    degraded,
    dump,
  };
}
