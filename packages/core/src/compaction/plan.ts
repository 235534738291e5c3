/**
 * The selection units of the scored strategies and the plan they are chosen in. Each cut a message
 * offers is one unit (the lines it adds to the previous cut; a unit extends the one before it); a
 * call travels with its first evictable result, paid for by the result's first cut. The plan maps
 * the chosen units back to message states.
 */
import { splitLines } from '../text/lines.js';
import type { SelectUnit } from '../select/types.js';
import type { Offer } from './offers.js';
import { costOf, type Ctx, type State } from './state.js';
import type { Message } from './types.js';
import type { ResolvedOptions } from './validate.js';

export interface Unit extends SelectUnit {
  msg: number;
  level: number;
  text: string;
  lines: [number, number];
}

export interface Plan {
  ctx: Ctx;
  states: State[];
  offers: Map<number, Offer>;
  /** Evictable messages that own units (not calls fused to a result). */
  owners: number[];
  /** Protected messages that may be cut: their smallest cut is given, their longer cuts compete. */
  soft: number[];
  softSet: Set<number>;
  /** Call → the result it travels with, and the reverse. */
  fused: Map<number, number>;
  callOfResult: Map<number, number>;
  units: Unit[];
  /** Ids of the chosen units. */
  chosen: Set<string>;
  /** Every message the plan decides (evictable and soft). */
  mine: number[];
  /** What `mine` may take in all. */
  limit: number;
}

/** Coarse MIG groups: per role (tool outputs per tool name), or per window of `window` turns. */
export function groupOf(messages: Message[], by: ResolvedOptions['groupBy'], window: number): string[] {
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

/** A call travels with its (first) evictable result: call → result. */
export function fuseCalls(ctx: Ctx, evictable: readonly number[]): Map<number, number> {
  const fused = new Map<number, number>();
  const evictableSet = new Set(evictable);
  for (const [c, rs] of ctx.pairs.resultsOf) {
    const r = rs.find((x) => evictableSet.has(x));
    if (evictableSet.has(c) && r !== undefined) fused.set(c, r);
  }
  return fused;
}

/** One unit per cut of each owner and soft message, in message order. */
export function buildUnits(
  ctx: Ctx,
  offers: Map<number, Offer>,
  owners: readonly number[],
  softSet: Set<number>,
  callOfResult: Map<number, number>,
  groups: string[],
): Unit[] {
  const { messages } = ctx;
  const units: Unit[] = [];
  for (const i of [...owners, ...softSet].sort((a, b) => a - b)) {
    const { cuts } = offers.get(i)!;
    const lines = splitLines(messages[i].content);
    const c = callOfResult.get(i);
    let prevTokens = softSet.has(i) ? 0 : ctx.placeholderCost[i];
    let prevLines = new Set<number>();
    cuts.forEach((cut, k) => {
      const added = cut.keptLines.filter((n) => !prevLines.has(n));
      const extra = k === 0 && c !== undefined ? ctx.tokens[c] - ctx.placeholderCost[c] : 0;
      units.push({
        id: `${messages[i].id}#${k}`,
        msg: i,
        level: k,
        group: groups[i],
        relevance: 0,
        tokens: Math.max(1, cut.tokens - prevTokens + extra),
        ...(k > 0 ? { after: `${messages[i].id}#${k - 1}` } : {}),
        text: (k === 0 && c !== undefined ? messages[c].content + '\n' : '') + added.map((n) => lines[n - 1]).join('\n'),
        lines: added.length ? [added[0], added[added.length - 1]] : [1, 1],
      });
      prevTokens = cut.tokens;
      prevLines = new Set(cut.keptLines);
    });
  }
  return units;
}

/** The deepest chosen cut of message i (the smallest for a soft message; −1: evicted). */
export function levelOf(p: Plan, i: number): number {
  let k = p.softSet.has(i) ? 0 : -1;
  for (const u of p.units) if (u.msg === i && p.chosen.has(u.id)) k = Math.max(k, u.level);
  return k;
}

/** Message i's state from its deepest chosen cut. */
function setState(p: Plan, i: number): void {
  const k = levelOf(p, i);
  const cuts = p.offers.get(i)!.cuts;
  p.states[i] = k < 0 ? { kind: 'evicted' } : k === cuts.length - 1 ? { kind: 'full' } : { kind: 'cut', cut: cuts[k] };
}

/** A call whose result is evicted is evicted with it, else kept whole. */
function followResult(p: Plan, c: number, r: number): void {
  p.states[c] = p.states[r].kind === 'evicted' ? { kind: 'evicted' } : { kind: 'full' };
}

/** Message i's state from the chosen units (and its fused call's). */
export function applyMsg(p: Plan, i: number): void {
  setState(p, i);
  const c = p.callOfResult.get(i);
  if (c !== undefined) followResult(p, c, i);
}

/** Every state from the chosen units. */
export function applyAll(p: Plan): void {
  for (const i of [...p.owners, ...p.soft]) setState(p, i);
  for (const [c, r] of p.fused) followResult(p, c, r);
}

/** Tokens the plan's messages take now. */
export function planUsed(p: Plan): number {
  return p.mine.reduce((a, i) => a + costOf(p.ctx, p.states, i), 0);
}
