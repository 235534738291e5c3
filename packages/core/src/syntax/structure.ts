/**
 * Per-line structure from a tree-sitter tree (pure over the tree). Descends only through
 * statement / block / definition containers; expression subtrees are never walked (multi-line
 * statements are searched for nested block openers with `descendantsOfType`, which runs in wasm;
 * its answer for a statement also serves the statements nested in it, and statements whose text
 * cannot hold an opener are not searched: inner.ts).
 *
 * The walk is one Analyzer, a concept a module: analysis.ts (the per-line arrays and the writes
 * to them), blocks.ts (a header, its body and closer), compound.ts (if/else, try/catch, switch and
 * case labels), statements.ts (what each statement is). Here: the entry points, which walk the
 * top level in runs and yield between them, and the result (use edges, bracket nesting).
 */
import type { Tree } from 'web-tree-sitter';
import { LineKind, type FileStructure, type LanguageId } from './types.js';
import { applySpans, isCloserLine, stripCr, useEdgeSteps } from './lexical.js';
import { typeOf } from './nodecache.js';
import { countErrors } from './validity.js';
import { nestingSteps, withTargets, type Nesting } from './nesting.js';
import { pairDirectives, unseenNesting } from './directives.js';
import { type Pause, runSteps, runStepsAsync, STEP_LINES, type Steps } from '../util/steps.js';
import type { Ctx } from './analysis.js';
import { Analyzer } from './statements.js';

/** The FileStructure of a walked analysis, as steps: a yield every STEP_LINES lines of its per-line passes. */
function* finishSteps(a: Analyzer, errorCount: number, nestingOf: (spanStart: Int32Array) => Steps<Nesting>, parsed?: string[]): Steps<FileStructure> {
  const { lines, kind } = a;
  const n = lines.length;
  for (let i = 0; i < n; i++) {
    if (i % STEP_LINES === STEP_LINES - 1) yield;
    const text = stripCr(lines[i]).trim();
    if (text.length === 0) {
      kind[i] = LineKind.Blank;
      continue;
    }
    if (kind[i] === LineKind.Code && isCloserLine(text, a.lang)) kind[i] = LineKind.Closer;
  }
  if (a.t.directives) pairDirectives(lines, a, parsed);
  applySpans(a.spans, a.spanStart, a.spanEnd);
  yield;
  const { useOffsets, useTargets } = yield* useEdgeSteps(
    lines,
    (r) => kind[r] <= LineKind.Import || kind[r] === LineKind.Closer,
    a.definedNames,
    a.defScope,
    a.parent,
    a.lang,
  );
  const treeNesting = yield* nestingOf(a.spanStart);
  // The lines recovery blanked have no tree: their brackets nest them (directives.ts).
  const unseen = parsed && unseenNesting(lines, parsed);
  const nesting = unseen ? withTargets(treeNesting, unseen) : treeNesting;
  return {
    language: a.lang,
    source: 'tree-sitter',
    lineCount: n,
    errorCount,
    kind,
    parent: a.parent,
    spanStart: a.spanStart,
    spanEnd: a.spanEnd,
    blockEnd: a.blockEnd,
    closer: a.closer,
    firstBodyLine: a.firstBodyLine,
    classLike: a.classLike,
    companionGroup: a.companionGroup,
    useOffsets,
    useTargets,
    definedNames: a.definedNames,
    ...nesting,
  };
}

function linesOf(tree: Tree, lineCount: number): string[] {
  const root = tree.rootNode;
  const pre = '\n'.repeat(root.startPosition.row) + ' '.repeat(root.startPosition.column);
  const lines = (pre + root.text).split('\n');
  while (lines.length < lineCount) lines.push('');
  return lines.length > lineCount ? lines.slice(0, lineCount) : lines;
}

/**
 * Build the per-line FileStructure of a parsed file. `lines` (the text split on '\n') should be
 * passed when the caller has them; otherwise they are recovered from the tree.
 */
export function analyzeTree(tree: Tree, lang: LanguageId, lineCount: number, lines?: string[], maxVisits = 16 * lineCount + 10_000): FileStructure {
  return runSteps(analyzeSteps(tree, lang, lineCount, lines, maxVisits));
}

/** analyzeTree with `pause()` (util/steps.ts: abort, yield) between its steps. Same result. */
export function analyzeTreeAsync(
  tree: Tree,
  lang: LanguageId,
  lineCount: number,
  lines: string[] | undefined,
  pause: Pause,
  maxVisits = 16 * lineCount + 10_000,
): Promise<FileStructure> {
  return runStepsAsync(analyzeSteps(tree, lang, lineCount, lines, maxVisits), pause);
}

/**
 * analyzeTree's work as steps: the walk yields between runs of top-level statements (a run never
 * ends on a decorator, which belongs to the statement after it), the per-line passes every
 * STEP_LINES lines.
 */
function* analyzeSteps(tree: Tree, lang: LanguageId, lineCount: number, lines: string[] | undefined, maxVisits: number): Steps<FileStructure> {
  const ls = lines && lines.length === lineCount ? lines : linesOf(tree, lineCount);
  const root = tree.rootNode;
  const a = new Analyzer(lang, ls);
  // Each statement is visited a bounded number of times; 16 per line (plus slack) is far above
  // anything real code needs and far below a runaway walk.
  a.maxVisits = maxVisits;
  const ctx: Ctx = { parent: -1, floor: -1, inFn: false, ownerParent: -1, caseOwner: false };
  const children = root.namedChildren;
  const RUN = 16;
  for (let i = 0; i < children.length;) {
    let j = Math.min(children.length, i + RUN);
    while (j < children.length && children[j - 1] && a.t.decorators.has(typeOf(children[j - 1]))) j++;
    a.walkChildren(children.slice(i, j), ctx);
    i = j;
    yield;
    // Statements nested too deep for one walk, each from the top (it may defer more of its own).
    for (let k = 0; k < a.deferred.length; k++) {
      a.deferred[k]();
      if (k % RUN === RUN - 1) yield;
    }
    a.deferred.length = 0;
  }
  // The lines as the parser saw them, where recovery (recovery.ts) may have blanked some: directives.ts.
  const parsed = a.t.directives && ls === lines ? linesOf(tree, lineCount) : undefined;
  return yield* finishSteps(a, countErrors(tree), (spanStart) => nestingSteps(root, a.t, ls, spanStart, a.parent), parsed);
}
