/**
 * Fitting the budget with the output checked: a fit whose output parses worse than its input is
 * fitted again with more structure (the headers bare or flat repair left out, then long
 * statements kept whole).
 */
import { type Fitted, fitBudgetAsync, type SelectionContext } from './budget.js';
import type { Checkpoint } from './checkpoint.js';
import { outputErrorRows, type SyntaxInfo } from './syntax-info.js';

/**
 * Fit the budget, then parse the output: where a long statement kept only in part does not
 * parse, keep that statement whole and fit again; if that does not converge in two rounds,
 * keep no statement in part.
 */
export async function fitVerified(
  ctx: SelectionContext,
  budget: number,
  cache: Map<number, number>,
  syn: SyntaxInfo,
  inputErrors: number,
  cp: Checkpoint,
): Promise<(Fitted & { outputErrors: number | null }) | null> {
  const st = ctx.structure;
  let previous: (Fitted & { outputErrors: number | null }) | null = null;
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
