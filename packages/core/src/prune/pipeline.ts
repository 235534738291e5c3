/**
 * prune(): emissions → budget calibration → Viterbi decode → AST-aware repair → render.
 * The only async steps are grammar loading/parsing and the scorer; the rest is pure.
 */
import { keepProbabilities } from '../crf/chain.js';
import { fuseEmissions, leadingRubric, rubricMarginals, type RubricEmissions } from '../crf/rubrics.js';
import { degradation, type Degradation } from '../degradations.js';
import { CtxpruneError } from '../errors.js';
import { LexicalScorer } from '../scorers/lexical.js';
import type { Scorer, ScorerOutput } from '../scorers/types.js';
import { analyzeByIndent, analyzeTree, errorRows, lineCommentPrefix, parse, resolveLanguage } from '../syntax/index.js';
import type { FileStructure, LanguageId } from '../syntax/types.js';
import { bracketFormat, bracketNesting } from '../text/brackets.js';
import { markerPrefixForFile } from '../text/elision.js';
import { dominantCarriageReturn, lineBody, lineCount, splitLines } from '../text/lines.js';
import { checkedCounter, loadDefaultTokenCounter, measureTokensAsync, type TokenCounter } from '../text/tokens.js';
import { evidenceValue, type Fitted, fitBudgetAsync, type Selection, type SelectionContext } from './budget.js';
import { REASON_NAMES, Reason } from './reasons.js';
import { unnamedImports } from './imports.js';
import { buildRepairIndex } from './repair.js';
import { withReportClues } from './clues.js';
import type { LineInfo, PruneOptions, PruneResult, PruneStats } from './types.js';
import { checkAborted, resolveBudget, resolveElision, validateText } from './validate.js';
import { checkpoint, type Checkpoint } from './checkpoint.js';
import { STEP_LINES } from '../util/steps.js';
import { analyzeTreeAsync } from '../syntax/structure.js';

/** Above these sizes the parse is skipped and structure comes from indentation. */
const MAX_PARSE_CHARS = 2 * 1024 * 1024;
const MAX_MEAN_LINE_CHARS = 1000;
/**
 * Statements longer than this many lines are kept in part (first, kept and last lines, and the
 * brackets between). A 3-token marker costs less than most lines it stands for, so from 5 lines
 * on; on the training's held-out repositories 8× recall rose as this fell from 8 to 2 (+0.007 at
 * 4), while 4× stayed within 0.005.
 */
export const MAX_WHOLE_SPAN = 4;
/**
 * The packer values a line by the fused margin (1), the very order "ranking alone" keeps, not the
 * semantic rubric's alone (0). Repair does not force in the imports that evidence lines use (0):
 * an import is kept when the decoder or the packer finds it worth its tokens. Chosen together on
 * the validation corpus (training/validation.py; 600 TypeScript/JavaScript and 400 Python cases,
 * neural scorer), from 1 and 1: TS 8× 0.450 → 0.459, 4× 0.612 → 0.616; Python 8× 0.500 → 0.515
 * (imports alone +0.015, fused value alone +0.004).
 */
const PACKER_VALUE = 1;
const REPAIR_IMPORTS = 0;
/**
 * Besides the Viterbi start at the calibrated bias, fit the budget three more ways and keep the
 * one whose kept lines hold the most expected evidence, Σ σ(fused margin): decoding without the
 * CRF's transitions (lines by their own margin, no blocks), packing by the plain odds instead of
 * their square, and calibrating the decode to half the budget (the packer spends the rest).
 * Chosen on the validation corpus's even half (auto scorer), from 0 variants: TypeScript
 * 4× 0.600 → 0.616, 8× 0.451 → 0.469; Python 4× 0.660 → 0.674, 8× 0.507 → 0.523. Confirmed
 * on the odd half: TypeScript 4× 0.661 → 0.678, 8× 0.509 → 0.511; Python 4× 0.638 → 0.656,
 * 8× 0.489 → 0.490. It costs four fits instead of one (the select stage, not the scorer).
 */
const DECODE_VARIANTS = 3;
/**
 * Where the variants are fitted by default: the languages the validation corpus holds. JavaScript
 * joined later (it had been left out when the expected evidence picked worse than the Viterbi
 * start there): measured again on all 585 JavaScript validation cases with the stems for short
 * queries, 8× 0.414 → 0.427 (both halves up: 0.410 → 0.419, 0.418 → 0.436), 4× 0.625 → 0.622.
 */
const VARIANT_LANGUAGES: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript', 'python']);

/**
 * Budgets under this many tokens get shallow repair (RepairOptions.shallow): a definition keeps
 * its own header, not those of the class or function around it, which at 8× of a small file cost
 * what a line of evidence does. Chosen on the validation corpus (every TS/JS/Python case), from
 * 0: 8× TypeScript 0.487 → 0.492 (at 200 and 400; 0.493 with no limit), JavaScript 0.429 → 0.437,
 * Python 0.527 → 0.530; 4× TypeScript 0.659 → 0.662, JavaScript 0.626 → 0.632, Python 0.682 →
 * 0.685. Outputs still parse 100% (a Python output that does not is fitted again in full). The
 * limit keeps larger outputs' outer headers, where readers orient by them. A method keeps its
 * class where it does not parse alone (every language but Python; RepairIndex.container): the
 * output then parses without a second fit, and TypeScript 8× 0.492 → 0.494 (JavaScript, and
 * Python's methods without their class, unchanged; with its class Python 0.530 → 0.528).
 */
const SHALLOW_BELOW = 400;

/**
 * Deep compression of a brace language (TypeScript, JavaScript and the others; not Python, whose
 * indentation needs every header): budgets under 1/FLAT_RATIO of the file and under FLAT_BELOW
 * tokens get flat repair (RepairOptions.flat: a kept line keeps its innermost definition's
 * header, not the if / for / try headers between), and under BARE_BELOW bare repair in the
 * JavaScript family (no header at all for a statement; a member still keeps its class, a clause
 * its head, a line its brackets). An `if` whose block closes on a `} else if (` of eight lines
 * dragged those lines in, and a function's header and closer cost two lines of evidence: at 8×
 * of a small file, the budget. An output that does not parse is fitted again with the headers
 * (bare, then full). Chosen on the validation corpus's 1,878 TypeScript and JavaScript cases,
 * from shallow repair alone: flat under 400, 8× TypeScript 0.493 → 0.499, JavaScript 0.437 →
 * 0.440 (6× 0.558 → 0.560, 0.525 → 0.528); bare under 400 too, 8× 0.508 and 0.459 (both halves
 * up: TypeScript +0.009 / +0.009, JavaScript +0.024 / +0.016; bare under 100: 0.503 / 0.454,
 * under 200: 0.504 / 0.459); both under 600, 0.513 and 0.459 (halves +0.0044 / +0.0013; under
 * 800: 0.511 / 0.457). Outputs parse 100%. At 4× either costs TypeScript 0.002 (a fix often
 * edits the `if` line full repair keeps for its body's sake), hence the ratio: deeper
 * compression, flatter structure.
 */
const FLAT_BELOW = 600;
const BARE_BELOW = 600;
const FLAT_RATIO = 5;
/** Where a statement parses outside any function (not Go, Rust, Java, C, C++ or C#, whose top level holds declarations). */
const BARE_LANGUAGES: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript']);

/**
 * Under 1/FLAT_RATIO of the file, in the JavaScript family, the decoding variants are compared
 * by Σ σ(margin)^2 over their kept lines instead of Σ σ(margin): a fit that spends a small budget
 * on many lines of middling score (a Viterbi block that brings a constructor's header and closer)
 * loses to one that keeps fewer, surer lines. Chosen on the validation corpus at 8×: TypeScript
 * 0.513 → 0.521 (halves +0.013 / +0.004), JavaScript 0.459 → 0.463 (0 / +0.008); a power of 3:
 * 0.521 / 0.461. Not Python: 0.531 → 0.534 there (halves −0.001 / +0.009), but the issue-style
 * cases fell (validation 0.664 → 0.659, dev's SWE-bench issues 0.529 → 0.500). At 4× it cost
 * TypeScript 0.002, hence the ratio.
 */
const EVIDENCE_POWER = 2;

const defaultScorer = new LexicalScorer();

interface SyntaxInfo {
  structure: FileStructure;
  language: LanguageId | null;
  parsed: boolean;
  /** A data or style file without a grammar whose bracket nesting is known (text/brackets.ts): repaired so that its brackets close. */
  brackets?: boolean;
}

async function resolveSyntax(text: string, lines: string[], opts: PruneOptions, degraded: Degradation[], cp?: Checkpoint): Promise<SyntaxInfo> {
  let language: LanguageId | null = null;
  const requested = opts.language;
  if (requested && requested !== 'auto') {
    language = resolveLanguage(text, opts);
    if (!language) degraded.push(degradation('UNKNOWN_LANGUAGE', `unknown language "${requested}": pruned line by line without syntax repair`));
  } else {
    language = resolveLanguage(text, opts);
    const format = language ? null : bracketFormat(opts.fileName);
    const nesting = format ? bracketNesting(lines, format) : null;
    if (nesting) {
      degraded.push(degradation('NO_GRAMMAR', `no grammar for ${format}: pruned line by line, keeping its brackets balanced`));
      return { structure: { ...analyzeByIndent(lines, null), ...nesting }, language: null, parsed: false, brackets: true };
    }
    if (!language) degraded.push(degradation('LANGUAGE_NOT_DETECTED', 'language not detected: pruned line by line without syntax repair'));
  }
  if (!language) return { structure: analyzeByIndent(lines, null), language: null, parsed: false };
  if (text.length > MAX_PARSE_CHARS || text.length / lines.length > MAX_MEAN_LINE_CHARS) {
    degraded.push(degradation('TOO_LARGE_TO_PARSE', 'input too large or minified to parse: structure from indentation, no syntax repair'));
    return { structure: analyzeByIndent(lines, language), language, parsed: false };
  }
  try {
    const tree = await parse(language, text, cp?.pause);
    try {
      const structure = cp ? await analyzeTreeAsync(tree, language, lines.length, lines, cp.pause) : analyzeTree(tree, language, lines.length, lines);
      return { structure, language, parsed: true };
    } finally {
      tree.delete();
    }
  } catch (e) {
    if (e instanceof CtxpruneError && e.code === 'ABORTED') throw e;
    const why = e instanceof Error ? e.message : String(e);
    degraded.push(degradation('SYNTAX_UNAVAILABLE', `syntax unavailable for ${language} (${why}): structure from indentation, no syntax repair`));
    return { structure: analyzeByIndent(lines, language), language, parsed: false };
  }
}

async function outputErrorRows(language: LanguageId, text: string, pause?: () => Promise<void>): Promise<number[]> {
  const tree = await parse(language, text, pause);
  try {
    return errorRows(tree);
  } finally {
    tree.delete();
  }
}

/**
 * Fit the budget, then parse the output: where a long statement kept only in part does not
 * parse, keep that statement whole and fit again; if that does not converge in two rounds,
 * keep no statement in part.
 */
async function fitVerified(
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

/** Apply the ablation switches to the scorer's rubric output. */
function ablate(r: ScorerOutput, opts: PruneOptions): RubricEmissions {
  const a = opts.ablation ?? {};
  const K = r.heads.length;
  if (a.singleHead) {
    // SWE-Pruner's formulation: one emission (the rubric mean), one transition matrix, no gate.
    const one = new Float64Array(2 * r.n);
    for (const E of r.heads) for (let i = 0; i < one.length; i++) one[i] += E[i] / K;
    const gate = new Float64Array(K * r.n);
    for (let t = 0; t < r.n; t++) gate[K * t] = 1;
    return { n: r.n, heads: [one, ...r.heads.slice(1)], gate, headCrfs: r.headCrfs, fusedCrf: r.headCrfs[0] };
  }
  if (a.noDependency || a.noGate) {
    const gate = new Float64Array(K * r.n);
    for (let t = 0; t < r.n; t++) {
      for (let k = 0; k < K; k++) gate[K * t + k] = a.noDependency ? (k === 0 ? 1 : 0) : 1 / K;
    }
    return { ...r, gate };
  }
  return r;
}

/** The scorer option: an instance, or a name resolved through the registry (loaded on demand). */
async function scorerOf(opt: PruneOptions['scorer']): Promise<Scorer> {
  if (opt === undefined || opt === null || opt === 'lexical') return defaultScorer;
  if (typeof opt === 'string') {
    const { resolveScorer } = await import('../scorers/registry.js');
    return resolveScorer(opt);
  }
  if (typeof opt !== 'object' || typeof (opt as Partial<Scorer>).score !== 'function') {
    throw new CtxpruneError(
      'INVALID_OPTION',
      `scorer must be a scorer name (lexical, neural, auto) or an object with a score() method, got ${opt === null ? 'null' : typeof opt}`,
    );
  }
  return opt;
}

export async function prune(text: string, options: PruneOptions): Promise<PruneResult> {
  const t0 = performance.now();
  validateText(text);
  // A file whose lines end in a lone CR (classic Mac) holds no '\n': its CRs are read as line breaks
  // and written back as CRs (so kept lines stay byte for byte and keptLines number its lines).
  const crOnly = text.indexOf('\n') < 0 && text.indexOf('\r') >= 0;
  if (crOnly) text = text.replaceAll('\r', '\n');
  if (options === null || typeof options !== 'object') throw new CtxpruneError('INVALID_OPTION', 'options must be an object with at least { query }');
  const query = options.query ?? '';
  if (typeof query !== 'string') throw new CtxpruneError('INVALID_OPTION', `query must be a string, got ${typeof query}`);
  const degraded: Degradation[] = [];
  if (query.trim() === '') degraded.push(degradation('EMPTY_QUERY', 'empty query: kept the outline (imports, definitions) that fits'));
  if (query.length > 20_000) degraded.push(degradation('QUERY_TRUNCATED', `query of ${query.length} characters: only its first 20,000 were used`));
  // Fail fast on a bad budget before loading anything.
  resolveBudget(options, 1);
  const elision = resolveElision(options.elision);
  const signal = options.signal;
  // Abort between stages and inside the long ones, with a yield every ~10 ms of work (checkpoint.ts).
  const cp = checkpoint(signal);
  const scorer = await scorerOf(options.scorer);
  checkAborted(signal);

  const baseCounter: TokenCounter = options.tokenCounter !== undefined ? checkedCounter(options.tokenCounter) : await loadDefaultTokenCounter();
  // Every count is of the text as returned (CRs back in place).
  const counter: TokenCounter = crOnly ? { name: baseCounter.name, count: (t) => baseCounter.count(t.replaceAll('\n', '\r')) } : baseCounter;
  const lines = splitLines(text);
  const n = lines.length;
  await cp.pause();

  const tSyntax = performance.now();
  const syn = await resolveSyntax(text, lines, options, degraded, cp);
  const st = syn.structure;
  await cp.pause();

  const tScore = performance.now();
  const scoreInput = { query, lines, structure: st, language: syn.language, signal, pause: cp.pause };
  const scored = await (scorer instanceof LexicalScorer ? scorer.scoreAsync(scoreInput) : scorer.score(scoreInput));
  // What the scorer fell back from, coded (ScorerOutput.degraded).
  if (scored.degraded) degraded.push(...scored.degraded);
  await cp.pause();
  const tuning = options.tuning ?? {};
  const rubrics = withReportClues(ablate(scored, options), query, lines, st, options.fileName, tuning.clueWeight);
  // A query none of whose terms, names or locations occur (the scorer finds no evidence and no
  // clue of the query tells a line apart) gets what an empty one gets, the outline that fits:
  // said, so that a caller does not read the outline as an answer. With under two non-blank lines
  // there is no outline to choose: nothing said.
  if (query.trim() !== '' && scored.documentScore === 0 && isFlat(rubrics.heads[0]) && nonBlankAtLeast(lines, 2)) {
    degraded.push(
      degradation(
        'QUERY_UNMATCHED',
        'nothing in the input matches the query (no term, name or location of it occurs): kept the outline (imports, definitions) that fits',
      ),
    );
  }
  await cp.pause();
  const fused = fuseEmissions(rubrics);
  await cp.pause();

  const tDecode = performance.now();
  const measured = await measureTokensAsync(text, lines, counter, cp.pause);
  await cp.pause();
  const originalTokens = measured.total;
  const budget = resolveBudget(options, originalTokens);
  const evidenceLed = leadingRubric(rubrics);
  // An import is evidence only when the query names what it imports (else a dependency).
  const unnamed = unnamedImports(st, lines, query);
  for (let t = 0; t < n; t++) if (unnamed[t]) evidenceLed[t] = 0;
  const repairOn = !options.ablation?.noRepair && (syn.parsed || syn.brackets === true);
  // Deep compression (see FLAT_BELOW): of a brace language, and of the JavaScript family.
  const deepRatio = originalTokens >= (tuning.flatRatio ?? FLAT_RATIO) * budget;
  const deep = deepRatio && syn.language !== 'python';
  const deepJs = deepRatio && syn.language !== null && BARE_LANGUAGES.has(syn.language);
  // The emissions whose keep margin the packer values lines by.
  const valued = (tuning.packerValue ?? PACKER_VALUE) === 1 ? fused : rubrics.heads[0];
  const ctx: SelectionContext = {
    lines,
    structure: st,
    fused,
    fusedCrf: rubrics.fusedCrf,
    value: evidenceValue(valued),
    evidenceLed,
    costs: measured.costs,
    counter,
    commentPrefix: syn.language
      ? lineCommentPrefix(syn.language)
      : markerPrefixForFile(options.fileName, typeof options.language === 'string' ? options.language : null),
    cr: dominantCarriageReturn(lines),
    elision,
    repair: repairOn
      ? {
          syntactic: true,
          dependencies: !options.ablation?.noDependency && (tuning.repairImports ?? REPAIR_IMPORTS) === 1,
          language: syn.language,
          maxWholeSpan: tuning.maxWholeSpan ?? MAX_WHOLE_SPAN,
          wholeSpans: null,
          shallow: budget < (tuning.shallowBelow ?? SHALLOW_BELOW),
          flat: deep && budget < (tuning.flatBelow ?? FLAT_BELOW),
          bare: deepJs && budget < (tuning.bareBelow ?? BARE_BELOW),
        }
      : null,
    repairIndex: buildRepairIndex(st, lines, syn.language),
    units: new Map(),
    tuning: { costExponent: tuning.costExponent, viterbiStart: tuning.viterbiStart !== 0 },
  };
  const variantCount = tuning.variants ?? (syn.language && VARIANT_LANGUAGES.has(syn.language) ? DECODE_VARIANTS : 0);
  if (variantCount > 0) {
    ctx.expected = keepProbabilities(fused);
    // Deep compression: the fit whose kept lines are the most confident wins (see EVIDENCE_POWER).
    const power = deepJs ? (tuning.evidencePower ?? EVIDENCE_POWER) : 1;
    if (power !== 1) for (let t = 0; t < n; t++) ctx.expected[t] = Math.pow(ctx.expected[t], power);
    ctx.variants = [{ fusedCrf: { ...ctx.fusedCrf, transitions: [0, 0, 0, 0] } }, { value: evidenceValue(valued, 1) }, { viterbiShare: 0.5 }].slice(
      0,
      variantCount,
    );
  }

  const markerCache = new Map<number, number>();
  let selection: Selection;
  let textOut: string;
  let outTokens: number;
  let repair: PruneStats['repair'] = options.ablation?.noRepair ? 'disabled' : syn.parsed ? 'ok' : 'skipped';
  let outputParseOk: boolean | null = syn.parsed ? st.errorCount === 0 : null;
  if (originalTokens <= budget) {
    const keep = new Uint8Array(n).fill(1);
    const reason = new Uint8Array(n);
    for (let t = 0; t < n; t++) reason[t] = evidenceLed[t] ? Reason.Evidence : Reason.Dependency;
    selection = { keep, reason, estimatedTokens: originalTokens, bias: Infinity };
    textOut = text;
    outTokens = originalTokens;
  } else {
    const fitted = await fitVerified(ctx, budget, markerCache, syn, st.errorCount, cp);
    if (fitted) {
      selection = fitted.selection;
      textOut = fitted.rendered.text;
      outTokens = fitted.tokens;
      if (fitted.outputErrors !== null) {
        outputParseOk = fitted.outputErrors === 0;
        if (repair === 'ok' && fitted.outputErrors > st.errorCount) repair = 'failed';
      }
    } else {
      // Not even the all-elided rendering fits: return nothing rather than exceed the budget.
      degraded.push(degradation('BUDGET_BELOW_MARKER', `budget of ${budget} tokens is below even the elision marker: returned empty text`));
      selection = { keep: new Uint8Array(n), reason: new Uint8Array(n), estimatedTokens: 0, bias: -Infinity };
      textOut = '';
      outTokens = 0;
      outputParseOk = null;
    }
  }
  const keep = selection.keep;
  let evidenceKept = 0;
  for (let t = 0; t < n; t++) if (keep[t] && selection.reason[t] === Reason.Evidence) evidenceKept++;
  // Said when the file holds evidence for the query (its document score) and none fits, and, for
  // every scorer alike, when no non-empty line fits at all: 1 MB on one line at 8× gets it whether
  // the scorer found the query in it (the model's score is never 0) or not (lexical, no term). A
  // file of empty lines only has nothing to fit: not said.
  const fit = query.trim() !== '' && evidenceKept === 0 && textOut !== '' ? contentFit(lines, keep, measured.costs, budget) : 'empty';
  if (fit === 'none' || (fit === 'fits' && scored.documentScore > 0)) {
    degraded.push(
      degradation('BUDGET_TOO_SMALL', `budget of ${budget} tokens is too small for one evidence unit (its lines plus their repair): returned what fits`),
    );
  }

  await cp.pause();
  const tRender = performance.now();
  // The empty string after a final newline is no line: not counted, numbered or reported.
  const total = lineCount(lines);
  const keptLines: number[] = [];
  for (let t = 0; t < total; t++) {
    if (t % STEP_LINES === STEP_LINES - 1) await cp.pause();
    if (keep[t] === 1) keptLines.push(t + 1);
  }
  const tEnd = performance.now();
  const result: PruneResult = {
    text: crOnly ? textOut.replaceAll('\n', '\r') : textOut,
    keptLines,
    lines: [],
    stats: {
      originalTokens,
      outputTokens: outTokens,
      budgetTokens: budget,
      achievedRatio: outTokens > 0 ? originalTokens / outTokens : Infinity,
      totalLines: total,
      keptLineCount: keptLines.length,
      ms: tEnd - t0,
      timings: { syntax: tScore - tSyntax, score: tDecode - tScore, select: tRender - tDecode, explain: tEnd - tRender },
      scorer: scored.scorer,
      ...(scored.fallbackReason ? { fallbackReason: scored.fallbackReason } : {}),
      backend: scored.backend,
      tokenizer: counter.name,
      language: syn.language,
      syntax: st.source,
      repair,
      inputParseOk: syn.parsed ? st.errorCount === 0 : null,
      outputParseOk,
      documentScore: scored.documentScore,
      keepBias: selection.bias,
      degraded,
    },
  };
  const bias = Number.isFinite(selection.bias) ? selection.bias : 0;
  lazyLines(result, () => explainLines(rubrics, fused, bias, keep, selection.reason, total));
  return result;
}

function nonBlankAtLeast(lines: readonly string[], k: number): boolean {
  let seen = 0;
  for (const l of lines) if (l.trim() !== '' && ++seen >= k) return true;
  return false;
}

/** Whether every line's emission margin ([prune, keep] pairs) is the same: a rubric that tells no line from another. */
function isFlat(emissions: Float64Array): boolean {
  const first = emissions[1] - emissions[0];
  for (let t = 2; t < emissions.length; t += 2) if (Math.abs(emissions[t + 1] - emissions[t] - first) > 1e-9) return false;
  return true;
}

/**
 * Over the non-empty lines: 'empty' when there are none, 'none' when none is kept and each costs
 * more than the whole budget, else 'fits'.
 */
function contentFit(lines: string[], keep: Uint8Array, costs: Float64Array, budget: number): 'empty' | 'none' | 'fits' {
  let content = false;
  for (let t = 0; t < lines.length; t++) {
    if (lineBody(lines[t]).length === 0) continue;
    if (keep[t] || costs[t] <= budget) return 'fits';
    content = true;
  }
  return content ? 'none' : 'empty';
}

/**
 * Each line's scores and why it was kept (PruneResult.lines). Three forward–backward passes and
 * an object a line: ~1 s of CPU on a million lines, so computed when `lines` is first read.
 */
function explainLines(rubrics: RubricEmissions, fused: Float64Array, bias: number, keep: Uint8Array, reason: Uint8Array, total: number): LineInfo[] {
  const K = rubrics.heads.length;
  const margins = rubricMarginals(rubrics, fused, bias);
  const out = new Array<LineInfo>(total);
  for (let t = 0; t < total; t++) {
    const kept = keep[t] === 1;
    out[t] = {
      line: t + 1,
      kept,
      reason: kept ? REASON_NAMES[reason[t] || Reason.Repair] : null,
      semantic: margins.heads[0][t],
      dependency: margins.heads[1]?.[t] ?? 0,
      gate: rubrics.gate[K * t],
      keep: margins.fused[t],
    };
  }
  return out;
}

/**
 * `result.lines` as a property computed on its first read (then an ordinary data property, in
 * the same place among the keys): JSON.stringify, spreads and structured clones read it like any
 * other; a caller that never reads it does not pay for it.
 */
function lazyLines(result: PruneResult, build: () => LineInfo[]): void {
  let make: (() => LineInfo[]) | null = build;
  const settle = (value: LineInfo[]) => {
    make = null;
    Object.defineProperty(result, 'lines', { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(result, 'lines', {
    enumerable: true,
    configurable: true,
    get: () => settle(make ? make() : []),
    set: (value: LineInfo[]) => settle(value),
  });
}
