/**
 * `ctxprune bench rank` (was training/rank_eval.mjs): ranking quality of the scorers without the
 * pipeline. For each case, lines in order of fused keep−prune margin while 1/ratio of the file
 * fits (ranking.ts), the share of gold lines kept: the neural scorer with no lexical blend, its
 * semantic head alone (one rubric, the whole gate on it) and the lexical scorer. The budget is in
 * characters by default (`--by chars`, as the script measured) or in o200k tokens (`--by tokens`,
 * as the prune suite's "ranking alone" row, which also blends as the product does).
 */
import { LexicalScorer } from '../scorers/lexical.js';
import { NeuralScorer } from '../scorers/neural.js';
import type { Scorer, ScorerOutput } from '../scorers/types.js';
import { analyze } from '../syntax/index.js';
import { splitLines } from '../syntax/lexical.js';
import type { LanguageId } from '../syntax/types.js';
import { loadDefaultTokenCounter, measureTokens } from '../text/tokens.js';
import type { BenchCase } from './cases.js';
import { rankingRecall } from './ranking.js';

export interface RankRow {
  scorer: string;
  /** Mean gold-line recall at each ratio. */
  recall: Record<number, number>;
  cases: number;
}

export interface RankOptions {
  ratios?: number[];
  by?: 'chars' | 'tokens';
  /** The neural model (default: the configured one). */
  model?: string;
}

export async function rankBench(cases: readonly BenchCase[], options: RankOptions = {}): Promise<RankRow[]> {
  const ratios = options.ratios ?? [4, 8];
  const neural = await NeuralScorer.load({ ...(options.model !== undefined ? { model: options.model } : {}), backend: 'wasm', lexicalBlend: 0 });
  const lexical: Scorer = new LexicalScorer();
  const counter = options.by === 'tokens' ? await loadDefaultTokenCounter() : null;
  const names = ['neural', 'lexical', 'neural_sem'] as const;
  const sums = new Map(names.map((n) => [n, new Map(ratios.map((r) => [r, 0]))]));
  for (const c of cases) {
    const lines = splitLines(c.file_text);
    const language = (c.language ?? null) as LanguageId | null;
    const structure = await analyze(c.file_text, language);
    const input = { query: c.query, lines, structure, language };
    const n = await neural.score(input);
    const outs: Record<(typeof names)[number], ScorerOutput> = {
      neural: n,
      lexical: await lexical.score(input),
      neural_sem: { ...n, heads: [n.heads[0]], gate: new Float64Array(lines.length).fill(1) },
    };
    const costs = counter ? measureTokens(c.file_text, lines, counter).costs : Float64Array.from(lines, (l) => l.length + 1);
    const total = costs.reduce((a, b) => a + b, 0);
    for (const name of names) {
      const byRatio = sums.get(name)!;
      for (const r of ratios) byRatio.set(r, byRatio.get(r)! + rankingRecall(outs[name], costs, total / r, c.gold_lines));
    }
  }
  return names.map((scorer) => ({
    scorer,
    cases: cases.length,
    recall: Object.fromEntries(ratios.map((r) => [r, sums.get(scorer)!.get(r)! / cases.length])),
  }));
}

export function formatRankRows(rows: readonly RankRow[]): string {
  const ratios = Object.keys(rows[0]?.recall ?? {}).map(Number);
  const lines = [`| scorer (ranking alone) | ${ratios.map((r) => `${r}×`).join(' | ')} |`, `|---|${ratios.map(() => '---|').join('')}`];
  for (const r of rows) lines.push(`| ${r.scorer} | ${ratios.map((x) => r.recall[x].toFixed(3)).join(' | ')} |`);
  return lines.join('\n');
}
