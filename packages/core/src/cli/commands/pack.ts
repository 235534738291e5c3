/**
 * `ctxprune pack`: the context for a task from a repository under one token budget (ranked files,
 * each pruned to its share, a signature map with what is left). `--bench`: gold-line recall of
 * packs on SWE-bench instances beside whole files in BM25 order and the patched files alone.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describeDegradations } from '../../degradations.js';
import { CtxpruneError } from '../../errors.js';
import { packDirectory } from '../../pack/node.js';
import { runPackBench, type PackBenchRow } from '../../bench/pack.js';
import { resolveScorer } from '../../scorers/registry.js';
import { boolFlag, numberFlag, parseArgs, stringFlag } from '../args.js';
import type { Command } from '../main.js';

const usage =
  'ctxprune pack --repo DIR --task TEXT|--task-file F --tokens N [--json] [--line-numbers] [--no-map] [--include-tests] [--scorer lexical|neural|auto] | ' +
  'ctxprune pack --bench [--instances I.jsonl] [--cases CASES.jsonl] [--pools DIR] [--budgets 4000,8000,16000] [--scorer …] [--out ROWS.jsonl]';

async function read(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new CtxpruneError('INVALID_OPTION', `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function scorerFrom(name: string | undefined) {
  // As prune and bench: the trained model by default (auto: lexical where it cannot run). The
  // ranking's document score stays lexical either way (locate's measured default).
  if (name === 'lexical') return 'lexical' as const;
  return resolveScorer(name ?? 'auto');
}

const fmt = (xs: number[]) => xs.map((x) => x.toFixed(3)).join('  ');

export const command: Command = {
  summary: 'the context for a task from a repository under one token budget (ranked files pruned to their share + a signature map)',
  usage,
  async run(argv, io) {
    const args = parseArgs(
      argv,
      ['json', 'line-numbers', 'no-map', 'include-tests', 'bench'],
      ['repo', 'task', 'task-file', 'tokens', 'scorer', 'instances', 'cases', 'pools', 'budgets', 'out'],
    );
    const scorer = await scorerFrom(stringFlag(args, 'scorer'));
    if (boolFlag(args, 'bench')) {
      const budgets = (stringFlag(args, 'budgets') ?? '4000,8000,16000').split(',').map((s) => Number(s.trim()));
      if (budgets.some((b) => !Number.isInteger(b) || b < 1)) throw new CtxpruneError('INVALID_BUDGET', '--budgets must be positive integers, comma-separated');
      const rows: PackBenchRow[] = [];
      const s = await runPackBench({
        instancesPath: stringFlag(args, 'instances') ?? process.env.CTXPRUNE_PACK_INSTANCES ?? '../shared/bench/dev-swebench-instances.jsonl',
        casesPath: stringFlag(args, 'cases') ?? process.env.CTXPRUNE_BENCH_CASES ?? 'data/dev-cases.jsonl',
        pools: stringFlag(args, 'pools') ?? 'data/pools',
        budgets,
        scorer,
        onRow: (r) => rows.push(r),
      });
      const out = stringFlag(args, 'out');
      if (out) await writeFile(out, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
      for (const id of s.missing) io.err(`no tree or gold lines for ${id}`);
      io.out(`pack benchmark: ${s.instances} instances, gold-line recall (pre-image lines of every patched file) at ${s.budgets.join(' / ')} o200k tokens`);
      io.out(`  pack (scorer ${typeof scorer === 'string' ? scorer : scorer.name})          ${fmt(s.pack)}`);
      io.out(`  (a) whole files, BM25 order       ${fmt(s.refA)}`);
      io.out(`  (b) patched files alone, whole    ${fmt(s.refB)}`);
      io.out(`  pack − (a)                        ${fmt(s.pack.map((x, i) => x - s.refA[i]))}`);
      io.out(
        `  budget: worst pack ${s.worstOverBudget > 0 ? `${s.worstOverBudget} tokens OVER` : 'within'} its budget; median ${s.msMedian.toFixed(0)} ms per pack (index reused per tree)`,
      );
      return s.instances === 0 ? 1 : 0;
    }
    const repo = stringFlag(args, 'repo');
    if (!repo) throw new CtxpruneError('INVALID_OPTION', `--repo DIR is required\nusage: ${usage}`);
    const taskFile = stringFlag(args, 'task-file');
    const task = stringFlag(args, 'task') ?? (taskFile ? await read(taskFile) : undefined);
    if (task === undefined) throw new CtxpruneError('INVALID_OPTION', `--task or --task-file is required\nusage: ${usage}`);
    const tokens = numberFlag(args, 'tokens');
    if (tokens === undefined || !Number.isFinite(tokens) || tokens < 1)
      throw new CtxpruneError('INVALID_BUDGET', `--tokens N (≥ 1) is required\nusage: ${usage}`);
    const r = await packDirectory({
      root: repo,
      task,
      tokens,
      scorer,
      lineNumbers: boolFlag(args, 'line-numbers'),
      map: !boolFlag(args, 'no-map'),
      includeTests: boolFlag(args, 'include-tests'),
    });
    if (boolFlag(args, 'json')) {
      io.out(JSON.stringify(r));
      return 0;
    }
    io.out(r.text || '(nothing fits the budget)');
    const s = r.stats;
    io.err(
      `ctxprune pack: ${r.tokens}/${r.budget} tokens (${s.tokenizer}), ${r.files.length} file${r.files.length === 1 ? '' : 's'} ` +
        `(${r.files.map((f) => `${f.path} ${f.keptLines.length}/${f.totalLines}`).join(', ') || '-'}), ${r.map.length} map entries; ` +
        `${s.poolFiles} files in the pool (${s.excludedFiles} tests/binary left out), scorer ${s.scorer}, ${s.ms.toFixed(0)} ms` +
        (s.degraded.length ? `\nnote: ${describeDegradations(s.degraded)}` : ''),
    );
    return 0;
  },
};
