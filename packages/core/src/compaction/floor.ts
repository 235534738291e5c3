/**
 * The best message is never starved (#17): the packing chooses units by MIG, and a large first cut
 * of the message rated best as a whole (its file's read, say 1/8 of 6,000 tokens) can lose to a
 * denser but smaller unit of another message (a grep listing that repeats the task's words), so
 * that the read the task is about is evicted while listings and distractors stay. After the
 * packing, the first cut of the message with the highest whole-message relevance is taken; the
 * chosen units of other messages that nothing extends give way, lowest priority first. When even
 * that does not make room, nothing changes. Pure: units, the selection and the scores in.
 */

export interface FloorUnit {
  id: string;
  msg: number;
  level: number;
  tokens: number;
  /** The unit this one extends (the previous cut of its message). */
  after?: string;
}

/**
 * Takes the first cut of the message in `candidates` whose `docRel` is highest into `selected`
 * (mutated) within `free` tokens, dropping other messages' leaves by `priority`, lowest first. Ties
 * go to the later message, as recency breaks ties elsewhere (of two copies of a read, MIG keeps the
 * newer). Returns the floored unit's id (also when it was selected already), or null when no
 * message is rated above 0 or its first cut cannot be made to fit.
 */
export function floorBest<U extends FloorUnit>(
  units: readonly U[],
  selected: string[],
  docRel: ReadonlyMap<number, number>,
  candidates: readonly number[],
  priority: (u: U) => number,
  free: number,
): string | null {
  let best = -1;
  for (const i of candidates) if (docRel.has(i) && (best < 0 || docRel.get(i)! >= docRel.get(best)!)) best = i;
  if (best < 0 || !(docRel.get(best)! > 0)) return null;
  const first = units.find((u) => u.msg === best && u.level === 0);
  if (!first) return null;
  if (selected.includes(first.id)) return first.id;
  const byId = new Map(units.map((u) => [u.id, u]));
  const pool = selected.filter((id) => byId.has(id));
  let used = pool.reduce((a, id) => a + byId.get(id)!.tokens, 0);
  const dropped: string[] = [];
  while (used + first.tokens > free) {
    const leaves = pool.map((id) => byId.get(id)!).filter((u) => u.msg !== best && !pool.some((id) => byId.get(id)!.after === u.id));
    if (leaves.length === 0) return null;
    let worst = leaves[0];
    for (const u of leaves) if (priority(u) < priority(worst)) worst = u;
    pool.splice(pool.indexOf(worst.id), 1);
    dropped.push(worst.id);
    used -= worst.tokens;
  }
  for (const id of dropped) selected.splice(selected.indexOf(id), 1);
  selected.push(first.id);
  return first.id;
}
