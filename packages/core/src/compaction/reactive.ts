/** The reactive baseline: evict whole tool outputs oldest first, then the oldest other unprotected messages. */
import type { Ctx, State } from './state.js';

export function reactive(ctx: Ctx, evictable: number[], states: State[], selBudget: number): void {
  const order = [...evictable.filter((i) => ctx.messages[i].role === 'tool'), ...evictable.filter((i) => ctx.messages[i].role !== 'tool')];
  // Tokens over what evicting everything would cost.
  let cur = evictable.reduce((a, i) => a + ctx.tokens[i] - ctx.placeholderCost[i], 0);
  for (const i of order) {
    if (cur <= selBudget) break;
    states[i] = { kind: 'evicted' };
    cur -= ctx.tokens[i] - ctx.placeholderCost[i];
  }
}
