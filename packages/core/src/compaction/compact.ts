/**
 * compact(messages, options): fit an agent transcript into a token budget.
 *
 * - reactive: evict whole tool outputs oldest first (then other old messages) — the baseline;
 * - task_aware: blocks scored against the goal (LLM sentence or latest user message), lowest
 *   relevance pruned first;
 * - mig: COMI coarse-to-fine packing, MIG = relevance − redundancy, relevance to the recent
 *   context (latest user turn + protected tail) — no goal;
 * - task_aware_mig: the same packing with relevance to the goal.
 *
 * Protected (never evicted or pruned): system messages, the latest user message, pinned
 * messages and the last `protectedTail` messages. Every evicted or pruned body goes to the
 * returned store under the key its placeholder names.
 */
import { checkedCounter, loadDefaultTokenCounter, type TokenCounter } from '../text/tokens.js';
import { packByRelevance, packMig } from '../select/mig.js';
import { shingleSets, termVectors } from '../select/similarity.js';
import type { MigScore, SelectUnit } from '../select/types.js';
import { evictedPlaceholder, gapMarker, renderPartial, splitBlocks, type Block } from './blocks.js';
import { latestUserIndex, resolveGoal } from './goal.js';
import { scoreRelevance } from './relevance.js';
import { hookTimeout } from './hooks.js';
import { OverflowStore, overflowKey } from './store.js';
import type {
  BlockDump, CompactOptions, CompactResult, CompactionDump, Message, MessageDump, MessageStatus,
} from './types.js';
import { validateMessages, validateOptions, type ResolvedOptions } from './validate.js';

type State = { kind: 'full' } | { kind: 'evicted' } | { kind: 'partial'; keep: Set<string> } | { kind: 'omitted' };

interface Ctx {
  messages: Message[];
  counter: TokenCounter;
  tokens: number[];
  keys: string[];
  placeholderCost: number[];
  protectedBy: (string | null)[];
  /** Blocks of each evictable message (filled by the scored strategies). */
  blocksOf: Map<number, Block[]>;
}

function protection(messages: Message[], tail: number): (string | null)[] {
  const u = latestUserIndex(messages);
  return messages.map((m, i) => {
    if (m.role === 'system') return 'system';
    if (i === u) return 'latest-user';
    if (m.pinned) return 'pinned';
    if (i >= messages.length - tail) return 'tail';
    return null;
  });
}

function groupOf(messages: Message[], by: ResolvedOptions['groupBy'], window: number): string[] {
  if (by === 'role') return messages.map((m) => (m.role === 'tool' ? `tool:${m.toolName ?? 'tool'}` : m.role));
  const out: string[] = [];
  let turn = -1;
  let label = '';
  messages.forEach((m, i) => {
    if (m.role !== 'tool' || turn < 0) {
      turn++;
      if (turn % window === 0) label = `turn:${messages[i].id}`;
    }
    out.push(label);
  });
  return out;
}

export async function compact(messages: Message[], options: CompactOptions): Promise<CompactResult> {
  validateMessages(messages);
  const opt = validateOptions(options);
  const counter = options.tokenCounter !== undefined ? checkedCounter(options.tokenCounter) : await loadDefaultTokenCounter();
  const budget = opt.budget;
  const tokens = messages.map((m) => counter.count(m.content));
  const keys = messages.map((m) => overflowKey(m.id, m.content));
  const ctx: Ctx = {
    messages,
    counter,
    tokens,
    keys,
    placeholderCost: messages.map((m, i) => counter.count(evictedPlaceholder(m, keys[i]))),
    protectedBy: protection(messages, opt.protectedTail),
    blocksOf: new Map(),
  };
  const total = tokens.reduce((a, b) => a + b, 0);
  const protectedTokens = tokens.reduce((a, t, i) => a + (ctx.protectedBy[i] ? t : 0), 0);
  // A message no longer than its own placeholder is never worth evicting: it stays (until the
  // budget cannot even hold the protected messages and the placeholders, see degradeAll).
  const unprotected = messages.map((_, i) => i).filter((i) => !ctx.protectedBy[i]);
  const evictable = unprotected.filter((i) => tokens[i] > ctx.placeholderCost[i]);
  const smallTokens = unprotected.reduce((a, i) => a + (tokens[i] > ctx.placeholderCost[i] ? 0 : tokens[i]), 0);
  const states: State[] = messages.map(() => ({ kind: 'full' }));
  const degraded: string[] = [];
  const dump: CompactionDump = {
    strategy: opt.strategy, budget, tokenizer: counter.name, tokensBefore: total, tokensAfter: total,
    protectedTokens, overBudget: false, degraded, goal: null, goalSource: null, relevanceBackend: null,
    groupBy: null, groups: null, blocks: [], messages: [], kept: [], pruned: [], evicted: [],
  };

  if (total > budget) {
    const reserve = evictable.reduce((a, i) => a + ctx.placeholderCost[i], 0);
    if (protectedTokens + smallTokens + reserve > budget) {
      degradeAll(ctx, unprotected, states, budget, protectedTokens, degraded);
    } else if (opt.strategy === 'reactive') {
      reactive(ctx, evictable, states, budget, total);
    } else {
      await scored(ctx, evictable, states, opt, options, budget - protectedTokens - smallTokens - reserve, dump, degraded);
    }
  }

  // Render, then the defined guarantees: within budget unless the protected messages alone exceed it.
  const rendered = await render(ctx, states, options, dump, degraded);
  let after = rendered.reduce((a, r) => a + (r ? r.tokens : 0), 0);
  if (after > budget) {
    // Safety net (the exact accounting above should make it unreachable): evict oldest first.
    for (const i of evictable) {
      if (after <= budget) break;
      if (states[i].kind === 'evicted' || states[i].kind === 'omitted') continue;
      states[i] = { kind: 'evicted' };
      after += ctx.placeholderCost[i] - (rendered[i]?.tokens ?? 0);
      rendered[i] = { content: evictedPlaceholder(messages[i], keys[i]), tokens: ctx.placeholderCost[i] };
    }
  }
  const store = new OverflowStore();
  const out: Message[] = [];
  const kept: string[] = [], pruned: string[] = [], evicted: string[] = [];
  const msgDump: MessageDump[] = [];
  messages.forEach((m, i) => {
    const s = states[i];
    const r = rendered[i];
    let status: MessageStatus;
    let key: string | undefined;
    if (s.kind === 'full') {
      status = ctx.protectedBy[i] ? 'protected' : 'kept';
      kept.push(m.id);
    } else {
      key = store.put(m.id, m.content);
      if (s.kind === 'partial') { status = 'pruned'; pruned.push(m.id); } else { status = s.kind; evicted.push(m.id); }
    }
    if (r) out.push({ ...m, content: r.content });
    msgDump.push({
      id: m.id, role: m.role, ...(m.toolName !== undefined ? { toolName: m.toolName } : {}), status,
      ...(ctx.protectedBy[i] ? { protectedBy: ctx.protectedBy[i]! } : {}),
      tokensBefore: tokens[i], tokensAfter: r ? r.tokens : 0,
      ...(key ? { key } : {}),
      ...(r?.prunedBy ? { prunedBy: r.prunedBy } : {}),
    });
  });
  const overBudget = after > budget;
  if (overBudget) {
    degraded.push(`the protected messages alone take ${protectedTokens} tokens, over the budget of ${budget}: everything else was evicted and the result is over budget`);
  }
  Object.assign(dump, { tokensAfter: after, overBudget, messages: msgDump, kept, pruned, evicted });
  return { messages: out, kept, pruned, evicted, store, tokensBefore: total, tokensAfter: after, budget, overBudget, degraded, dump };
}

/** Protected + placeholders do not fit: evict everything evictable, then leave out placeholders oldest first. */
function degradeAll(ctx: Ctx, unprotected: number[], states: State[], budget: number, protectedTokens: number, degraded: string[]): void {
  let cur = protectedTokens;
  for (const i of unprotected) {
    if (ctx.tokens[i] > ctx.placeholderCost[i]) states[i] = { kind: 'evicted' };
    cur += Math.min(ctx.tokens[i], ctx.placeholderCost[i]);
  }
  let omitted = 0;
  for (const i of unprotected) {
    if (cur <= budget) break;
    cur -= Math.min(ctx.tokens[i], ctx.placeholderCost[i]);
    states[i] = { kind: 'omitted' };
    omitted++;
  }
  if (omitted) {
    degraded.push(`${omitted} evicted message(s) left out entirely (not even a placeholder fits the budget); their originals are in the store`);
  }
}

/** Baseline: oldest tool outputs first, then the oldest other unprotected messages. */
function reactive(ctx: Ctx, evictable: number[], states: State[], budget: number, total: number): void {
  const order = [
    ...evictable.filter((i) => ctx.messages[i].role === 'tool'),
    ...evictable.filter((i) => ctx.messages[i].role !== 'tool'),
  ];
  let cur = total;
  for (const i of order) {
    if (cur <= budget) break;
    states[i] = { kind: 'evicted' };
    cur -= ctx.tokens[i] - ctx.placeholderCost[i];
  }
}

async function scored(
  ctx: Ctx, evictable: number[], states: State[], opt: ResolvedOptions, options: CompactOptions,
  selBudget: number, dump: CompactionDump, degraded: string[],
): Promise<void> {
  const { messages, counter } = ctx;
  // Goal (task-aware) or recent context (plain MIG).
  let goal: string;
  if (opt.strategy === 'mig') {
    const u = latestUserIndex(messages);
    const recent = messages
      .map((m, i) => ({ m, i }))
      .filter(({ i }) => i === u || (i > u && ctx.protectedBy[i] === 'tail'))
      .map(({ m }) => m.content);
    goal = recent.join('\n');
    dump.goalSource = 'recent_context';
  } else {
    const g = await resolveGoal(messages, options);
    goal = g.goal;
    dump.goalSource = g.source;
    degraded.push(...g.degraded);
  }
  dump.goal = goal;
  dump.relevanceBackend = options.relevance ? 'custom' : 'lexical-bm25';

  const blocks: Block[] = evictable.flatMap((i) => splitBlocks(messages[i], i, opt.blockLines));
  const blockTokens = blocks.map((b) => counter.count(b.text + '\n'));
  let relevance: number[];
  try {
    relevance = await scoreRelevance(goal, blocks.map((b) => b.text), options.relevance, hookTimeout(options.hookTimeoutMs));
  } catch (e) {
    if (!options.relevance) throw e;
    degraded.push(`relevance hook failed (${e instanceof Error ? e.message : String(e)}): used the lexical scorer`);
    dump.relevanceBackend = 'lexical-bm25';
    relevance = await scoreRelevance(goal, blocks.map((b) => b.text));
  }
  const gapCost = counter.count(gapMarker(999, ctx.keys[0] ?? 'ovf_00000000') + '\n');
  const groups = groupOf(messages, opt.groupBy, opt.turnWindow);
  const blockCount = new Map<number, number>();
  for (const b of blocks) blockCount.set(b.messageIndex, (blockCount.get(b.messageIndex) ?? 0) + 1);
  // Packing cost: the block, plus a gap marker when its message has several blocks (conservative;
  // the exact pass below gives back what the model over-counted).
  const units: SelectUnit[] = blocks.map((b, k) => ({
    id: b.id, tokens: blockTokens[k] + (blockCount.get(b.messageIndex)! > 1 ? gapCost : 0),
    relevance: relevance[k], group: groups[b.messageIndex],
  }));
  // Newest first: on equal scores the more recent block wins (recency as the tie-break).
  const order = units.map((_, k) => k).reverse();
  const candidates = order.map((k) => units[k]);
  const unitIndex = new Map(units.map((u, k) => [u.id, k]));
  let scores = new Map<string, MigScore>();
  let selected: string[];
  if (opt.strategy === 'task_aware') {
    selected = packByRelevance(candidates, selBudget).selected;
  } else {
    dump.groupBy = opt.groupBy;
    // Redundancy context: what stays in the transcript anyway, except the latest user turn, which
    // is the query itself (a block that repeats the request is relevant, not redundant).
    const protectedIdx = messages.map((_, i) => i).filter((i) => ctx.protectedBy[i] && ctx.protectedBy[i] !== 'latest-user');
    const texts = [...blocks.map((b) => b.text), ...protectedIdx.map((i) => messages[i].content)];
    const simOf = opt.similarity === 'terms' ? termVectors(texts).cosine : shingleSets(texts).containment;
    const textIndex = new Map<string, number>(units.map((u, k) => [u.id, k]));
    const context: SelectUnit[] = protectedIdx.map((i, j) => {
      const id = `protected:${messages[i].id}`;
      textIndex.set(id, blocks.length + j);
      return { id, tokens: 0, relevance: 0, group: 'protected' };
    });
    const sim = (a: SelectUnit, b: SelectUnit) => simOf(textIndex.get(a.id)!, textIndex.get(b.id)!);
    const r = packMig(candidates, selBudget, sim, { lambda: opt.lambda, temperature: opt.temperature, context });
    selected = r.selected;
    scores = r.scores;
    dump.groups = r.groups;
  }
  const keepByMsg = new Map<number, Set<string>>();
  for (const id of selected) {
    const b = blocks[unitIndex.get(id)!];
    let s = keepByMsg.get(b.messageIndex);
    if (!s) keepByMsg.set(b.messageIndex, (s = new Set()));
    s.add(id);
  }
  const blocksOf = ctx.blocksOf;
  for (const b of blocks) {
    let l = blocksOf.get(b.messageIndex);
    if (!l) blocksOf.set(b.messageIndex, (l = []));
    l.push(b);
  }
  const setState = (i: number): void => {
    const keep = keepByMsg.get(i);
    const all = blocksOf.get(i) ?? [];
    if (!keep || keep.size === 0) states[i] = { kind: 'evicted' };
    else if (keep.size === all.length) states[i] = { kind: 'full' };
    else states[i] = { kind: 'partial', keep: new Set(keep) };
  };
  for (const i of evictable) setState(i);

  // Cost model: blocks add up (each counted with its newline), one marker per gap. Fill the
  // slack the conservative packing cost (a marker per unit) left, then check exactly.
  const tokenOf = new Map(blocks.map((b, k) => [b.id, blockTokens[k]]));
  const approxCost = (i: number): number => {
    const s = states[i];
    if (s.kind === 'full') return ctx.tokens[i];
    if (s.kind === 'evicted') return ctx.placeholderCost[i];
    if (s.kind === 'omitted') return 0;
    let c = 0, gaps = 0, inGap = false;
    for (const b of blocksOf.get(i)!) {
      if (s.keep.has(b.id)) { c += tokenOf.get(b.id)!; inGap = false; } else if (!inGap) { gaps++; inGap = true; }
    }
    return c + gaps * gapCost;
  };
  const exactCost = (i: number): number => {
    const s = states[i];
    if (s.kind !== 'partial') return approxCost(i);
    return counter.count(renderPartial(messages[i], blocksOf.get(i)!, s.keep, ctx.keys[i]));
  };
  const limit = budget0(selBudget, evictable, ctx);
  const cost = new Map(evictable.map((i) => [i, approxCost(i)]));
  let used = [...cost.values()].reduce((a, b) => a + b, 0);
  const priority = (id: string): number => scores.get(id)?.mig ?? units[unitIndex.get(id)!].relevance;
  const chosen = new Set(selected);
  const toggle = (id: string, on: boolean): number => {
    const i = blocks[unitIndex.get(id)!].messageIndex;
    let s = keepByMsg.get(i);
    if (!s) keepByMsg.set(i, (s = new Set()));
    if (on) s.add(id); else s.delete(id);
    setState(i);
    return i;
  };
  // Newest first before the (stable) sort: ties go to the more recent block here too.
  const rest = candidates.map((u) => u.id).filter((id) => !chosen.has(id)).sort((a, b) => priority(b) - priority(a));
  for (const id of rest) {
    const i0 = blocks[unitIndex.get(id)!].messageIndex;
    if (limit - used + cost.get(i0)! < tokenOf.get(id)!) continue; // cannot fit even if it replaced the whole message
    const i = toggle(id, true);
    const c = approxCost(i);
    if (used + c - cost.get(i)! <= limit) {
      used += c - cost.get(i)!;
      cost.set(i, c);
      chosen.add(id);
    } else toggle(id, false);
  }
  // Exact: tokenizers merge differently at joins; drop the lowest-priority blocks while over.
  for (const i of evictable) cost.set(i, exactCost(i));
  used = [...cost.values()].reduce((a, b) => a + b, 0);
  if (used > limit) {
    for (const id of [...chosen].sort((a, b) => priority(a) - priority(b))) {
      if (used <= limit) break;
      const i = toggle(id, false);
      chosen.delete(id);
      const c = exactCost(i);
      used += c - cost.get(i)!;
      cost.set(i, c);
    }
  }

  dump.blocks = blocks.map((b, k): BlockDump => {
    const sc = scores.get(b.id);
    return {
      id: b.id, messageId: messages[b.messageIndex].id, lines: [b.start + 1, b.end], tokens: blockTokens[k],
      relevance: round(relevance[k]), redundancy: sc ? round(sc.redundancy) : null, mig: sc ? round(sc.mig) : null,
      group: opt.strategy === 'task_aware' ? null : units[k].group, selected: chosen.has(b.id),
    };
  });
}

/** Tokens the evictable messages may take in all: the selection budget plus every placeholder's reserve. */
function budget0(selBudget: number, evictable: number[], ctx: Ctx): number {
  return selBudget + evictable.reduce((a, i) => a + ctx.placeholderCost[i], 0);
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

interface Rendered { content: string; tokens: number; prunedBy?: 'blocks' | 'line-pruner' }

async function render(
  ctx: Ctx, states: State[], options: CompactOptions, dump: CompactionDump, degraded: string[],
): Promise<(Rendered | null)[]> {
  const { messages, counter } = ctx;
  const out: (Rendered | null)[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const s = states[i];
    if (s.kind === 'full') out.push({ content: m.content, tokens: ctx.tokens[i] });
    else if (s.kind === 'evicted') out.push({ content: evictedPlaceholder(m, ctx.keys[i]), tokens: ctx.placeholderCost[i] });
    else if (s.kind === 'omitted') out.push(null);
    else {
      const blocks = ctx.blocksOf.get(i)!;
      const text = renderPartial(m, blocks, s.keep, ctx.keys[i]);
      const t = counter.count(text);
      let r: Rendered = { content: text, tokens: t, prunedBy: 'blocks' };
      if (options.pruneText && m.role === 'tool') {
        const footer = `[pruned by line pruner; use read_overflow ${ctx.keys[i]} for the full output]`;
        const allot = t - counter.count('\n' + footer);
        if (allot > 0) {
          try {
            const p = await options.pruneText(m.content, dump.goal ?? '', allot);
            const content = `${p.text}\n${footer}`;
            const pt = counter.count(content);
            if (pt <= t) r = { content, tokens: pt, prunedBy: 'line-pruner' };
          } catch (e) {
            degraded.push(`line pruner failed on ${m.id} (${e instanceof Error ? e.message : String(e)}): kept the selected blocks`);
          }
        }
      }
      out.push(r);
    }
  }
  return out;
}
