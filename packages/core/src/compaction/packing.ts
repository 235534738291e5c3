/**
 * Choosing the units under the budget: by relevance alone (task_aware), or by COMI's
 * coarse-to-fine MIG packing (mig, task_aware_mig) with redundancy against what stays anyway.
 */
import { packByRelevance, packMig } from '../select/mig.js';
import { shingleSets, termVectors } from '../select/similarity.js';
import type { GroupScore, MigScore, SelectUnit } from '../select/types.js';
import type { Unit } from './plan.js';
import type { Ctx } from './state.js';
import type { ResolvedOptions } from './validate.js';

export interface Packed {
  selected: string[];
  /** MIG scores (empty for task_aware). */
  scores: Map<string, MigScore>;
  groups: GroupScore[] | null;
}

/**
 * `candidates` compete for `free` tokens; `given` (the protected messages' smallest cuts) are
 * already in. The latest user turn's cut is given but is the query, not redundancy context.
 */
export function packUnits(ctx: Ctx, opt: ResolvedOptions, units: readonly Unit[], candidates: readonly Unit[], given: readonly Unit[], free: number): Packed {
  if (opt.strategy === 'task_aware') return { selected: packByRelevance(candidates, free, given).selected, scores: new Map(), groups: null };
  const { messages } = ctx;
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
  for (const u of given) if (!givenCtx.includes(u)) context.push({ id: u.id, tokens: 0, relevance: 0, group: 'query' });
  // Cuts of one message hold different lines of it: never redundant with each other.
  const msgOf = new Map(units.map((u) => [u.id, u.msg]));
  const sim = (a: SelectUnit, b: SelectUnit) =>
    b.group === 'query' || (msgOf.has(a.id) && msgOf.get(a.id) === msgOf.get(b.id)) ? 0 : simOf(textIndex.get(a.id)!, textIndex.get(b.id)!);
  const r = packMig(candidates, free, sim, { lambda: opt.lambda, temperature: opt.temperature, context });
  return { selected: r.selected, scores: r.scores, groups: r.groups };
}
