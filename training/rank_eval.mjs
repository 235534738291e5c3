#!/usr/bin/env node
// @ts-check
/**
 * Diagnostic: ranking quality of the scorers without the pipeline. For each case, keep lines in
 * order of fused keep−prune margin until 1/ratio of the file's characters (bench/ranking.ts, as
 * `ctxprune bench --suite`'s ranking row, which counts tokens instead); report gold recall.
 *   node training/rank_eval.mjs --cases CASES.jsonl [--model PATH]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'packages', 'core', 'dist');
const { NeuralScorer } = await import(path.join(dist, 'scorers', 'neural.js'));
const { LexicalScorer } = await import(path.join(dist, 'scorers', 'lexical.js'));
const { analyze, splitLines } = await import(path.join(dist, 'syntax', 'index.js'));
const { rankingRecall } = await import(path.join(dist, 'bench', 'ranking.js'));
const args = process.argv.slice(2);
const opt = (k, d) => {
  const i = args.indexOf(`--${k}`);
  return i >= 0 ? args[i + 1] : d;
};
const neural = await NeuralScorer.load({ model: opt('model', undefined), backend: 'wasm', lexicalBlend: 0 });
const lexical = new LexicalScorer();
const cases = fs
  .readFileSync(opt('cases'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const res = /** @type {Record<string, Record<number, number[]>>} */ ({ neural: { 4: [], 8: [] }, lexical: { 4: [], 8: [] }, neural_sem: { 4: [], 8: [] } });
for (const c of cases) {
  const lines = splitLines(c.file_text);
  const st = await analyze(c.file_text, c.language === 'javascript' ? 'javascript' : c.language);
  const outs = {
    neural: await neural.score({ query: c.query, lines, structure: st, language: c.language }),
    lexical: lexical.score({ query: c.query, lines, structure: st, language: c.language }),
  };
  // The semantic head alone: one rubric, the whole gate on it.
  outs.neural_sem = { ...outs.neural, heads: [outs.neural.heads[0]], gate: new Float64Array(lines.length).fill(1) };
  // Budget in characters here (the bench's own row counts tokens): bench/ranking.ts either way.
  const chars = Float64Array.from(lines, (l) => l.length + 1);
  const total = chars.reduce((a, b) => a + b, 0);
  for (const [name, o] of Object.entries(outs)) {
    for (const r of [4, 8]) res[name][r].push(rankingRecall(o, chars, total / r, c.gold_lines));
  }
}
for (const [name, v] of Object.entries(res))
  console.log(name, (v[4].reduce((a, b) => a + b, 0) / v[4].length).toFixed(3), (v[8].reduce((a, b) => a + b, 0) / v[8].length).toFixed(3));
process.exit(0);
