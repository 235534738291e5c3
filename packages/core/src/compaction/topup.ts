/**
 * After the packing: the exact check, then the top-up. The packing counts a call shared by several
 * results once per result or not at all, so the lowest-priority last cuts are dropped while the
 * plan is over its limit. Then what the selection left unused goes to the messages whose next cut
 * was left out, best first — each is cut again to its current size plus the leftover (one more
 * LaMR run). When the leftover is short of that next cut, cuts of lower priority from other
 * messages give way (the swap pass of packMig, on a continuous size: the goal's file grows by what
 * they held).
 */
import { cutMessage } from './cuts.js';
import { applyAll, applyMsg, planUsed, type Plan, type Unit } from './plan.js';
import { costOf, type State } from './state.js';

/** Drops the lowest-priority chosen leaves while the plan is over its limit. */
export function enforceLimit(p: Plan, priority: (u: Unit) => number): void {
  for (let used = planUsed(p); used > p.limit; used = planUsed(p)) {
    const leaves = p.units.filter((u) => p.chosen.has(u.id) && !p.units.some((v) => v.after === u.id && p.chosen.has(v.id)));
    if (!leaves.length) break;
    leaves.sort((a, b) => priority(a) - priority(b));
    p.chosen.delete(leaves[0].id);
    applyAll(p);
  }
}

/** Grows the best messages whose next cut was left out into the leftover (and what lower-priority cuts give up). */
export async function topUp(p: Plan, priority: (u: Unit) => number, givenIds: Set<string>, goal: string): Promise<void> {
  const { ctx, states, units, chosen, callOfResult } = p;
  const grown = new Set<number>();
  let leftover = p.limit - planUsed(p);
  const next = units
    .filter((u) => !chosen.has(u.id) && !givenIds.has(u.id) && (u.after === undefined || chosen.has(u.after) || givenIds.has(u.after)))
    .sort((a, b) => priority(b) - priority(a));
  for (const u of next) {
    const i = u.msg;
    const s = states[i];
    if (s.kind === 'full' || grown.has(i)) continue;
    // Give way: taken cuts of other messages, lower priority, nothing taken extends them, lowest first.
    const victims: Unit[] = [];
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
    for (const j of touched) applyMsg(p, j);
    const free = p.limit - planUsed(p);
    const cur = costOf(ctx, states, i);
    const callExtra = s.kind === 'evicted' && callOfResult.has(i) ? ctx.tokens[callOfResult.get(i)!] - ctx.placeholderCost[callOfResult.get(i)!] : 0;
    const allot = cur + free - callExtra;
    let ok = false;
    if (allot >= ctx.tokens[i]) {
      states[i] = { kind: 'full' };
      ok = true;
    } else {
      const c = await cutMessage(ctx.messages[i], ctx.keys[i], goal, allot, ctx.pairs.fileOf.get(i), ctx.cut);
      // Worth it only if the message gains at least what the victims lose.
      if (c && c.tokens > cur && c.tokens - cur >= free - leftover) {
        states[i] = { kind: 'cut', cut: c };
        ok = true;
      }
    }
    if (!ok) {
      for (const v of victims) chosen.add(v.id);
      for (const [j, st] of before) states[j] = st;
      continue;
    }
    if (callExtra) states[callOfResult.get(i)!] = { kind: 'full' };
    grown.add(i);
    leftover = p.limit - planUsed(p);
  }
}
