/**
 * How much documentation weighs against code, by what the task is about.
 *
 * Python docstrings (a statement that is only a string literal) weigh less. They restate in prose
 * what their function does, so a query's words match them as well as the code they describe, or
 * better (a description reads like a docstring). But the lines a task needs are the code's: on
 * the validation corpus's Python cases a kept docstring line was a line the fix edited 3–4 times
 * less often than a kept code line, while docstrings took 15% of what was kept. Lowering their
 * keep emission (every rubric, by its own spread, as clues.ts raises a clue's) hands that
 * budget to code. A docstring still wins where nothing else matches: it is lowered, not removed.
 * A task about the documentation is the other way round: its comments and docstrings are what the
 * task edits, so they are raised instead (weighDocumentation, the one entry prune() calls).
 * Pure.
 */
import { marginSpread, type RubricEmissions } from '../crf/rubrics.js';
import { type FileStructure, type LanguageId, LineKind } from '../syntax/types.js';
import type { PruneTuning } from './types.js';

/**
 * How many spreads of each rubric's margin a docstring line's keep emission loses. Chosen on every
 * third validation case's Python (658; `awk 'NR%3==1' data/val/cases.jsonl`), recall at 4× / 8×:
 * none 0.700 / 0.553; in absolute logits (the model's semantic spread is about 1) 0.5 → 0.706 /
 * 0.563, 1 → 0.712 / 0.571, 1.5 → 0.711 / 0.571, 3 → 0.704 / 0.565; one spread 0.713 / 0.568.
 * Confirmed on the other two thirds (1,313): 0.699 / 0.538 → 0.705 / 0.545.
 */
export const DOCSTRING_WEIGHT = 1;

/**
 * Words by which a query's subject speaks of documentation. Such a task (a commit "Correct
 * parameter types for Nested field in docs", "Fix typo in docstring") edits the docstrings, so
 * they are not lowered but raised. "comment" and "description" are not among them: their cases
 * lost with the docstrings left as they were, and `description` is as often a field of the code.
 * A word in code form is not one of them either: `document.body`, `minidom.Document`.
 */
const ABOUT_DOCS = /(?<![\w.])(?:docs?|docstrings?|documentation|documented|document|typos?|spelling|grammar|wording|rst|sphinx)\b(?!\.\w)/i;

/**
 * Whether a query's subject (its first non-blank line: a commit's summary, an issue's title)
 * speaks of documentation. Only the subject: a body that ends "docs updated" or a report that
 * quotes "the documentation says" is about the code. Measured on the validation corpus's Python
 * cases (every third case / the other two thirds, recall at 4× and 8×, against lowering the
 * docstrings of every query): fired on 29 / 72 cases, +0.0023 / +0.0030 and +0.0068 / +0.0043
 * averaged over all 658 / 1,313 Python cases. The word list and the subject-only reading were
 * settled after looking at both (docs/benchmark-log.md says how), so that split is not a clean check.
 */
export function queryAboutDocs(query: string): boolean {
  const subject = query.trimStart().split('\n', 1)[0];
  return ABOUT_DOCS.test(subject);
}

/** A prefixed (r, b, u, f) string literal's opening quote: `"""`, `'''`, `"` or `'`. */
const OPENING = /^[rRuUbBfF]{0,2}("""|'''|"|')/;

/**
 * 1 for each line of a Python statement that is nothing but a string literal: docstrings of
 * modules, classes and functions, and the bare strings used as attribute docs or block comments.
 * Read from the statement's span (FileStructure.spanStart/spanEnd): its first line opens a string
 * and its last line closes the same one.
 */
export function docstringLines(lines: readonly string[], st: FileStructure): Uint8Array {
  const n = lines.length;
  const out = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    const a = st.spanStart[t];
    if (a !== t || st.kind[t] !== LineKind.Code) continue;
    const b = Math.max(t, Math.min(n - 1, st.spanEnd[t]));
    const first = lines[a].trim();
    const open = OPENING.exec(first);
    if (open === null) continue;
    const quote = open[1];
    // The same quote closes it, and nothing follows (`"a".join(x)` or `"%s" % x` is code).
    const rest = a === b ? first.slice(open[0].length) : lines[b].trim();
    if (!rest.endsWith(quote)) continue;
    for (let i = a; i <= b; i++) out[i] = 1;
  }
  return out;
}

/**
 * The rubric emissions with each docstring line's keep emission lowered by `weight` spreads of
 * its rubric's margin. Unchanged (the same object) for other languages, a weight of 0, or a file
 * without docstrings.
 */
export function withDocstringsLowered(
  r: RubricEmissions,
  lines: readonly string[],
  st: FileStructure,
  language: LanguageId | null,
  weight = DOCSTRING_WEIGHT,
): RubricEmissions {
  if (weight === 0 || language !== 'python') return r;
  const doc = docstringLines(lines, st);
  return doc.includes(1) ? shiftKeep(r, doc, -weight) : r;
}

/**
 * How many spreads of each rubric's margin a comment or docstring line's keep emission gains when
 * the query's subject speaks of documentation (queryAboutDocs). Chosen on every third validation
 * case (`awk 'NR%3==1' data/val/cases.jsonl`), against leaving them as the scorer rates them,
 * averaged over every Python case at 4× / 8×: 0.5 → +0.0015 / +0.0020, 1 → +0.0030 / +0.0027,
 * 1.5 → +0.0026 / +0.0024, 2 → +0.0045 / +0.0029; the smallest of the plateau. Confirmed on the
 * other two thirds: +0.0021 / +0.0033. TypeScript and JavaScript (46 such cases of 1,878) moved by
 * under ±0.002 at 1 spread (under ±0.005 at every weight).
 */
export const DOCS_QUERY_WEIGHT = 1;

/** 1 for each comment line (LineKind.Comment, any language) and each Python docstring line. */
export function documentationLines(lines: readonly string[], st: FileStructure, language: LanguageId | null): Uint8Array {
  const out = language === 'python' ? docstringLines(lines, st) : new Uint8Array(lines.length);
  for (let t = 0; t < lines.length; t++) if (st.kind[t] === LineKind.Comment) out[t] = 1;
  return out;
}

/**
 * The rubric emissions with each documentation line's (documentationLines) keep emission raised by
 * `weight` spreads of its rubric's margin. Unchanged (the same object) for a weight of 0 or a file
 * without comments or docstrings.
 */
export function withDocumentationRaised(
  r: RubricEmissions,
  lines: readonly string[],
  st: FileStructure,
  language: LanguageId | null,
  weight = DOCS_QUERY_WEIGHT,
): RubricEmissions {
  if (weight === 0) return r;
  const doc = documentationLines(lines, st, language);
  return doc.includes(1) ? shiftKeep(r, doc, weight) : r;
}

/** What prune() does with documentation for a query: raise it for a task about it, else lower Python's docstrings. */
export function weighDocumentation(
  r: RubricEmissions,
  query: string,
  lines: readonly string[],
  st: FileStructure,
  language: LanguageId | null,
  weights: Pick<PruneTuning, 'docstringWeight' | 'docsQueryWeight'> = {},
): RubricEmissions {
  return queryAboutDocs(query)
    ? withDocumentationRaised(r, lines, st, language, weights.docsQueryWeight ?? DOCS_QUERY_WEIGHT)
    : withDocstringsLowered(r, lines, st, language, weights.docstringWeight ?? DOCSTRING_WEIGHT);
}

/** Each head's keep emission on the marked lines moved by `spreads` × that head's margin spread (a copy). */
function shiftKeep(r: RubricEmissions, marked: Uint8Array, spreads: number): RubricEmissions {
  const heads = r.heads.map((E) => {
    const shifted = E.slice();
    const by = spreads * marginSpread(E, r.n);
    for (let t = 0; t < r.n; t++) if (marked[t]) shifted[2 * t + 1] += by;
    return shifted;
  });
  return { ...r, heads };
}
