/**
 * Choosing the units under the budget: by relevance alone (task_aware), by COMI's coarse-to-fine
 * MIG packing (mig), or by expected evidence per token discounted by MIG's redundancy
 * (task_aware_mig: gain.ts, select/gain.ts); the last two count redundancy against what stays anyway.
 */
import { packByGain, type GainScore } from '../select/gain.js';
import { packByRelevance, packMig } from '../select/mig.js';
import { shingleSets, termVectors } from '../select/similarity.js';
import type { GroupScore, MigScore, SelectUnit, Similarity } from '../select/types.js';
import type { Unit } from './plan.js';
import type { Ctx } from './state.js';
import type { ResolvedOptions } from './validate.js';

export interface Packed {
  selected: string[];
  /** MIG scores (empty for task_aware). */
  scores: Map<string, MigScore>;
  groups: GroupScore[] | null;
  /** task_aware_mig: each unit's expected gain and what it adds per token (empty otherwise). */
  gains: Map<string, GainScore>;
}

/**
 * `candidates` compete for `free` tokens; `given` (the protected messages' smallest cuts) are
 * already in. The latest user turn's cut is given but is the query, not redundancy context.
 */
export function packUnits(
  ctx: Ctx,
  opt: ResolvedOptions,
  units: readonly Unit[],
  candidates: readonly Unit[],
  given: readonly Unit[],
  free: number,
  /** task_aware_mig's expected gain per unit (gain.ts); null for the other strategies. */
  gains: ReadonlyMap<string, number> | null,
): Packed {
  if (opt.strategy === 'task_aware') return { selected: packByRelevance(candidates, free, given).selected, scores: new Map(), groups: null, gains: new Map() };
  const { sim, context } = redundancyContext(ctx, opt, units, given);
  if (opt.strategy === 'task_aware_mig') {
    if (!gains) throw new Error('task_aware_mig packs by expected gains: none were given');
    const r = packByGain(
      candidates.map((u) => ({ ...u, gain: gains.get(u.id) ?? 0 })),
      free,
      sim,
      { lambda: opt.lambda, context },
    );
    return { selected: r.selected, scores: r.scores, groups: null, gains: r.scores };
  }
  const r = packMig(candidates, free, sim, { lambda: opt.lambda, temperature: opt.temperature, context });
  return { selected: r.selected, scores: r.scores, groups: r.groups, gains: new Map() };
}

/**
 * Redundancy context: what stays in the transcript anyway (pinned messages, the protected
 * messages' smallest cuts), except the latest user turn, which is the query itself (a block that
 * repeats the request is relevant, not redundant). Cuts of one message hold different lines of it:
 * never redundant with each other.
 */
function redundancyContext(ctx: Ctx, opt: ResolvedOptions, units: readonly Unit[], given: readonly Unit[]): { sim: Similarity; context: SelectUnit[] } {
  const { messages } = ctx;
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
  for (const u of given) if (!givenCtx.includes(u)) context.push({ id: u.id, tokens: 0, relevance: 0, group: 'query' });
  const msgOf = new Map(units.map((u) => [u.id, u.msg]));
  const sim: Similarity = (a, b) =>
    b.group === 'query' || (msgOf.has(a.id) && msgOf.get(a.id) === msgOf.get(b.id)) ? 0 : simOf(textIndex.get(a.id)!, textIndex.get(b.id)!);
  return { sim, context };
}
