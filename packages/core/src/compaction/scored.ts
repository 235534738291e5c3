/**
 * The scored strategies (task_aware, mig, task_aware_mig): every evictable and protected message
 * offers cuts, the cuts are rated against the goal (or, for mig, the recent context), packed under
 * the budget, checked exactly, and the leftover tops up the best messages.
 */
import { noteOnce, type CompactionDegradation } from '../degradations.js';
import type { MigScore } from '../select/types.js';
import { latestUserIndex, type ResolvedGoal } from './goal.js';
import { documentEvidence, goalTermScores, namedScores, taskNamed, testReads } from './evidence.js';
import { floorBest } from './floor.js';
import { hookTimeout } from './hooks.js';
import { offersOf, type Offer } from './offers.js';
import { packUnits } from './packing.js';
import { applyAll, buildUnits, fuseCalls, groupOf, type Plan, type Unit } from './plan.js';
import { rateUnits } from './relevance.js';
import type { Ctx, State } from './state.js';
import { enforceLimit, topUp } from './topup.js';
import type { BlockDump, CompactionDump, CompactOptions } from './types.js';
import type { ResolvedOptions } from './validate.js';

/**
 * `selBudget` is what the evictable and the protected (`soft`) messages may take beyond the
 * evictable messages' placeholders. Each protected message keeps at least its smallest cut; its
 * longer cuts compete with everything else. Returns false (nothing decided) when even the
 * protected messages' smallest cuts do not fit.
 */
export async function scored(
  ctx: Ctx,
  evictable: number[],
  soft: number[],
  states: State[],
  opt: ResolvedOptions,
  options: CompactOptions,
  selBudget: number,
  dump: CompactionDump,
  degraded: CompactionDegradation[],
  g: ResolvedGoal,
): Promise<boolean> {
  const { messages } = ctx;
  // Goal (task-aware) or recent context (plain MIG).
  let goal: string;
  if (opt.strategy === 'mig') {
    const u = latestUserIndex(messages);
    goal = messages
      .filter((_, i) => i === u || (i > u && ctx.protectedBy[i] === 'tail'))
      .map((m) => m.content)
      .join('\n');
    dump.goalSource = 'recent_context';
  } else {
    goal = g.goal;
    dump.goalSource = g.source;
    for (const d of g.degraded) noteOnce(degraded, d);
  }
  dump.goal = goal;
  dump.relevanceBackend = options.relevance ? 'custom' : 'lexical-bm25';

  const fused = fuseCalls(ctx, evictable);
  const callOfResult = new Map([...fused].map(([c, r]) => [r, c]));
  const owners = evictable.filter((i) => !fused.has(i));
  const offers = new Map<number, Offer>();
  for (const i of [...owners, ...soft]) offers.set(i, await offersOf(ctx, i, goal, opt.levels));
  const softSet = new Set(soft);
  const mandatory = soft.reduce((a, i) => a + offers.get(i)!.cuts[0].tokens, 0);
  if (mandatory > selBudget) return false;

  const units = buildUnits(ctx, offers, owners, softSet, callOfResult, groupOf(messages, opt.groupBy, opt.turnWindow));
  const isQuery = (u: { msg: number }) => ctx.protectedBy[u.msg] === 'latest-user' && opt.strategy !== 'mig';
  // Whole messages by a line scorer's document score and by the files the transcript names
  // (evidence.ts); plain MIG has no goal, a relevance hook decides alone.
  const taskAware = opt.strategy !== 'mig' && !options.relevance;
  const docScore = taskAware ? await documentEvidence(options.documentScorer) : null;
  const { backend, docRel } = await rateUnits(
    goal,
    units,
    (i) => messages[i].content,
    isQuery,
    options.relevance,
    hookTimeout(options.hookTimeoutMs),
    degraded,
    docScore ?? undefined,
    taskAware
      ? {
          scores: (msgs) => namedScores(messages, ctx.pairs, msgs),
          weight: opt.mentionWeight,
          taskNamed: (msgs) => taskNamed(messages, ctx.pairs, msgs),
          goalTerms: (msgs) => goalTermScores(goal, messages, ctx.pairs, msgs),
          testReads: (msgs) => testReads(goal, ctx.pairs, msgs),
        }
      : undefined,
  );
  dump.relevanceBackend = backend;
  // The protected messages' smallest cuts are given (context, paid up front); the rest compete.
  const given = units.filter((u) => softSet.has(u.msg) && u.level === 0);
  const givenIds = new Set(given.map((u) => u.id));
  // Newest first: on equal scores the more recent message wins (recency as the tie-break).
  const candidates = units.filter((u) => !givenIds.has(u.id)).sort((a, b) => b.msg - a.msg || a.level - b.level);
  const packed = packUnits(ctx, opt, units, candidates, given, selBudget - mandatory);
  if (opt.strategy !== 'task_aware') Object.assign(dump, { groupBy: opt.groupBy, groups: packed.groups });
  const scores: Map<string, MigScore> = packed.scores;
  // The message rated best as a whole keeps its first cut (floor.ts), and nothing later takes it away.
  const migOf = (u: Unit) => scores.get(u.id)?.mig ?? u.relevance;
  const floored = opt.strategy !== 'mig' ? floorBest(units, packed.selected, docRel, owners, migOf, selBudget - mandatory) : null;

  const plan: Plan = {
    ctx,
    states,
    offers,
    owners,
    soft,
    softSet,
    fused,
    callOfResult,
    units,
    chosen: new Set(packed.selected),
    mine: [...evictable, ...soft],
    limit: selBudget + evictable.reduce((a, i) => a + ctx.placeholderCost[i], 0),
  };
  applyAll(plan);
  const priority = (u: Unit) => (u.id === floored ? Infinity : migOf(u));
  enforceLimit(plan, priority);
  await topUp(plan, priority, givenIds, goal);

  dump.blocks = units
    .filter((u) => !givenIds.has(u.id))
    .map((u): BlockDump => {
      const sc = scores.get(u.id);
      return {
        id: u.id,
        messageId: messages[u.msg].id,
        lines: u.lines,
        tokens: u.tokens,
        relevance: round(u.relevance),
        redundancy: sc ? round(sc.redundancy) : null,
        mig: sc ? round(sc.mig) : null,
        group: opt.strategy === 'task_aware' ? null : u.group,
        selected: plan.chosen.has(u.id),
      };
    });
  return true;
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
