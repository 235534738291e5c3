/**
 * compact(messages, options): fit an agent transcript into a token budget.
 *
 * - reactive: evict whole tool outputs oldest first (then other old messages) — the baseline;
 * - task_aware: each message offers cuts (LaMR line pruning for the goal at 1/8, 1/4, 1/2 of its
 *   tokens, then the whole); the cuts most relevant to the goal are taken first;
 * - mig: COMI coarse-to-fine packing of the same cuts, MIG = relevance − redundancy, relevance to
 *   the recent context (latest user turn + protected tail) — no goal;
 * - task_aware_mig: the same packing with relevance to the goal.
 *
 * Only pinned messages are inviolable. System messages, the latest user message and the last
 * `protectedTail` messages (with the calls of results among them) are kept whole while the budget
 * allows; when even evicting everything else does not make room, they are pruned line by line for
 * the goal. The result never exceeds the budget unless the pinned messages alone do
 * (`pinnedOverBudget`). A tool call and its results are kept, cut or evicted together, and left
 * out together. Every evicted or pruned body goes to the returned store under the key its
 * placeholder names.
 *
 * The steps live in their own modules: protection.ts (what is protected), pairs.ts (call/result
 * pairing), reactive.ts, scored.ts (the scored strategies: offers.ts, plan.ts, relevance.ts,
 * packing.ts, floor.ts, topup.ts), fit-last.ts (cutting the protected messages), result.ts (the
 * output).
 */
import { degradation, noteOnce, type CompactionDegradation } from '../degradations.js';
import { checkedCounter, loadDefaultTokenCounter } from '../text/tokens.js';
import { evictedPlaceholder } from './blocks.js';
import { preparationPrefix } from './cuts.js';
import { fitLast } from './fit-last.js';
import { resolveGoal } from './goal.js';
import { pairConsistency, pairsOf } from './pairs.js';
import { protection } from './protection.js';
import { reactive } from './reactive.js';
import { buildResult } from './result.js';
import { scored } from './scored.js';
import { costOf, type Ctx, type State } from './state.js';
import { overflowKey } from './store.js';
import type { CompactOptions, CompactResult, CompactionDump, Message } from './types.js';
import { validateMessages, validateOptions } from './validate.js';

export async function compact(messages: Message[], options: CompactOptions): Promise<CompactResult> {
  validateMessages(messages);
  const opt = validateOptions(options);
  const counter = options.tokenCounter !== undefined ? checkedCounter(options.tokenCounter) : await loadDefaultTokenCounter();
  const budget = opt.budget;
  const degraded: CompactionDegradation[] = [];
  const tokens = messages.map((m) => counter.count(m.content));
  const keys = messages.map((m) => overflowKey(m.id, m.content));
  const pairs = pairsOf(messages, degraded);
  const ctx: Ctx = {
    messages,
    counter,
    tokens,
    keys,
    placeholderCost: messages.map((m, i) => counter.count(evictedPlaceholder(m, keys[i]))),
    protectedBy: protection(messages, opt.protectedTail, pairs),
    pairs,
    cut: {
      counter,
      scorer: options.scorer,
      degraded,
      used: [],
      prepared: new Map(),
      ...(options.preparations ? { shared: { cache: options.preparations, prefix: preparationPrefix(options.scorer, options.tokenCounter) } } : {}),
    },
  };
  const total = tokens.reduce((a, b) => a + b, 0);
  const sum = (ix: number[], f: (i: number) => number) => ix.reduce((a, i) => a + f(i), 0);
  const all = messages.map((_, i) => i);
  const pinned = all.filter((i) => ctx.protectedBy[i] === 'pinned');
  const last = all.filter((i) => ctx.protectedBy[i] && ctx.protectedBy[i] !== 'pinned');
  const unprotected = all.filter((i) => !ctx.protectedBy[i]);
  // A message no longer than its own placeholder is never worth evicting: it stays, unless the
  // budget cannot even hold the rest (then it is left out, see fitLast).
  const evictable = unprotected.filter((i) => tokens[i] > ctx.placeholderCost[i]);
  const small = unprotected.filter((i) => tokens[i] <= ctx.placeholderCost[i]);
  const pinnedTokens = sum(pinned, (i) => tokens[i]);
  const protectedTokens = pinnedTokens + sum(last, (i) => tokens[i]);
  const states: State[] = messages.map(() => ({ kind: 'full' }));
  const dump: CompactionDump = {
    strategy: opt.strategy,
    budget,
    tokenizer: counter.name,
    tokensBefore: total,
    tokensAfter: total,
    protectedTokens,
    pinnedTokens,
    overBudget: false,
    degraded,
    goal: null,
    goalSource: null,
    relevanceBackend: null,
    cutScorers: [],
    groupBy: null,
    groups: null,
    blocks: [],
    messages: [],
    kept: [],
    pruned: [],
    evicted: [],
  };

  if (total > budget) {
    const reserve = sum(evictable, (i) => ctx.placeholderCost[i]);
    const fixed = pinnedTokens + sum(small, (i) => tokens[i]) + reserve;
    const lastFull = sum(last, (i) => tokens[i]);
    let done = false;
    if (opt.strategy === 'reactive') {
      if (fixed + lastFull <= budget) {
        reactive(ctx, evictable, states, budget - fixed - lastFull);
        done = true;
      }
    } else {
      done = await scored(ctx, evictable, last, states, opt, options, budget - fixed, dump, degraded, await resolveGoal(messages, options));
    }
    if (!done) {
      // The task the cuts are made for: the goal (option or callback), else the latest user turn.
      const g = await resolveGoal(messages, options);
      // Even with everything older evicted the protected messages do not fit: cut them for the goal.
      for (const i of all) states[i] = { kind: 'full' };
      for (const i of evictable) states[i] = { kind: 'evicted' };
      if (opt.strategy !== 'reactive' && opt.strategy !== 'mig') Object.assign(dump, { goal: g.goal, goalSource: g.source });
      for (const d of g.degraded) noteOnce(degraded, d);
      await fitLast(
        ctx,
        last,
        [...evictable, ...small].sort((a, b) => a - b),
        states,
        budget - pinnedTokens,
        g.goal,
        degraded,
      );
      // What the protected messages could not use (a tail that is one long line can only be
      // evicted) goes back to the older messages, chosen as the strategy chooses them.
      const free = budget - fixed - sum(last, (i) => costOf(ctx, states, i));
      if (free > 0 && evictable.length && [...evictable, ...small].every((i) => states[i].kind !== 'omitted')) {
        for (const i of evictable) states[i] = { kind: 'full' };
        if (opt.strategy === 'reactive') reactive(ctx, evictable, states, free);
        else await scored(ctx, evictable, [], states, opt, options, free, dump, degraded, g);
      }
    }
  }
  pairConsistency(ctx, states);

  let after = sum(all, (i) => costOf(ctx, states, i));
  if (after > budget && pinnedTokens <= budget) {
    // Safety net (the accounting above makes it unreachable): leave out the oldest unpinned messages.
    for (const i of all) {
      if (after <= budget) break;
      if (ctx.protectedBy[i] === 'pinned' || states[i].kind === 'omitted') continue;
      after -= costOf(ctx, states, i);
      states[i] = { kind: 'omitted' };
    }
    degraded.push(degradation('MESSAGES_OMITTED', 'the budget could only be met by leaving messages out'));
    pairConsistency(ctx, states);
  }
  dump.cutScorers = ctx.cut.used;
  return buildResult(ctx, states, dump, degraded, budget, pinnedTokens);
}
