/**
 * `ctxprune bench [SUITE]`: the one entry to every benchmark. Suites: `prune` (the default: recall,
 * budget, parse validity and speed of line pruning on cases), `compaction` (agent transcripts built
 * from the cases, bench/compaction.ts), `locate` (file localization on SWE-bench instances) and
 * `pack` (task context packing on SWE-bench instances).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { buildTranscripts, formatRows, loadCases, runCompactionBench, type Variant as CompactionVariant } from '../../bench/compaction.js';
import type { CompactionStrategy } from '../../compaction/types.js';
import { type BenchCase, readCases } from '../../bench/cases.js';
import { type CaseOutcome, formatBreakdown, formatRankingRow, formatSummaryRow, goldRecall, summarize, SUMMARY_HEADER } from '../../bench/metrics.js';
import { rankingRecall } from '../../bench/ranking.js';
import { keptRecall, smoothedBm25Keep } from '../../bench/baselines.js';
import { CtxpruneError } from '../../errors.js';
import { prune } from '../../prune/pipeline.js';
import { resolveScorer } from '../../scorers/registry.js';
import type { Scorer, ScorerOutput } from '../../scorers/types.js';
import type { PruneAblation, PruneTuning } from '../../prune/types.js';
import type { ElisionStyle } from '../../text/elision.js';
import { splitLines } from '../../text/lines.js';
import { loadDefaultTokenCounter, measureTokens } from '../../text/tokens.js';
import { boolFlag, numberFlag, parseArgs, stringFlag } from '../args.js';
import type { CliIo, Command } from '../main.js';
import { ablationFromArgs, ABLATION_FLAGS, elisionFromArgs } from './shared.js';

const DEFAULT_CASES = process.env.CTXPRUNE_BENCH_CASES ?? 'data/dev-cases.jsonl';

export const BENCH_SUITES = ['prune', 'compaction', 'locate', 'pack'] as const;
type Suite = (typeof BENCH_SUITES)[number];

/**
 * The compaction suite (was packages/core/bench/compaction/run.mjs): transcripts built from the
 * cases, each strategy at a budget of 1/ratio of the transcript's tokens, the share of gold lines kept.
 */
async function compactionSuite(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['json'], ['cases', 'pools', 'limit', 'split', 'ratio', 'variants']);
  const casesPath = stringFlag(args, 'cases') ?? DEFAULT_CASES;
  const poolsDir = stringFlag(args, 'pools') ?? 'data/pools';
  const limit = numberFlag(args, 'limit') ?? 0;
  const split = stringFlag(args, 'split') ?? 'all';
  const ratio = numberFlag(args, 'ratio') ?? 4;
  if (!['all', 'even', 'odd'].includes(split)) throw new CtxpruneError('INVALID_OPTION', `--split is all, even or odd; got "${split}"`);
  const all = loadCases(casesPath);
  let cases = split === 'even' ? all.filter((_, i) => i % 2 === 0) : split === 'odd' ? all.filter((_, i) => i % 2 === 1) : all;
  if (limit > 0) cases = cases.slice(0, limit);
  const ids = new Set(cases.map((c) => c.id));
  // Other files come from every case of the repository, whatever the split.
  const transcripts = buildTranscripts(all, { poolsDir: existsSync(poolsDir) ? poolsDir : undefined }).filter((t) => ids.has(t.id));
  const variants: CompactionVariant[] = (['reactive', 'task_aware', 'mig', 'task_aware_mig'] as const).map((strategy) => ({ name: strategy, strategy }));
  // --variants 'name:strategy:{json options};…', for tuning runs.
  for (const extra of (stringFlag(args, 'variants') ?? '').split(';').filter(Boolean)) {
    const [name, strategy, ...rest] = extra.split(':');
    variants.push({ name, strategy: strategy as CompactionStrategy, options: JSON.parse(rest.join(':') || '{}') as CompactionVariant['options'] });
  }
  const counter = await loadDefaultTokenCounter();
  const rows = await runCompactionBench(transcripts, variants, counter, { ratio });
  if (boolFlag(args, 'json')) io.out(JSON.stringify(rows, null, 2));
  else {
    io.out(`cases: ${casesPath} (${split}${limit ? `, first ${limit}` : ''}), budget = 1/${ratio} of each transcript's tokens (${counter.name})\n`);
    io.out(formatRows(rows));
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
  'costExponent',
  'viterbiStart',
  'repairImports',
  'packerValue',
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

/** Median ms to prune a 1,000-line file (the first 1,000 lines of every case file that long). */
async function speed(cases: BenchCase[], io: CliIo, scorer: Scorer): Promise<void> {
  const tokenCounter = await loadDefaultTokenCounter();
  const files = cases.filter((c) => c.file_text.split('\n').length >= 1000).map((c) => ({ c, text: c.file_text.split('\n').slice(0, 1000).join('\n') }));
  if (!files.length) return;
  for (const f of files.slice(0, 3)) await prune(f.text, { query: f.c.query, ratio: 4, language: f.c.language, tokenCounter, scorer });
  const ms: number[] = [];
  // CPU time too (this process, all its threads): unlike wall time, it does not grow when other
  // processes share the cores.
  const cpu: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    for (const f of files) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await prune(f.text, { query: f.c.query, ratio: 4, language: f.c.language, tokenCounter, scorer });
      ms.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  ms.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  io.out(
    `\nSpeed: ${scorer.name} scorer, 1,000-line files (${files.length} files × 3), tree-sitter parse included: ` +
      `median ${ms[Math.floor(ms.length / 2)].toFixed(1)} ms, p95 ${ms[Math.ceil(0.95 * ms.length) - 1].toFixed(1)} ms; ` +
      `CPU median ${cpu[Math.floor(cpu.length / 2)].toFixed(1)} ms`,
  );
}

export const command: Command = {
  summary: 'every benchmark, by suite: prune (default: gold-line recall, budget, parse validity, speed), compaction, locate, pack',
  usage:
    'ctxprune bench [prune] --cases CASES.jsonl --ratio R [--scorer lexical|neural|auto] [--elision bare|compact|verbose] [--out RESULTS.jsonl] [--tune name=value,…] [--no-repair|--no-dependency|--single-head|--no-gate] | --suite [--cases CASES.jsonl] | --speed [--cases CASES.jsonl]' +
    ' | ctxprune bench compaction [--cases CASES.jsonl] [--pools DIR] [--ratio 4] [--limit N] [--split all|even|odd] [--variants …] [--json]' +
    ' | ctxprune bench locate --instances I.jsonl --pools DIR [--out R.jsonl] | ctxprune bench pack [--instances I.jsonl] [--budgets …] [--out ROWS.jsonl]',
  async run(argv0, io) {
    const suite: Suite = argv0[0] !== undefined && !argv0[0].startsWith('-') ? (argv0[0] as Suite) : 'prune';
    if (!(BENCH_SUITES as readonly string[]).includes(suite)) {
      throw new CtxpruneError('INVALID_OPTION', `unknown benchmark suite "${suite}" (suites: ${BENCH_SUITES.join(', ')})`);
    }
    const argv = argv0[0] === suite ? argv0.slice(1) : argv0;
    if (suite === 'compaction') return compactionSuite(argv, io);
    if (suite === 'locate') return (await import('./locate.js')).command.run(argv, io);
    if (suite === 'pack') return (await import('./pack.js')).command.run(['--bench', ...argv], io);
    const args = parseArgs(argv, ['suite', 'speed', ...ABLATION_FLAGS], ['cases', 'out', 'ratio', 'scorer', 'elision', 'tune']);
    const casesPath = stringFlag(args, 'cases') ?? DEFAULT_CASES;
    // The CLI's default: the trained model, or the lexical scorer when it cannot load.
    const scorer = await resolveScorer(stringFlag(args, 'scorer') ?? 'auto');
    const name = scorer.name === 'auto' ? 'lexical (neural unavailable)' : scorer.name;
    const cases = await readCases(casesPath);
    if (boolFlag(args, 'speed')) {
      await speed(cases, io, scorer);
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
      await speed(cases, io, scorer);
      if (lexical) await speed(cases, io, lexical);
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
