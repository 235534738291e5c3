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
 */
import { checkedCounter, loadDefaultTokenCounter, type TokenCounter } from '../text/tokens.js';
import { lineCount, splitLines } from '../text/lines.js';
import { packByRelevance, packMig } from '../select/mig.js';
import { shingleSets, termVectors } from '../select/similarity.js';
import type { MigScore, SelectUnit } from '../select/types.js';
import { evictedPlaceholder } from './blocks.js';
import { cutMessage, pathArgument, type Cut, type CutContext } from './cuts.js';
import { latestUserIndex, resolveGoal } from './goal.js';
import { scoreRelevance } from './relevance.js';
import { hookTimeout } from './hooks.js';
import { OverflowStore, overflowKey } from './store.js';
import type {
  BlockDump, CompactOptions, CompactResult, CompactionDump, Message, MessageDump, MessageStatus,
} from './types.js';
import { validateMessages, validateOptions, type ResolvedOptions } from './validate.js';

type State = { kind: 'full' } | { kind: 'evicted' } | { kind: 'cut'; cut: Cut } | { kind: 'omitted' };

/** Messages under this many tokens offer only themselves whole. */
const MIN_CUT_TOKENS = 100;
/** Weight of the whole message's relevance in each of its cuts' relevance. */
const DOC_WEIGHT = 0.5;

interface Pairs {
  /** Result index → its call's message index. */
  callOf: Map<number, number>;
  /** Call message index → its results' indices. */
  resultsOf: Map<number, number[]>;
  /** Result index → the file its call names. */
  fileOf: Map<number, string>;
}

interface Ctx {
  messages: Message[];
  counter: TokenCounter;
  tokens: number[];
  keys: string[];
  placeholderCost: number[];
  protectedBy: (string | null)[];
  pairs: Pairs;
  cut: CutContext;
}

export function pairsOf(messages: readonly Message[], degraded: string[] = []): Pairs {
  const calls = new Map<string, { i: number; args: string }>();
  const callOf = new Map<number, number>();
  const resultsOf = new Map<number, number[]>();
  const fileOf = new Map<number, string>();
  messages.forEach((m, i) => {
    for (const c of m.toolCalls ?? []) calls.set(c.id, { i, args: c.arguments });
    if (m.toolCallId === undefined) return;
    const c = calls.get(m.toolCallId);
    if (!c) {
      degraded.push(`tool result ${m.id} names call ${m.toolCallId}, which no earlier message makes: compacted on its own`);
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

function protection(messages: Message[], tail: number, pairs: Pairs): (string | null)[] {
  const u = latestUserIndex(messages);
  const p = messages.map((m, i) => {
    if (m.pinned) return 'pinned';
    if (m.role === 'system') return 'system';
    if (i === u) return 'latest-user';
    if (i >= messages.length - tail) return 'tail';
    return null;
  });
  // A result in the tail brings its call along (a call without its result, or the reverse, is rejected by chat APIs).
  for (const [r, c] of pairs.callOf) if (p[r] && !p[c]) p[c] = 'tail';
  return p;
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
  const degraded: string[] = [];
  const tokens = messages.map((m) => counter.count(m.content));
  const keys = messages.map((m) => overflowKey(m.id, m.content));
  const pairs = pairsOf(messages, degraded);
  const ctx: Ctx = {
    messages, counter, tokens, keys,
    placeholderCost: messages.map((m, i) => counter.count(evictedPlaceholder(m, keys[i]))),
    protectedBy: protection(messages, opt.protectedTail, pairs),
    pairs,
    cut: { counter, scorer: options.scorer, degraded },
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
    strategy: opt.strategy, budget, tokenizer: counter.name, tokensBefore: total, tokensAfter: total,
    protectedTokens, pinnedTokens, overBudget: false, degraded, goal: null, goalSource: null, relevanceBackend: null,
    groupBy: null, groups: null, blocks: [], messages: [], kept: [], pruned: [], evicted: [],
  };

  if (total > budget) {
    const reserve = sum(evictable, (i) => ctx.placeholderCost[i]);
    const fixed = pinnedTokens + sum(small, (i) => tokens[i]) + reserve;
    const lastFull = sum(last, (i) => tokens[i]);
    let done = false;
    if (opt.strategy === 'reactive') {
      if (fixed + lastFull <= budget) { reactive(ctx, evictable, states, budget - fixed - lastFull); done = true; }
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
      for (const d of g.degraded) if (!degraded.includes(d)) degraded.push(d);
      await fitLast(ctx, last, [...evictable, ...small].sort((a, b) => a - b), states, budget - pinnedTokens, g.goal, degraded);
    }
  }
  pairConsistency(ctx, states);

  const costOf = (i: number): number => {
    const s = states[i];
    return s.kind === 'full' ? tokens[i] : s.kind === 'evicted' ? ctx.placeholderCost[i] : s.kind === 'cut' ? s.cut.tokens : 0;
  };
  let after = sum(all, costOf);
  if (after > budget && pinnedTokens <= budget) {
    // Safety net (the accounting above makes it unreachable): leave out the oldest unpinned messages.
    for (const i of all) {
      if (after <= budget) break;
      if (ctx.protectedBy[i] === 'pinned' || states[i].kind === 'omitted') continue;
      after -= costOf(i);
      states[i] = { kind: 'omitted' };
    }
    degraded.push('the budget could only be met by leaving messages out');
    pairConsistency(ctx, states);
    after = sum(all, costOf);
  }
  const store = new OverflowStore();
  const out: Message[] = [];
  const kept: string[] = [], pruned: string[] = [], evicted: string[] = [];
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
      if (s.kind === 'cut') { status = 'pruned'; pruned.push(m.id); } else { status = s.kind; evicted.push(m.id); }
    }
    const content = s.kind === 'full' ? m.content : s.kind === 'cut' ? s.cut.content : s.kind === 'evicted' ? evictedPlaceholder(m, keys[i]) : null;
    if (content !== null) out.push({ ...m, content });
    msgDump.push({
      id: m.id, role: m.role, ...(m.toolName !== undefined ? { toolName: m.toolName } : {}), status,
      ...(ctx.protectedBy[i] ? { protectedBy: ctx.protectedBy[i] } : {}),
      tokensBefore: tokens[i], tokensAfter: costOf(i),
      ...(key ? { key } : {}),
      ...(s.kind === 'cut' ? { prunedBy: 'line-pruner' as const } : {}),
    });
  });
  const overBudget = after > budget;
  if (overBudget) {
    degraded.push(`the pinned messages alone take ${pinnedTokens} tokens, over the budget of ${budget}: everything else was left out and the result is over budget`);
  }
  const pinnedOverBudget = overBudget ? { pinnedTokens, budget } : null;
  Object.assign(dump, { tokensAfter: after, overBudget, messages: msgDump, kept, pruned, evicted });
  return {
    messages: out, kept, pruned, evicted, store, tokensBefore: total, tokensAfter: after, budget, overBudget, pinnedOverBudget, degraded, dump,
  };
}

/**
 * A call and its results stay or go together: when one of them is left out, so are the others
 * (unless pinned); a call whose results are all evicted is evicted too when that saves tokens.
 */
function pairConsistency(ctx: Ctx, states: State[]): void {
  for (const [c, rs] of ctx.pairs.resultsOf) {
    const group = [c, ...rs];
    if (group.some((i) => states[i].kind === 'omitted')) {
      for (const i of group) if (ctx.protectedBy[i] !== 'pinned') states[i] = { kind: 'omitted' };
    } else if (
      rs.every((i) => states[i].kind === 'evicted') && states[c].kind === 'full' && !ctx.protectedBy[c] &&
      ctx.tokens[c] > ctx.placeholderCost[c]
    ) states[c] = { kind: 'evicted' };
  }
}

/** Baseline: oldest tool outputs first, then the oldest other unprotected messages. */
function reactive(ctx: Ctx, evictable: number[], states: State[], selBudget: number): void {
  const order = [
    ...evictable.filter((i) => ctx.messages[i].role === 'tool'),
    ...evictable.filter((i) => ctx.messages[i].role !== 'tool'),
  ];
  // Tokens over what evicting everything would cost.
  let cur = evictable.reduce((a, i) => a + ctx.tokens[i] - ctx.placeholderCost[i], 0);
  for (const i of order) {
    if (cur <= selBudget) break;
    states[i] = { kind: 'evicted' };
    cur -= ctx.tokens[i] - ctx.placeholderCost[i];
  }
}

/**
 * The protected messages (system, latest user, tail) into `avail` tokens once everything older is
 * evicted: water-filling (short ones stay whole), each longer one cut line by line for the goal
 * to its share; placeholders of older messages are left out (oldest first) when even the
 * protected messages' placeholders do not fit.
 */
async function fitLast(
  ctx: Ctx, last: number[], older: number[], states: State[], availAll: number, goal: string, degraded: string[],
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
  if (omitted) degraded.push(`${omitted} older message(s) left out entirely (not even a placeholder fits the budget); their originals are in the store`);
  let remaining = availAll - olderTotal;
  const order = [...last].sort((a, b) => tokens[a] - tokens[b] || a - b);
  let cutCount = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const share = Math.floor(remaining / (order.length - k));
    if (tokens[i] <= share) { remaining -= tokens[i]; continue; }
    const c = await cutMessage(ctx.messages[i], ctx.keys[i], goal, share, ctx.pairs.fileOf.get(i), ctx.cut);
    if (c) { states[i] = { kind: 'cut', cut: c }; remaining -= c.tokens; cutCount++; }
    else if (placeholderCost[i] <= remaining) { states[i] = { kind: 'evicted' }; remaining -= placeholderCost[i]; }
    else states[i] = { kind: 'omitted' };
  }
  if (cutCount || order.some((i) => states[i].kind !== 'full')) {
    degraded.push(`the protected messages did not fit once everything older was evicted: ${cutCount} cut line by line for the goal${order.some((i) => states[i].kind === 'evicted' || states[i].kind === 'omitted') ? ', the rest evicted or left out' : ''}`);
  }
}

interface Offer {
  /** Cuts of increasing size; the last is the whole message (content = original). */
  cuts: Cut[];
}

async function offersOf(ctx: Ctx, i: number, query: string, levels: number[]): Promise<Offer> {
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

/**
 * The scored strategies. `selBudget` is what the evictable and the protected (`soft`) messages may
 * take beyond the evictable messages' placeholders. Each protected message keeps at least its
 * smallest cut; its longer cuts compete with everything else. Returns false (nothing decided) when
 * even the protected messages' smallest cuts do not fit.
 */
async function scored(
  ctx: Ctx, evictable: number[], soft: number[], states: State[], opt: ResolvedOptions, options: CompactOptions,
  selBudget: number, dump: CompactionDump, degraded: string[], g: Awaited<ReturnType<typeof resolveGoal>>,
): Promise<boolean> {
  const { messages } = ctx;
  // Goal (task-aware) or recent context (plain MIG).
  let goal: string;
  if (opt.strategy === 'mig') {
    const u = latestUserIndex(messages);
    goal = messages.filter((_, i) => i === u || (i > u && ctx.protectedBy[i] === 'tail')).map((m) => m.content).join('\n');
    dump.goalSource = 'recent_context';
  } else {
    goal = g.goal;
    dump.goalSource = g.source;
    for (const d of g.degraded) if (!degraded.includes(d)) degraded.push(d);
  }
  dump.goal = goal;
  dump.relevanceBackend = options.relevance ? 'custom' : 'lexical-bm25';

  // A call travels with its (first) result: its text is paid for by the result's first cut.
  const fused = new Map<number, number>(); // call → result
  const evictableSet = new Set(evictable);
  for (const [c, rs] of ctx.pairs.resultsOf) {
    const r = rs.find((x) => evictableSet.has(x));
    if (evictableSet.has(c) && r !== undefined) fused.set(c, r);
  }
  const callOfResult = new Map([...fused].map(([c, r]) => [r, c]));
  const owners = evictable.filter((i) => !fused.has(i));
  const offers = new Map<number, Offer>();
  for (const i of [...owners, ...soft]) offers.set(i, await offersOf(ctx, i, goal, opt.levels));
  const softSet = new Set(soft);
  const mandatory = soft.reduce((a, i) => a + offers.get(i)!.cuts[0].tokens, 0);
  if (mandatory > selBudget) return false;

  interface U extends SelectUnit { msg: number; level: number; text: string; lines: [number, number] }
  const groups = groupOf(messages, opt.groupBy, opt.turnWindow);
  const units: U[] = [];
  for (const i of [...owners, ...soft].sort((a, b) => a - b)) {
    const { cuts } = offers.get(i)!;
    const lines = splitLines(messages[i].content);
    const c = callOfResult.get(i);
    let prevTokens = softSet.has(i) ? 0 : ctx.placeholderCost[i];
    let prevLines = new Set<number>();
    cuts.forEach((cut, k) => {
      const added = cut.keptLines.filter((n) => !prevLines.has(n));
      const extra = k === 0 && c !== undefined ? ctx.tokens[c] - ctx.placeholderCost[c] : 0;
      units.push({
        id: `${messages[i].id}#${k}`, msg: i, level: k, group: groups[i], relevance: 0,
        tokens: Math.max(1, cut.tokens - prevTokens + extra),
        ...(k > 0 ? { after: `${messages[i].id}#${k - 1}` } : {}),
        text: (k === 0 && c !== undefined ? messages[c].content + '\n' : '') + added.map((n) => lines[n - 1]).join('\n'),
        lines: added.length ? [added[0], added[added.length - 1]] : [1, 1],
      });
      prevTokens = cut.tokens;
      prevLines = new Set(cut.keptLines);
    });
  }
  // Relevance to the goal, normalised over everything but the request itself (which would set the
  // scale: it matches itself best) — its cuts get 1.
  const isQuery = (u: U) => ctx.protectedBy[u.msg] === 'latest-user' && opt.strategy !== 'mig';
  const scoredUnits = units.filter((u) => !isQuery(u));
  let relevance: number[];
  try {
    relevance = await scoreRelevance(goal, scoredUnits.map((u) => u.text), options.relevance, hookTimeout(options.hookTimeoutMs));
  } catch (e) {
    if (!options.relevance) throw e;
    degraded.push(`relevance hook failed (${e instanceof Error ? e.message : String(e)}): used the lexical scorer`);
    dump.relevanceBackend = 'lexical-bm25';
    relevance = await scoreRelevance(goal, scoredUnits.map((u) => u.text));
  }
  // A cut's worth also depends on the message it comes from: the goal's file deserves more of its
  // lines than a file that only shares a few words with it. Blend in the whole message's relevance.
  const msgs = [...new Set(scoredUnits.map((u) => u.msg))];
  const docRel = new Map<number, number>();
  const docScores = await scoreRelevance(goal, msgs.map((i) => messages[i].content), options.relevance, hookTimeout(options.hookTimeoutMs)).catch(() => msgs.map(() => 0));
  msgs.forEach((i, k) => docRel.set(i, docScores[k]));
  scoredUnits.forEach((u, k) => { u.relevance = (1 - DOC_WEIGHT) * relevance[k] + DOC_WEIGHT * (docRel.get(u.msg) ?? 0); });
  for (const u of units) if (isQuery(u)) u.relevance = 1;
  // The protected messages' smallest cuts are given (context, paid up front); the rest compete.
  const given = units.filter((u) => softSet.has(u.msg) && u.level === 0);
  const givenIds = new Set(given.map((u) => u.id));
  // Newest first: on equal scores the more recent message wins (recency as the tie-break).
  const candidates = units.filter((u) => !givenIds.has(u.id)).sort((a, b) => b.msg - a.msg || a.level - b.level);
  const free = selBudget - mandatory;
  let scores = new Map<string, MigScore>();
  let selected: string[];
  if (opt.strategy === 'task_aware') {
    selected = packByRelevance(candidates, free, given).selected;
  } else {
    dump.groupBy = opt.groupBy;
    // Redundancy context: what stays in the transcript anyway (pinned messages, the protected
    // messages' smallest cuts), except the latest user turn, which is the query itself (a block
    // that repeats the request is relevant, not redundant).
    const pinnedIdx = messages.map((_, i) => i).filter((i) => ctx.protectedBy[i] === 'pinned');
    const givenCtx = given.filter((u) => ctx.protectedBy[u.msg] !== 'latest-user');
    const texts = [...units.map((u) => u.text), ...pinnedIdx.map((i) => messages[i].content)];
    const simOf = opt.similarity === 'terms' ? termVectors(texts).cosine : shingleSets(texts).containment;
    const textIndex = new Map<string, number>(units.map((u, k) => [u.id, k]));
    const context: SelectUnit[] = [
      ...pinnedIdx.map((i, j) => {
        const id = `protected:${messages[i].id}`;
        textIndex.set(id, units.length + j);
        return { id, tokens: 0, relevance: 0, group: 'protected' };
      }),
      ...givenCtx.map((u) => ({ id: u.id, tokens: 0, relevance: 0, group: 'protected' })),
    ];
    // The latest user turn's smallest cut is given but not redundancy context.
    for (const u of given) if (!givenCtx.includes(u)) context.push({ id: u.id, tokens: 0, relevance: 0, group: 'query' });
    // Cuts of one message hold different lines of it: never redundant with each other.
    const msgOf = new Map(units.map((u) => [u.id, u.msg]));
    const sim = (a: SelectUnit, b: SelectUnit) =>
      (b.group === 'query' || (msgOf.has(a.id) && msgOf.get(a.id) === msgOf.get(b.id)) ? 0 : simOf(textIndex.get(a.id)!, textIndex.get(b.id)!));
    const r = packMig(candidates, free, sim, { lambda: opt.lambda, temperature: opt.temperature, context });
    selected = r.selected;
    scores = r.scores;
    dump.groups = r.groups;
  }
  const chosen = new Set(selected);
  const levelOf = (i: number): number => {
    let k = softSet.has(i) ? 0 : -1;
    for (const u of units) if (u.msg === i && chosen.has(u.id)) k = Math.max(k, u.level);
    return k;
  };
  const apply = (): void => {
    for (const i of [...owners, ...soft]) {
      const k = levelOf(i);
      const cuts = offers.get(i)!.cuts;
      states[i] = k < 0 ? { kind: 'evicted' } : k === cuts.length - 1 ? { kind: 'full' } : { kind: 'cut', cut: cuts[k] };
    }
    for (const [c, r] of fused) states[c] = states[r].kind === 'evicted' ? { kind: 'evicted' } : { kind: 'full' };
  };
  apply();
  // Exact check (a call shared by several results may be paid twice or not at all): drop the
  // lowest-priority last cuts while over.
  const limit = selBudget + evictable.reduce((a, i) => a + ctx.placeholderCost[i], 0);
  const mine = [...evictable, ...soft];
  const cost = (i: number) => {
    const s = states[i];
    return s.kind === 'full' ? ctx.tokens[i] : s.kind === 'cut' ? s.cut.tokens : s.kind === 'evicted' ? ctx.placeholderCost[i] : 0;
  };
  const priority = (u: U) => scores.get(u.id)?.mig ?? u.relevance;
  for (let used = mine.reduce((a, i) => a + cost(i), 0); used > limit; used = mine.reduce((a, i) => a + cost(i), 0)) {
    const leaves = units.filter((u) => chosen.has(u.id) && !units.some((v) => v.after === u.id && chosen.has(v.id)));
    if (!leaves.length) break;
    leaves.sort((a, b) => priority(a) - priority(b));
    chosen.delete(leaves[0].id);
    apply();
  }

  // Top-up: what the selection left unused goes to the messages whose next cut was left out, best
  // first — each is cut again to its current size plus the leftover (one more LaMR run). When the
  // leftover is short of that next cut, cuts of lower priority from other messages give way (the
  // swap pass of packMig, on a continuous size: the goal's file grows by what they held).
  const applyMsg = (i: number): void => {
    const k = levelOf(i);
    const cuts = offers.get(i)!.cuts;
    states[i] = k < 0 ? { kind: 'evicted' } : k === cuts.length - 1 ? { kind: 'full' } : { kind: 'cut', cut: cuts[k] };
    const c = callOfResult.get(i);
    if (c !== undefined) states[c] = states[i].kind === 'evicted' ? { kind: 'evicted' } : { kind: 'full' };
  };
  const grown = new Set<number>();
  let leftover = limit - mine.reduce((a, i) => a + cost(i), 0);
  const next = units
    .filter((u) => !chosen.has(u.id) && !givenIds.has(u.id) && (u.after === undefined || chosen.has(u.after) || givenIds.has(u.after)))
    .sort((a, b) => priority(b) - priority(a));
  for (const u of next) {
    const i = u.msg;
    const s = states[i];
    if (s.kind === 'full' || grown.has(i)) continue;
    // Give way: taken cuts of other messages, lower priority, nothing taken extends them, lowest first.
    const victims: U[] = [];
    let room = leftover;
    const leaves = units
      .filter((v) => v.msg !== i && !grown.has(v.msg) && chosen.has(v.id) && priority(v) < priority(u))
      .sort((a, b) => priority(a) - priority(b));
    for (const v of leaves) {
      if (room >= u.tokens) break;
      if (units.some((w) => w.after === v.id && chosen.has(w.id) && !victims.includes(w))) continue;
      victims.push(v);
      room += v.tokens;
    }
    if (room < Math.min(u.tokens, 8)) continue;
    if (room < u.tokens && victims.length === 0 && leftover < 8) continue;
    const before = new Map<number, State>();
    const touched = new Set(victims.map((v) => v.msg));
    for (const j of touched) {
      before.set(j, states[j]);
      const c = callOfResult.get(j);
      if (c !== undefined) before.set(c, states[c]);
    }
    for (const v of victims) chosen.delete(v.id);
    for (const j of touched) applyMsg(j);
    const free = limit - mine.reduce((a, k) => a + cost(k), 0);
    const cur = cost(i);
    const callExtra = s.kind === 'evicted' && callOfResult.has(i) ? ctx.tokens[callOfResult.get(i)!] - ctx.placeholderCost[callOfResult.get(i)!] : 0;
    const allot = cur + free - callExtra;
    let ok = false;
    if (allot >= ctx.tokens[i]) {
      states[i] = { kind: 'full' };
      ok = true;
    } else {
      const c = await cutMessage(messages[i], ctx.keys[i], goal, allot, ctx.pairs.fileOf.get(i), ctx.cut);
      // Worth it only if the message gains at least what the victims lose.
      if (c && c.tokens > cur && c.tokens - cur >= free - leftover) { states[i] = { kind: 'cut', cut: c }; ok = true; }
    }
    if (!ok) {
      for (const v of victims) chosen.add(v.id);
      for (const [j, st] of before) states[j] = st;
      continue;
    }
    if (callExtra) states[callOfResult.get(i)!] = { kind: 'full' };
    grown.add(i);
    leftover = limit - mine.reduce((a, k) => a + cost(k), 0);
  }

  dump.blocks = units.filter((u) => !givenIds.has(u.id)).map((u): BlockDump => {
    const sc = scores.get(u.id);
    return {
      id: u.id, messageId: messages[u.msg].id, lines: u.lines, tokens: u.tokens,
      relevance: round(u.relevance), redundancy: sc ? round(sc.redundancy) : null, mig: sc ? round(sc.mig) : null,
      group: opt.strategy === 'task_aware' ? null : u.group, selected: chosen.has(u.id),
    };
  });
  return true;
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
