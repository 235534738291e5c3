/**
 * `ctxprune bench [SUITE]`: the one entry to every benchmark. Suites: `prune` (the default: recall,
 * budget, parse validity and speed of line pruning on cases), `compaction` (agent transcripts built
 * from the cases or from validation repositories' commits, bench/compaction*.ts), `locate` (file
 * localization on SWE-bench instances), `pack` (task context packing on SWE-bench instances),
 * `rank` (the scorers' rankings alone, bench/rank.ts), `speed` (bench/speed.ts) and `abort` (abort
 * latency on 1 MB inputs, bench/abort.ts) and `languages` (parse rate and output checks of the
 * languages beyond the model's on real files, bench/languages.ts); `compare` reads two `--out`
 * files of the same cases and gives the paired differences (bench/compare.ts). The code of
 * each lives in src/bench/; this file only reads the arguments and prints.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  buildTranscripts,
  formatRows,
  runCompactionBench,
  type BenchTranscript,
  type DevCase,
  type Variant as CompactionVariant,
} from '../../bench/compaction.js';
import { formatReuseRows, runReuseBench } from '../../bench/compaction-reuse.js';
import { buildValTranscript, selectTranscriptIds, type SelectableCase, type TranscriptId } from '../../bench/compaction-val.js';
import { openMirrors } from '../../bench/mirrors.js';
import { COMPACTION_STRATEGIES, type CompactionStrategy } from '../../compaction/types.js';
import { type BenchCase, readCases } from '../../bench/cases.js';
import { type CaseOutcome, formatBreakdown, formatRankingRow, formatSummaryRow, goldRecall, summarize, SUMMARY_HEADER } from '../../bench/metrics.js';
import { abortBench, abortInputs, formatAbortRow } from '../../bench/abort.js';
import { formatRankRows, rankBench } from '../../bench/rank.js';
import { rankingRecall } from '../../bench/ranking.js';
import { closestTo1000, modelSpeed, pruneSpeed } from '../../bench/speed.js';
import { keptRecall, smoothedBm25Keep } from '../../bench/baselines.js';
import { CtxpruneError } from '../../errors.js';
import { prune } from '../../prune/pipeline.js';
import { resolveScorer } from '../../scorers/registry.js';
import type { Scorer, ScorerOutput } from '../../scorers/types.js';
import type { PruneAblation, PruneTuning } from '../../prune/types.js';
import type { LanguageId } from '../../syntax/types.js';
import type { ElisionStyle } from '../../text/elision.js';
import { splitLines } from '../../text/lines.js';
import { loadDefaultTokenCounter, measureTokens } from '../../text/tokens.js';
import { boolFlag, numberFlag, parseArgs, stringFlag, type ParsedArgs } from '../args.js';
import type { CliIo, Command } from '../main.js';
import { ablationFromArgs, ABLATION_FLAGS, elisionFromArgs, mirrorDirFromArgs } from './shared.js';

const DEFAULT_CASES = process.env.CTXPRUNE_BENCH_CASES ?? 'data/dev-cases.jsonl';

export const BENCH_SUITES = ['prune', 'compaction', 'locate', 'pack', 'rank', 'speed', 'abort', 'languages', 'compare'] as const;
type Suite = (typeof BENCH_SUITES)[number];

/**
 * The identifiers files of the validation transcripts (repository, commit, path; no text):
 * packages/core/bench/compaction/, beside src/ and dist/, and shipped in the npm package (its
 * `files`), so `--transcripts val|wide|tune|holdout` works from an installed package given the mirrors.
 */
const TRANSCRIPT_IDS: Record<string, string> = {
  val: fileURLToPath(new URL('../../../bench/compaction/val-transcripts.json', import.meta.url)),
  wide: fileURLToPath(new URL('../../../bench/compaction/val-transcripts-wide.json', import.meta.url)),
  // 280 more, 6 per validation repository, none in the two above: where compaction knobs are chosen.
  tune: fileURLToPath(new URL('../../../bench/compaction/val-transcripts-tune.json', import.meta.url)),
  // 283 more, up to 6 per validation repository, none in the three above: judges a change chosen on tune.
  holdout: fileURLToPath(new URL('../../../bench/compaction/val-transcripts-holdout.json', import.meta.url)),
};

/** `--ratios 4,8` (or `--ratio 4`): the budgets, each 1/ratio of a transcript's tokens. */
function ratiosFromArgs(args: ParsedArgs, dflt: number[]): number[] {
  const one = numberFlag(args, 'ratio');
  const list = stringFlag(args, 'ratios');
  const ratios = list !== undefined ? list.split(',').map(Number) : one !== undefined ? [one] : dflt;
  if (!ratios.length || ratios.some((r) => !Number.isFinite(r) || r < 1))
    throw new CtxpruneError('INVALID_OPTION', `--ratios takes numbers ≥ 1 (e.g. 4,8); got "${list}"`);
  return ratios;
}

/**
 * The compaction suite (bench/compaction.ts): each strategy at budgets of 1/ratio of a transcript's
 * tokens, the share of gold lines kept. Transcripts built from a cases file (the default,
 * `--cases`), or from validation repositories' commits (`--transcripts val|wide|tune|holdout|IDS.json`, read
 * from `--mirror`, else `$CTXPRUNE_MIRROR`, else `data/mirror`; bench/compaction-val.ts), where "over budget" is counted independently with
 * js-tiktoken. `--select CASES.jsonl --ids OUT.json` rewrites an identifiers file. `--reuse` times
 * the same transcripts as a session would call compact(), without and with a preparation cache
 * (bench/compaction-reuse.ts).
 */
async function compactionSuite(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(
    argv,
    ['json', 'reuse'],
    ['cases', 'pools', 'limit', 'split', 'ratio', 'ratios', 'variants', 'transcripts', 'mirror', 'strategies', 'scorer', 'select', 'per-repo', 'ids'],
  );
  const limit = numberFlag(args, 'limit') ?? 0;
  const select = stringFlag(args, 'select');
  if (select !== undefined) {
    const out = stringFlag(args, 'ids');
    if (out === undefined) throw new CtxpruneError('INVALID_OPTION', '--select CASES.jsonl needs --ids OUT.json (the identifiers file to write)');
    const ids = selectTranscriptIds((await readCases(select)) as SelectableCase[], numberFlag(args, 'per-repo') ?? 6);
    await writeFile(out, JSON.stringify(ids, null, 1) + '\n');
    io.out(`${ids.length} transcripts from ${new Set(ids.map((x) => x.repo)).size} repositories → ${out}`);
    return 0;
  }
  const strategies = (stringFlag(args, 'strategies') ?? COMPACTION_STRATEGIES.join(',')).split(',');
  for (const s of strategies) {
    if (!(COMPACTION_STRATEGIES as readonly string[]).includes(s)) {
      throw new CtxpruneError('INVALID_OPTION', `unknown compaction strategy "${s}" (valid: ${COMPACTION_STRATEGIES.join(', ')})`);
    }
  }
  // The cuts' scorer: the trained model by default, as `ctxprune compact` and the MCP server cut.
  const scorerName = stringFlag(args, 'scorer') ?? 'auto';
  const variants: CompactionVariant[] = strategies.map((strategy) => ({
    name: strategy,
    strategy: strategy as CompactionStrategy,
    options: { scorer: scorerName },
  }));
  // --variants 'name:strategy:{json options};…', for tuning runs (the --scorer unless they name one).
  for (const extra of (stringFlag(args, 'variants') ?? '').split(';').filter(Boolean)) {
    const [name, strategy, ...rest] = extra.split(':');
    const options = JSON.parse(rest.join(':') || '{}') as CompactionVariant['options'];
    variants.push({ name, strategy: strategy as CompactionStrategy, options: { scorer: scorerName, ...options } });
  }
  const counter = await loadDefaultTokenCounter();
  const which = stringFlag(args, 'transcripts') ?? 'cases';
  let transcripts: BenchTranscript[];
  let what: string;
  let check: ((text: string) => number) | undefined;
  // --split: the even or odd positions of the cases or identifiers file (a tuning half and a confirming half).
  const split = stringFlag(args, 'split') ?? 'all';
  if (!['all', 'even', 'odd'].includes(split)) throw new CtxpruneError('INVALID_OPTION', `--split is all, even or odd; got "${split}"`);
  if (which === 'cases') {
    const casesPath = stringFlag(args, 'cases') ?? DEFAULT_CASES;
    const poolsDir = stringFlag(args, 'pools') ?? 'data/pools';
    const all = (await readCases(casesPath)) as DevCase[];
    let cases = split === 'even' ? all.filter((_, i) => i % 2 === 0) : split === 'odd' ? all.filter((_, i) => i % 2 === 1) : all;
    if (limit > 0) cases = cases.slice(0, limit);
    const ids = new Set(cases.map((c) => c.id));
    // Other files come from every case of the repository, whatever the split.
    transcripts = buildTranscripts(all, { poolsDir: existsSync(poolsDir) ? poolsDir : undefined }).filter((t) => ids.has(t.id));
    what = `cases: ${casesPath} (${split}${limit ? `, first ${limit}` : ''})`;
  } else {
    const idsPath = TRANSCRIPT_IDS[which] ?? which;
    const mirrors = openMirrors(mirrorDirFromArgs(args), `--transcripts ${which}`);
    const ids = (JSON.parse(await readFile(idsPath, 'utf8')) as TranscriptId[]).filter((_, i) => split === 'all' || i % 2 === (split === 'even' ? 0 : 1));
    transcripts = (limit ? ids.slice(0, limit) : ids).filter((x) => existsSync(mirrors.gitDir(x.repo))).map((x) => buildValTranscript(mirrors, x));
    // "Over budget" counted independently of the library's counter: js-tiktoken's o200k_base.
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/o200k_base')).default;
    const ref = new Tiktoken(ranks);
    check = (text) => ref.encode(text, 'all').length;
    const repos = [...new Set(transcripts.map((t) => t.repo))];
    what = `${transcripts.length} transcripts of ${idsPath}${split === 'all' ? '' : ` (${split} positions)`} from ${repos.length} repositories (${repos.join(', ')}), mirrors ${mirrors.dir}; over budget counted with js-tiktoken`;
  }
  if (boolFlag(args, 'reuse')) {
    // Time, not recall: each call without and with a cache across the session's calls.
    const strategy = (stringFlag(args, 'strategies') ?? 'task_aware_mig') as CompactionStrategy;
    if (strategy.includes(',')) throw new CtxpruneError('INVALID_OPTION', '--reuse times one strategy: give --strategies one name');
    const rows = await runReuseBench(transcripts, counter, { strategy, scorer: scorerName });
    if (boolFlag(args, 'json')) io.out(JSON.stringify(rows, null, 1));
    else {
      io.out(`${what}; ${strategy}, scorer ${scorerName}; agent loop: every second turn at 1/4; budget moves: 1/4, 1/5, …, 1/4 (the first not timed)\n`);
      io.out(formatReuseRows(rows));
    }
    return rows.some((r) => r.differ > 0) ? 1 : 0;
  }
  const ratios = ratiosFromArgs(args, which === 'cases' ? [4] : [4, 8]);
  const result = await runCompactionBench(transcripts, variants, counter, { ratios, ...(check ? { check } : {}) });
  if (boolFlag(args, 'json')) io.out(JSON.stringify(result, null, 1));
  else {
    io.out(`${what}; budget = 1/ratio of each transcript's tokens (${counter.name}); scorer ${scorerName}\n`);
    io.out(formatRows(result.rows));
  }
  return 0;
}

/** One configuration of the pipeline: an ablation and a marker style (default: the library's). */
interface Variant {
  ablation?: PruneAblation;
  elision?: ElisionStyle;
  tuning?: PruneTuning;
}

const TUNING_KEYS = [
  'maxWholeSpan',
  'clueWeight',
  'docstringWeight',
  'docsQueryWeight',
  'costExponent',
  'viterbiStart',
  'repairImports',
  'packerValue',
  'variants',
  'shallowBelow',
  'flatBelow',
  'flatRatio',
  'bareBelow',
  'evidencePower',
] as const satisfies readonly (keyof PruneTuning)[];

/** `--tune maxWholeSpan=6,clueWeight=0`: the pipeline's tuned constants, for sweeps on the validation corpus. */
function tuningFromArg(arg: string | undefined): PruneTuning | undefined {
  if (arg === undefined) return undefined;
  const tuning: PruneTuning = {};
  for (const pair of arg.split(',').filter(Boolean)) {
    const [key, raw] = pair.split('=');
    const value = Number(raw);
    if (!(TUNING_KEYS as readonly string[]).includes(key) || raw === undefined || !Number.isFinite(value)) {
      throw new CtxpruneError('INVALID_OPTION', `--tune takes name=number pairs of ${TUNING_KEYS.join(', ')}; got "${pair}"`);
    }
    tuning[key as (typeof TUNING_KEYS)[number]] = value;
  }
  return tuning;
}

/**
 * Prune every case. With `ranking`, also the recall of the scorer's ranking alone at the same
 * budget (bench/ranking.ts), from the very emissions the pipeline decoded, and of the
 * smoothed-BM25 window (bench/baselines.ts) on the same costs.
 */
async function runCases(cases: BenchCase[], ratio: number, variant: Variant, scorer: Scorer, ranking = false): Promise<CaseOutcome[]> {
  const tokenCounter = await loadDefaultTokenCounter();
  let scored: ScorerOutput | null = null;
  const capturing: Scorer = { name: scorer.name, score: async (input) => (scored = await scorer.score(input)) };
  const out: CaseOutcome[] = [];
  for (const c of cases) {
    const t0 = performance.now();
    const r = await prune(c.file_text, {
      query: c.query,
      ratio,
      language: c.language,
      fileName: c.path,
      ...variant,
      tokenCounter,
      scorer: ranking ? capturing : scorer,
    });
    const ms = performance.now() - t0;
    const { recall, allKept } = goldRecall(r.keptLines, c.gold_lines);
    let rankOnly: number | undefined;
    let window: number | undefined;
    if (ranking && scored) {
      const lines = splitLines(c.file_text);
      const { costs } = measureTokens(c.file_text, lines, tokenCounter);
      rankOnly = rankingRecall(scored, costs, r.stats.budgetTokens, c.gold_lines);
      window = keptRecall(smoothedBm25Keep(lines, c.query, costs, r.stats.budgetTokens), c.gold_lines);
    }
    out.push({
      ...(rankOnly === undefined ? {} : { rankingRecall: rankOnly }),
      ...(window === undefined ? {} : { bm25WindowRecall: window }),
      kind: caseKind(c),
      id: c.id,
      ratio,
      keptLines: r.keptLines,
      originalTokens: r.stats.originalTokens,
      outputTokens: r.stats.outputTokens,
      budgetTokens: r.stats.budgetTokens,
      parseOk: r.stats.outputParseOk,
      inputParseOk: r.stats.inputParseOk,
      ms,
      recall,
      allKept,
      language: c.language,
    });
  }
  return out;
}

/** commit | issue | description: the case's own field, else from its source (SWE-bench cases are issues). */
function caseKind(c: BenchCase): string {
  if (c.kind) return c.kind;
  if (c.source === 'swebench_verified') return 'issue';
  if (c.source?.startsWith('docs_')) return 'description';
  return 'commit';
}

function outcomeLine(o: CaseOutcome): string {
  return JSON.stringify({
    id: o.id,
    ratio: o.ratio,
    kind: o.kind,
    language: o.language,
    recall: o.recall,
    rankingRecall: o.rankingRecall,
    bm25WindowRecall: o.bm25WindowRecall,
    keptLines: o.keptLines,
    originalTokens: o.originalTokens,
    outputTokens: o.outputTokens,
    parseOk: o.parseOk,
    inputParseOk: o.inputParseOk,
    ms: Math.round(o.ms * 100) / 100,
  });
}

/** `ctxprune bench speed` (and `--speed`): pruneSpeed over the cases, then the model on the case closest to 1,000 lines (modelSpeed). */
async function speedSuite(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['json'], ['cases', 'scorer', 'runs']);
  const cases = await readCases(stringFlag(args, 'cases') ?? DEFAULT_CASES);
  // The model first, in a fresh process: its load time includes onnxruntime's start, as a first prune's does.
  const one = closestTo1000(cases);
  const model = one ? await modelSpeed(one.file_text, one.query, (one.language ?? null) as LanguageId | null, numberFlag(args, 'runs') ?? 20) : null;
  const files = await pruneSpeed(cases, await resolveScorer(stringFlag(args, 'scorer') ?? 'auto'));
  if (boolFlag(args, 'json')) io.out(JSON.stringify({ files, model: model && { case: one?.id, ...model } }, null, 1));
  else {
    io.out(files ?? 'Speed: no case file has 1,000 lines');
    if (model && one) {
      io.out(
        `Model, WASM, on ${one.id} (${model.lines} lines, ${model.tokens} tokens), ${model.runs} runs: load ${model.model_load_ms} ms; ` +
          `score median ${model.neural_score_ms_median} ms (lexical ${model.lexical_score_ms_median} ms); ` +
          `prune median ${model.neural_prune_ms_median} ms (${model.neural_prune_tokens_per_s} tokens/s; lexical ${model.lexical_prune_ms_median} ms); ` +
          `peak RSS ${model.peak_rss_mb} MB`,
      );
    }
  }
  return 0;
}

/** `ctxprune bench abort` (bench/abort.ts): abort latency on 1 MB inputs. */
async function abortSuite(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['json'], ['points', 'ratio', 'scorer']);
  const scorer = await resolveScorer(stringFlag(args, 'scorer') ?? 'lexical');
  const ratio = numberFlag(args, 'ratio') ?? 8;
  const rows = await abortBench(abortInputs(), scorer, { points: numberFlag(args, 'points') ?? 24, ratio });
  if (boolFlag(args, 'json')) io.out(JSON.stringify(rows, null, 1));
  else for (const r of rows) io.out(formatAbortRow(r, scorer.name, ratio));
  return 0;
}

/** `ctxprune bench rank` (bench/rank.ts): the scorers' rankings alone, no pipeline. */
async function rankSuite(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['json'], ['cases', 'model', 'by', 'ratios', 'ratio']);
  const by = stringFlag(args, 'by') ?? 'chars';
  if (by !== 'chars' && by !== 'tokens') throw new CtxpruneError('INVALID_OPTION', `--by is chars or tokens; got "${by}"`);
  const casesPath = stringFlag(args, 'cases') ?? DEFAULT_CASES;
  const cases = await readCases(casesPath);
  const model = stringFlag(args, 'model');
  const rows = await rankBench(cases, { by, ratios: ratiosFromArgs(args, [4, 8]), ...(model !== undefined ? { model } : {}) });
  if (boolFlag(args, 'json')) io.out(JSON.stringify(rows, null, 1));
  else {
    io.out(
      `${cases.length} cases from ${casesPath}; lines in score order while 1/ratio of the file's ${by === 'chars' ? 'characters' : 'o200k tokens'} fits\n`,
    );
    io.out(formatRankRows(rows));
  }
  return 0;
}

export const command: Command = {
  summary:
    'every benchmark, by suite: prune (default: gold-line recall, budget, parse validity, speed), compaction, locate, pack, rank, speed, abort, languages; compare (two --out files, case by case)',
  usage:
    'ctxprune bench [prune] --cases CASES.jsonl --ratio R [--scorer lexical|neural|auto] [--elision bare|indented|compact|verbose] [--out RESULTS.jsonl] [--tune name=value,…] [--no-repair|--no-dependency|--single-head|--no-gate] | --suite [--cases CASES.jsonl] | --speed [--cases CASES.jsonl]' +
    ' | ctxprune bench compaction [--cases CASES.jsonl] [--pools DIR] [--ratios 4] [--limit N] [--split all|even|odd] [--strategies …] [--variants …] [--scorer S] [--json]' +
    ' | ctxprune bench compaction --transcripts val|wide|tune|holdout|IDS.json [--mirror DIR] [--ratios 4,8] [--limit N] [--split all|even|odd] [--strategies …] [--variants …] [--scorer S] [--json]' +
    ' | ctxprune bench compaction --reuse [--transcripts …] [--limit N] [--strategies ONE] [--scorer S] [--json]' +
    ' | ctxprune bench compaction --select CASES.jsonl --ids OUT.json [--per-repo 6]' +
    ' | ctxprune bench locate --instances I.jsonl --pools DIR [--out R.jsonl] | ctxprune bench pack [--instances I.jsonl] [--budgets …] [--out ROWS.jsonl]' +
    ' | ctxprune bench rank [--cases CASES.jsonl] [--model PATH] [--by chars|tokens] [--ratios 4,8] [--json]' +
    ' | ctxprune bench speed [--cases CASES.jsonl] [--scorer S] [--runs 20] [--json]' +
    ' | ctxprune bench abort [--points 24] [--scorer lexical|neural|auto] [--ratio 8] [--json]' +
    ' | ctxprune bench languages [--mirror DIR] [--ids FILES.json] [--ratios 4,8] [--split all|tune|held-out] [--json] | ctxprune bench languages --select --mirror DIR --ids OUT.json' +
    ' | ctxprune bench compare BEFORE.jsonl AFTER.jsonl [--json]',
  async run(argv0, io) {
    const suite: Suite = argv0[0] !== undefined && !argv0[0].startsWith('-') ? (argv0[0] as Suite) : 'prune';
    if (!(BENCH_SUITES as readonly string[]).includes(suite)) {
      throw new CtxpruneError('INVALID_OPTION', `unknown benchmark suite "${suite}" (suites: ${BENCH_SUITES.join(', ')})`);
    }
    const argv = argv0[0] === suite ? argv0.slice(1) : argv0;
    if (suite === 'compaction') return compactionSuite(argv, io);
    if (suite === 'locate') return (await import('./locate.js')).command.run(argv, io);
    if (suite === 'pack') return (await import('./pack.js')).command.run(['--bench', ...argv], io);
    if (suite === 'rank') return rankSuite(argv, io);
    if (suite === 'speed') return speedSuite(argv, io);
    if (suite === 'abort') return abortSuite(argv, io);
    if (suite === 'languages') return (await import('./bench-languages.js')).command.run(argv, io);
    if (suite === 'compare') return (await import('./bench-compare.js')).command.run(argv, io);
    const args = parseArgs(argv, ['suite', 'speed', ...ABLATION_FLAGS], ['cases', 'out', 'ratio', 'scorer', 'elision', 'tune']);
    const casesPath = stringFlag(args, 'cases') ?? DEFAULT_CASES;
    // The CLI's default: the trained model, or the lexical scorer when it cannot load.
    const scorer = await resolveScorer(stringFlag(args, 'scorer') ?? 'auto');
    const name = scorer.name === 'auto' ? 'lexical (neural unavailable)' : scorer.name;
    const cases = await readCases(casesPath);
    if (boolFlag(args, 'speed')) {
      io.out((await pruneSpeed(cases, scorer)) ?? 'Speed: no case file has 1,000 lines');
      return 0;
    }
    if (boolFlag(args, 'suite')) {
      io.out(`Benchmark: ${cases.length} cases from ${casesPath}, scorer ${name}, budget counted in o200k_base tokens\n`);
      const lexical = scorer.name === 'neural' ? await resolveScorer('lexical') : null;
      const runs: [string, Variant][] = [
        [`LaMR ${name} (full)`, {}],
        ["  with line ranges in its markers ('compact')", { elision: 'compact' }],
        ['− dependency rubric', { ablation: { noDependency: true } }],
        ['− gate (uniform)', { ablation: { noGate: true } }],
        ['single CRF head (SWE-Pruner style)', { ablation: { singleHead: true } }],
        ['− AST repair', { ablation: { noRepair: true } }],
      ];
      for (const ratio of [4, 8]) {
        io.out(`\n${ratio}× (keep ≤ 1/${ratio} of the tokens)\n${SUMMARY_HEADER}`);
        for (const [label, variant] of runs) {
          const full = label.endsWith('(full)');
          const outcomes = await runCases(cases, ratio, variant, scorer, full);
          io.out(formatSummaryRow(label, summarize(outcomes)));
          if (full) io.out(formatRankingRow(`  its scorer's ranking alone (no markers, decoding or repair)`, outcomes));
        }
        if (lexical) io.out(formatSummaryRow('LaMR lexical scorer (full)', summarize(await runCases(cases, ratio, {}, lexical))));
      }
      for (const s of lexical ? [scorer, lexical] : [scorer]) {
        const line = await pruneSpeed(cases, s);
        if (line) io.out(`\n${line}`);
      }
      return 0;
    }
    const ratio = numberFlag(args, 'ratio');
    if (ratio === undefined) throw new CtxpruneError('INVALID_OPTION', `--ratio is required (or --suite)\nusage: ${this.usage}`);
    const variant = { ablation: ablationFromArgs(args), elision: elisionFromArgs(args), tuning: tuningFromArg(stringFlag(args, 'tune')) };
    const outcomes = await runCases(cases, ratio, variant, scorer, true);
    const outPath = stringFlag(args, 'out');
    if (outPath) await writeFile(outPath, outcomes.map(outcomeLine).join('\n') + '\n');
    io.out(
      `${outcomes.length} cases at ${ratio}× (ranking = the scorer's ranking alone; window = smoothed-BM25 window; both greedy under the same budget, no markers)`,
    );
    io.out(formatBreakdown(name, outcomes));
    return 0;
  },
};
