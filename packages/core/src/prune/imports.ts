/**
 * Imports are evidence only when the query names what they import. A scorer (the trained model
 * above all) rates an import block as on-topic for almost any query about the file, and at 8×
 * six import lines cost as much as the call site the query is about. An import the kept code
 * uses is kept anyway, by repair, as a dependency of that code; one the query names (`requests`,
 * `Optional`, the module path) keeps its score.
 */
import type { RubricEmissions } from '../crf/rubrics.js';
import { type FileStructure, LineKind } from '../syntax/types.js';
import { termsOf } from '../text/identifiers.js';

/**
 * The emissions with every import statement the query does not name moved to the bottom of
 * each head's ranking (its keep margin set to the head's lowest in the file). Returns `r`
 * itself when nothing changes (empty query, no imports, or every import named).
 */
export function demoteUnnamedImports(r: RubricEmissions, st: FileStructure, lines: readonly string[], query: string): RubricEmissions {
  const q = new Set(termsOf(query));
  if (q.size === 0) return r;
  const n = r.n;
  const demote: number[] = [];
  for (let t = 0; t < n; t++) {
    if (st.kind[t] !== LineKind.Import) continue;
    // The whole statement's words (a parenthesized `from m import (` … `)` spans lines).
    const a = Math.max(0, Math.min(t, st.spanStart[t]));
    const b = Math.min(n - 1, Math.max(t, st.spanEnd[t]));
    let named = false;
    for (let i = a; i <= b && !named; i++) for (const w of termsOf(lines[i])) if (q.has(w)) { named = true; break; }
    if (!named) demote.push(t);
  }
  if (demote.length === 0) return r;
  const heads = r.heads.map((E, k) => {
    if (k > 0) return E; // the dependency rubric's view of imports is its own
    let low = Infinity;
    for (let t = 0; t < n; t++) low = Math.min(low, E[2 * t + 1] - E[2 * t]);
    const out = Float64Array.from(E);
    for (const t of demote) if (out[2 * t + 1] - out[2 * t] > low) out[2 * t + 1] = out[2 * t] + low;
    return out;
  });
  return { ...r, heads };
}
