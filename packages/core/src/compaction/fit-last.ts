/**
 * The last resort: the protected messages (system, latest user, tail) into `availAll` tokens once
 * everything older is evicted: water-filling (short ones stay whole), each longer one cut line by
 * line for the goal to its share; placeholders of older messages are left out (oldest first) when
 * even the protected messages' placeholders do not fit.
 */
import { degradation, type CompactionDegradation } from '../degradations.js';
import { cutMessage } from './cuts.js';
import type { Ctx, State } from './state.js';

export async function fitLast(
  ctx: Ctx,
  last: number[],
  older: number[],
  states: State[],
  availAll: number,
  goal: string,
  degraded: CompactionDegradation[],
): Promise<void> {
  const { tokens, placeholderCost } = ctx;
  const olderCost = (i: number) => (states[i].kind === 'omitted' ? 0 : states[i].kind === 'evicted' ? placeholderCost[i] : tokens[i]);
  const minLast = last.reduce((a, i) => a + Math.min(tokens[i], placeholderCost[i]), 0);
  let olderTotal = older.reduce((a, i) => a + olderCost(i), 0);
  let omitted = 0;
  for (const i of older) {
    if (olderTotal + minLast <= availAll) break;
    olderTotal -= olderCost(i);
    states[i] = { kind: 'omitted' };
    omitted++;
  }
  if (omitted) {
    degraded.push(
      degradation(
        'MESSAGES_OMITTED',
        `${omitted} older message(s) left out entirely (not even a placeholder fits the budget); their originals are in the store`,
      ),
    );
  }
  let remaining = availAll - olderTotal;
  const order = [...last].sort((a, b) => tokens[a] - tokens[b] || a - b);
  let cutCount = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const share = Math.floor(remaining / (order.length - k));
    if (tokens[i] <= share) {
      remaining -= tokens[i];
      continue;
    }
    const c = await cutMessage(ctx.messages[i], ctx.keys[i], goal, share, ctx.pairs.fileOf.get(i), ctx.cut);
    if (c) {
      states[i] = { kind: 'cut', cut: c };
      remaining -= c.tokens;
      cutCount++;
    } else if (placeholderCost[i] <= remaining) {
      states[i] = { kind: 'evicted' };
      remaining -= placeholderCost[i];
    } else states[i] = { kind: 'omitted' };
  }
  if (cutCount || order.some((i) => states[i].kind !== 'full')) {
    const rest = order.some((i) => states[i].kind === 'evicted' || states[i].kind === 'omitted') ? ', the rest evicted or left out' : '';
    degraded.push(
      degradation('PROTECTED_CUT', `the protected messages did not fit once everything older was evicted: ${cutCount} cut line by line for the goal${rest}`),
    );
  }
}
