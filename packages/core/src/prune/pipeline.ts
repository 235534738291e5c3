/**
 * prune(): syntax → emissions → budget calibration → Viterbi decode → AST-aware repair → render.
 * The only async steps are grammar loading/parsing and the scorer; the rest is pure. The policy
 * (policy.ts) decides how much structure and how many fits a budget gets; fit-verified.ts fits it
 * with the output checked; explain.ts builds `result.lines`.
 */
import { keepProbabilities } from '../crf/chain.js';
import { fuseEmissions, leadingRubric, type RubricEmissions } from '../crf/rubrics.js';
import { degradation, type Degradation } from '../degradations.js';
import { CtxpruneError } from '../errors.js';
import { LexicalScorer } from '../scorers/lexical.js';
import type { Scorer, ScorerOutput } from '../scorers/types.js';
import { lineCommentPrefix } from '../syntax/index.js';
import { markerPrefixForFile } from '../text/elision.js';
import { dominantCarriageReturn, lineBody, lineCount, splitLines } from '../text/lines.js';
import { checkedCounter, loadDefaultTokenCounter, measureTokensAsync, type TokenCounter } from '../text/tokens.js';
import { STEP_LINES } from '../util/steps.js';
import { evidenceValue, type Selection, type SelectionContext } from './budget.js';
import { checkpoint } from './checkpoint.js';
import { withReportClues } from './clues.js';
import { weighDocumentation } from './documentation.js';
import { explainLines, lazyLines } from './explain.js';
import { fitBestLineFirst, fitVerified, keepsEvidence } from './fit-verified.js';
import { unnamedImports } from './imports.js';
import { decodePolicy } from './policy.js';
import { Reason } from './reasons.js';
import { buildRepairIndex } from './repair.js';
import { resolveSyntax } from './syntax-info.js';
import type { PruneOptions, PruneResult, PruneStats } from './types.js';
import { checkAborted, checkOptionKeys, resolveBudget, resolveElision, validateText } from './validate.js';

const defaultScorer = new LexicalScorer();

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
export async function scorerOf(opt: PruneOptions['scorer']): Promise<Scorer> {
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

/**
 * What prune() works out from the text and the options before it reads the budget: the syntax, the
 * scoring, the rubric emissions and each line's tokens. One preparation serves a text pruned at
 * several budgets (compaction cuts a message at several sizes, cuts.ts): `at` runs the rest.
 */
export interface PreparedPrune {
  /**
   * prune() of the prepared text and options at this budget (`tokens` / `ratio` in place of the
   * prepared ones), cancelled by this call's `signal` (the preparation's is not used again).
   */
  at(budget: Pick<PruneOptions, 'tokens' | 'ratio' | 'signal'>): Promise<PruneResult>;
}

/** prune(): the preparation, then the budget. */
export async function prune(text: string, options: PruneOptions): Promise<PruneResult> {
  const prepared = await preparePrune(text, options);
  return prepared.at({ tokens: options.tokens, ratio: options.ratio, signal: options.signal });
}

/**
 * The budget-free part of prune(): validates the text and the options (the budget too, so that a
 * bad one fails before anything loads) and prepares the text for `at`. A result from `at` is what
 * prune() returns for the same text and options. The first result's time counts the preparation
 * (as prune()'s does); a later one's counts only its own work (its syntax and scoring timings are 0).
 */
export async function preparePrune(text: string, options: PruneOptions): Promise<PreparedPrune> {
  const t0 = performance.now();
  validateText(text);
  // A file whose lines end in a lone CR (classic Mac) holds no '\n': its CRs are read as line breaks
  // and written back as CRs (so kept lines stay byte for byte and keptLines number its lines).
  const crOnly = text.indexOf('\n') < 0 && text.indexOf('\r') >= 0;
  if (crOnly) text = text.replaceAll('\r', '\n');
  if (options === null || typeof options !== 'object') throw new CtxpruneError('INVALID_OPTION', 'options must be an object with at least { query }');
  checkOptionKeys(options);
  const query = options.query ?? '';
  if (typeof query !== 'string') throw new CtxpruneError('INVALID_OPTION', `query must be a string, got ${typeof query}`);
  const degraded: Degradation[] = [];
  if (query.trim() === '')
    degraded.push(
      degradation('EMPTY_QUERY', 'empty query: kept the outline (imports, definitions, their comments) first, then the lines around it, up to the budget'),
    );
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
  const clued = withReportClues(ablate(scored, options), query, lines, st, options.fileName, tuning.clueWeight);
  // A query none of whose terms, names or locations occur (the scorer finds no evidence and no
  // clue of the query tells a line apart) gets what an empty one gets, the outline first:
  // said, so that a caller does not read the outline as an answer. With under two non-blank lines
  // there is no outline to choose: nothing said.
  const unmatched = query.trim() !== '' && scored.documentScore === 0 && isFlat(clued.heads[0]);
  if (unmatched && nonBlankAtLeast(lines, 2)) {
    degraded.push(
      degradation(
        'QUERY_UNMATCHED',
        'nothing in the input matches the query (no word of it of two or more letters that is not a stopword, no name or location of it occurs): kept the outline (imports, definitions, their comments) first, then the lines around it, up to the budget',
      ),
    );
  }
  // Docstrings weigh less than the code a task needs, and comments and docstrings more for a task
  // about the documentation; an outline (no query, or none that matches) keeps them as they were.
  const rubrics = query.trim() === '' || unmatched ? clued : weighDocumentation(clued, query, lines, st, syn.language, tuning);
  await cp.pause();
  const fused = fuseEmissions(rubrics);
  await cp.pause();

  const tMeasure = performance.now();
  const measured = await measureTokensAsync(text, lines, counter, cp.pause);
  await cp.pause();
  const evidenceLed = leadingRubric(rubrics);
  // An import is evidence only when the query names what it imports (else a dependency).
  const unnamed = unnamedImports(st, lines, query);
  for (let t = 0; t < n; t++) if (unnamed[t]) evidenceLed[t] = 0;
  const repairOn = !options.ablation?.noRepair && (syn.parsed || syn.brackets === true);
  const repairIndex = buildRepairIndex(st, lines, syn.language);
  const tPrepared = performance.now();
  const baseDegraded = degraded;
  let firstUse = true;

  return {
    at: (b) => {
      // The first result pays for the preparation; later ones reuse it for free.
      const prepared = firstUse
        ? { syntax: tScore - tSyntax, score: tMeasure - tScore, measure: tPrepared - tMeasure, total: tPrepared - t0 }
        : { syntax: 0, score: 0, measure: 0, total: 0 };
      firstUse = false;
      return pruneAt(
        { ...options, tokens: b.tokens, ratio: b.ratio, signal: b.signal },
        { text, crOnly, query, lines, n, counter, syn, scored, rubrics, fused, measured, evidenceLed, repairOn, repairIndex, elision, prepared, baseDegraded },
      );
    },
  };
}

/** What preparePrune hands to each budget. */
interface Prepared {
  text: string;
  crOnly: boolean;
  query: string;
  lines: string[];
  n: number;
  counter: TokenCounter;
  syn: Awaited<ReturnType<typeof resolveSyntax>>;
  scored: ScorerOutput;
  rubrics: RubricEmissions;
  fused: ReturnType<typeof fuseEmissions>;
  measured: Awaited<ReturnType<typeof measureTokensAsync>>;
  /** Read only: shared by every budget. */
  evidenceLed: ReturnType<typeof leadingRubric>;
  repairOn: boolean;
  repairIndex: ReturnType<typeof buildRepairIndex>;
  elision: ReturnType<typeof resolveElision>;
  /** ms of the preparation this result counts (all of it for the first result, none after). */
  prepared: { syntax: number; score: number; measure: number; total: number };
  /** The preparation's degradations: each budget's result gets a copy and adds its own. */
  baseDegraded: Degradation[];
}

/** The budget's part of prune(): calibration, decode, repair, render. */
async function pruneAt(options: PruneOptions, p: Prepared): Promise<PruneResult> {
  const tAt = performance.now();
  const { text, crOnly, query, lines, n, counter, syn, scored, rubrics, fused, measured, evidenceLed, repairOn, elision } = p;
  const st = syn.structure;
  const degraded = [...p.baseDegraded];
  const tuning = options.tuning ?? {};
  const cp = checkpoint(options.signal);
  const originalTokens = measured.total;
  const budget = resolveBudget(options, originalTokens);
  const policy = decodePolicy(budget, originalTokens, syn.language, tuning);
  // The emissions whose keep margin the packer values lines by.
  const valued = policy.valueByFused ? fused : rubrics.heads[0];
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
          dependencies: !options.ablation?.noDependency && policy.repairImports,
          language: syn.language,
          maxWholeSpan: policy.maxWholeSpan,
          wholeSpans: null,
          shallow: policy.shallow,
          flat: policy.flat,
          bare: policy.bare,
        }
      : null,
    repairIndex: p.repairIndex,
    units: new Map(),
    tuning: { costExponent: tuning.costExponent, viterbiStart: tuning.viterbiStart !== 0 },
  };
  if (policy.variants > 0) {
    ctx.expected = keepProbabilities(fused);
    const power = policy.evidencePower;
    if (power !== 1) for (let t = 0; t < n; t++) ctx.expected[t] = Math.pow(ctx.expected[t], power);
    ctx.variants = [{ fusedCrf: { ...ctx.fusedCrf, transitions: [0, 0, 0, 0] } }, { value: evidenceValue(valued, 1) }, { viterbiShare: 0.5 }].slice(
      0,
      policy.variants,
    );
  }

  const markerCache = new Map<number, number>();
  let selection: Selection;
  let textOut: string;
  let outTokens: number;
  let repair: PruneStats['repair'] = options.ablation?.noRepair ? 'disabled' : syn.parsed ? 'ok' : 'skipped';
  let outputParseOk: boolean | null = syn.parsed ? st.errorCount === 0 : null;
  let lessRepair = false;
  if (originalTokens <= budget) {
    const keep = new Uint8Array(n).fill(1);
    const reason = new Uint8Array(n);
    for (let t = 0; t < n; t++) reason[t] = evidenceLed[t] ? Reason.Evidence : Reason.Dependency;
    selection = { keep, reason, estimatedTokens: originalTokens, bias: Infinity };
    textOut = text;
    outTokens = originalTokens;
  } else {
    const job = { ctx, budget, cache: markerCache, syn, inputErrors: st.errorCount, cp };
    let fitted = await fitVerified(job);
    if (fitted && query.trim() !== '' && scored.documentScore > 0) {
      // The line the budget most wants left out because its repair alone does not fit.
      const better = await fitBestLineFirst(job, fitted.selection);
      if (better) {
        fitted = better;
        lessRepair = true;
      }
    }
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
  // Said when the file holds evidence for the query (its document score) and none fits, and, for
  // every scorer alike, when no non-empty line fits at all: 1 MB on one line at 8× gets it whether
  // the scorer found the query in it (the model's score is never 0) or not (lexical, no term). A
  // file of empty lines only has nothing to fit: not said.
  const fit = query.trim() !== '' && !keepsEvidence(selection) && textOut !== '' ? contentFit(lines, keep, measured.costs, budget) : 'empty';
  const tooSmall = `budget of ${budget} tokens is too small for one evidence unit (its lines plus their repair)`;
  if (fit === 'none' || (fit === 'fits' && scored.documentScore > 0)) degraded.push(degradation('BUDGET_TOO_SMALL', `${tooSmall}: returned what fits`));
  else if (lessRepair) degraded.push(degradation('BUDGET_TOO_SMALL', `${tooSmall}: kept its best line with fewer of the lines around it`));

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
      ms: p.prepared.total + (tEnd - tAt),
      timings: { syntax: p.prepared.syntax, score: p.prepared.score, select: p.prepared.measure + (tRender - tAt), explain: tEnd - tRender },
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
