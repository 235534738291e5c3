/**
 * Speed of line pruning in Node (`ctxprune bench speed`, also `bench --speed` and the end of
 * `bench --suite`): the median time to prune a 1,000-line file over every case file that long
 * (`pruneSpeed`), and for the trained model on one file (`modelSpeed`, was training/speed.mjs):
 * model load time, scoring alone with each scorer, pruning with each, tokens/s and peak RSS.
 */
import { prune } from '../prune/pipeline.js';
import { LexicalScorer } from '../scorers/lexical.js';
import { NeuralScorer } from '../scorers/neural.js';
import type { Scorer } from '../scorers/types.js';
import { analyze } from '../syntax/index.js';
import { splitLines } from '../syntax/lexical.js';
import type { LanguageId } from '../syntax/types.js';
import { loadDefaultTokenCounter } from '../text/tokens.js';
import type { BenchCase } from './cases.js';

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median ms to prune a 1,000-line file (the first 1,000 lines of every case file that long), 3 runs each; null when no case is that long. */
export async function pruneSpeed(cases: readonly BenchCase[], scorer: Scorer): Promise<string | null> {
  const tokenCounter = await loadDefaultTokenCounter();
  const files = cases.filter((c) => c.file_text.split('\n').length >= 1000).map((c) => ({ c, text: c.file_text.split('\n').slice(0, 1000).join('\n') }));
  if (!files.length) return null;
  const run = (f: (typeof files)[number]) => prune(f.text, { query: f.c.query, ratio: 4, language: f.c.language, tokenCounter, scorer });
  for (const f of files.slice(0, 3)) await run(f);
  const ms: number[] = [];
  // CPU time too (this process, all its threads): unlike wall time, it does not grow when other
  // processes share the cores.
  const cpu: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    for (const f of files) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await run(f);
      ms.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  ms.sort((a, b) => a - b);
  return (
    `Speed: ${scorer.name} scorer, 1,000-line files (${files.length} files × 3), tree-sitter parse included: ` +
    `median ${median(ms).toFixed(1)} ms, p95 ${ms[Math.ceil(0.95 * ms.length) - 1].toFixed(1)} ms; ` +
    `CPU median ${median(cpu).toFixed(1)} ms`
  );
}

export interface ModelSpeed {
  lines: number;
  tokens: number;
  runs: number;
  backend: string;
  model_load_ms: number;
  neural_score_ms_median: number;
  lexical_score_ms_median: number;
  neural_prune_ms_median: number;
  lexical_prune_ms_median: number;
  neural_prune_tokens_per_s: number;
  peak_rss_mb: number;
}

/** The case whose file is closest to 1,000 lines. */
export function closestTo1000(cases: readonly BenchCase[]): BenchCase | undefined {
  let best: BenchCase | undefined;
  let bestD = Infinity;
  for (const c of cases) {
    const d = Math.abs(splitLines(c.file_text).length - 1000);
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

/** The trained model on one file (WASM): load, then `runs` rounds of scoring and pruning with each scorer. */
export async function modelSpeed(text: string, query: string, language: LanguageId | null, runs = 20): Promise<ModelSpeed> {
  const lines = splitLines(text);
  const t0 = performance.now();
  const neural = await NeuralScorer.load({ backend: 'wasm' });
  const loadMs = performance.now() - t0;
  const structure = await analyze(text, language);
  const counter = await loadDefaultTokenCounter();
  const tokens = counter.count(text);
  const lexical = new LexicalScorer();
  const input = { query, lines, structure, language };
  for (let i = 0; i < 3; i++) await neural.score(input);
  const score: number[] = [],
    scoreLex: number[] = [],
    pruneN: number[] = [],
    pruneL: number[] = [];
  const time = async (into: number[], f: () => unknown) => {
    const t = performance.now();
    await f();
    into.push(performance.now() - t);
  };
  for (let i = 0; i < runs; i++) {
    await time(score, () => neural.score(input));
    await time(scoreLex, () => lexical.score(input));
    await time(pruneN, () => prune(text, { query, ratio: 4, language, scorer: neural, tokenCounter: counter }));
    await time(pruneL, () => prune(text, { query, ratio: 4, language, tokenCounter: counter }));
  }
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    lines: lines.length,
    tokens,
    runs,
    backend: neural.backend,
    model_load_ms: round(loadMs),
    neural_score_ms_median: round(median(score)),
    lexical_score_ms_median: round(median(scoreLex)),
    neural_prune_ms_median: round(median(pruneN)),
    lexical_prune_ms_median: round(median(pruneL)),
    neural_prune_tokens_per_s: Math.round(tokens / (median(pruneN) / 1000)),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}
