/**
 * Fitting the budget with the output checked: a fit whose output parses worse than its input is
 * fitted again with more structure (the headers bare or flat repair left out, then long
 * statements kept whole); and a fit that leaves out the line it most wants, because that line's repair
 * alone exceeds the budget, is fitted again with less.
 */
import { bestLineOutOfReach, type Fitted, fitBudgetAsync, type Selection, type SelectionContext } from './budget.js';
import type { Checkpoint } from './checkpoint.js';
import { Reason } from './reasons.js';
import { outputErrorRows, type SyntaxInfo } from './syntax-info.js';

/** One budget's fit: what it fits, and what checks its output. */
export interface FitJob {
  ctx: SelectionContext;
  budget: number;
  /** Marker token costs, shared by every fit of the prune. */
  cache: Map<number, number>;
  syn: SyntaxInfo;
  /** The input's parse errors: an output may have as many. */
  inputErrors: number;
  cp: Checkpoint;
}

/** A fit and its output's parse errors (null where the input was not parsed). */
export type CheckedFit = Fitted & { outputErrors: number | null };

/**
 * Fit the budget, then parse the output: where a long statement kept only in part does not
 * parse, keep that statement whole and fit again; if that does not converge in two rounds,
 * keep no statement in part.
 */
export async function fitVerified(job: FitJob): Promise<CheckedFit | null> {
  const { ctx, budget, cache, syn, inputErrors, cp } = job;
  const st = ctx.structure;
  let previous: CheckedFit | null = null;
  for (let round = 0; ; round++) {
    const fitted = await fitBudgetAsync(ctx, budget, cache, cp.pause);
    // Keeping statements whole can leave nothing that fits: the last fit, parse errors and all.
    if (!fitted) return previous;
    if (!syn.parsed || !syn.language) return { ...fitted, outputErrors: null };
    await cp.pause();
    const rows = await outputErrorRows(syn.language, fitted.rendered.text, cp.pause);
    const errors = rows.length;
    if (errors <= inputErrors || !ctx.repair || round >= 4) return { ...fitted, outputErrors: errors };
    previous = { ...fitted, outputErrors: errors };
    if (ctx.repair.bare) {
      // A statement without its header does not parse here (a `case` without its `switch`):
      // keep the headers, as shallow or flat repair does.
      ctx.repair.bare = false;
      ctx.units.clear();
      continue;
    }
    if (ctx.repair.shallow || ctx.repair.flat) {
      // A definition without the scopes around it does not parse in this language (Python's
      // indentation): repair in full, as for any larger budget.
      ctx.repair.shallow = false;
      ctx.repair.flat = false;
      ctx.units.clear();
      continue;
    }
    const whole = (ctx.repair.wholeSpans ??= new Uint8Array(st.lineCount));
    let marked = 0;
    const origin = fitted.rendered.origin;
    const mark = (t: number) => {
      if (t < 0) return;
      const a = st.spanStart[t];
      if (st.spanEnd[t] > a && !whole[a]) {
        whole[a] = 1;
        marked++;
      }
    };
    for (const row of rows) {
      for (const r of [row - 1, row, row + 1]) if (r >= 0 && r < origin.length) mark(origin[r]);
    }
    ctx.units.clear(); // closures change with the spans kept whole
    if (!marked || round >= 2) {
      // No partial statement near the errors (an unclosed string reports its error far from
      // the cut), or marking near them did not converge: no statement is kept in part.
      if (ctx.repair.maxWholeSpan === Number.POSITIVE_INFINITY) return { ...fitted, outputErrors: errors };
      ctx.repair.maxWholeSpan = Number.POSITIVE_INFINITY;
    }
  }
}

/**
 * When the line the budget most wants does not fit with its repair (a line inside a thousand
 * nested scopes, a budget of a few dozen tokens) though it fits alone, fit again with the least
 * repair (no enclosing headers: RepairOptions' shallow, flat and bare; the brackets, clauses and
 * tags a line needs stay) and return that fit if it keeps the line and, where `fitted` keeps
 * any evidence, parses no worse than the input (headers around nothing answer no one). null
 * when no repair is on, the line is kept or reachable, or the fit does not qualify: the caller
 * keeps its fit. Never no repair at all: PHP without its `<?php` parses, as HTML.
 */
export async function fitBestLineFirst(job: FitJob, fitted: Selection): Promise<CheckedFit | null> {
  const { ctx, budget, cache, syn, inputErrors, cp } = job;
  const full = ctx.repair;
  if (!full || (full.shallow && full.flat && full.bare)) return null;
  const best = bestLineOutOfReach(ctx, fitted.keep, budget);
  if (best < 0) return null;
  ctx.repair = { ...full, shallow: true, flat: true, bare: true };
  ctx.units.clear();
  try {
    const less = await fitBudgetAsync(ctx, budget, cache, cp.pause);
    if (!less || !less.selection.keep[best]) return null;
    if (!syn.parsed || !syn.language) return { ...less, outputErrors: null };
    await cp.pause();
    const errors = (await outputErrorRows(syn.language, less.rendered.text, cp.pause)).length;
    if (errors > inputErrors && keepsEvidence(fitted)) return null;
    return { ...less, outputErrors: errors };
  } finally {
    ctx.repair = full;
    ctx.units.clear();
  }
}

/** Whether the selection keeps a line for its own evidence (not only for another line's repair). */
export function keepsEvidence(selection: Selection): boolean {
  const { keep, reason } = selection;
  for (let t = 0; t < keep.length; t++) if (keep[t] && reason[t] === Reason.Evidence) return true;
  return false;
}
