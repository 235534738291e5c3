#!/usr/bin/env node
// @ts-check
/**
 * Speed of the neural scorer in Node (onnxruntime-web, WASM): model load time, median ms to
 * score and to prune a 1,000-line file, tokens/s, peak RSS. Run after `npm run build`.
 *
 *   node training/speed.mjs [--cases /work/data/dev-cases.jsonl] [--runs 20]
 *
 * With --cases, the file is the case whose length is closest to 1,000 lines (only its lines are
 * read, nothing is written); otherwise the feature fixture repeated to 1,000 lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'packages', 'core', 'dist');
const { NeuralScorer } = await import(path.join(dist, 'scorers', 'neural.js'));
const { LexicalScorer } = await import(path.join(dist, 'scorers', 'lexical.js'));
const { analyze, splitLines } = await import(path.join(dist, 'syntax', 'index.js'));
const { prune } = await import(path.join(dist, 'prune', 'pipeline.js'));
const { loadDefaultTokenCounter } = await import(path.join(dist, 'text', 'tokens.js'));

const args = process.argv.slice(2);
const opt = (k, d) => {
  const i = args.indexOf(`--${k}`);
  return i >= 0 ? args[i + 1] : d;
};
const runs = Number(opt('runs', '20'));
let text, query, language;
const casesPath = opt('cases', null);
if (casesPath) {
  let best = null;
  for (const line of fs.readFileSync(casesPath, 'utf8').split('\n')) {
    if (!line) continue;
    const c = JSON.parse(line);
    if (!best || Math.abs(c.n_lines - 1000) < Math.abs(best.n_lines - 1000)) best = c;
  }
  ({ file_text: text, query, language } = best);
} else {
  const fx = JSON.parse(fs.readFileSync(path.join(here, '..', 'packages', 'core', 'test', 'features', 'fixtures', 'case.json'), 'utf8'));
  const base = splitLines(fx.source);
  const out = [];
  while (out.length < 1000) out.push(...base);
  text = out.slice(0, 1000).join('\n');
  ({ query, language } = fx);
}
const lines = splitLines(text);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const t0 = performance.now();
const neural = await NeuralScorer.load({ backend: 'wasm' });
const loadMs = performance.now() - t0;
const st = await analyze(text, language);
const counter = await loadDefaultTokenCounter();
const tokens = counter.count(text);
const lexical = new LexicalScorer();
for (let i = 0; i < 3; i++) await neural.score({ query, lines, structure: st, language });
const score = [],
  scoreLex = [],
  pruneN = [],
  pruneL = [];
for (let i = 0; i < runs; i++) {
  let t = performance.now();
  await neural.score({ query, lines, structure: st, language });
  score.push(performance.now() - t);
  t = performance.now();
  lexical.score({ query, lines, structure: st, language });
  scoreLex.push(performance.now() - t);
  t = performance.now();
  await prune(text, { query, ratio: 4, language, scorer: neural, tokenCounter: counter });
  pruneN.push(performance.now() - t);
  t = performance.now();
  await prune(text, { query, ratio: 4, language, tokenCounter: counter });
  pruneL.push(performance.now() - t);
}
const r = {
  lines: lines.length,
  tokens,
  runs,
  backend: neural.backend,
  model_load_ms: +loadMs.toFixed(1),
  neural_score_ms_median: +median(score).toFixed(1),
  lexical_score_ms_median: +median(scoreLex).toFixed(1),
  neural_prune_ms_median: +median(pruneN).toFixed(1),
  lexical_prune_ms_median: +median(pruneL).toFixed(1),
  neural_prune_tokens_per_s: Math.round(tokens / (median(pruneN) / 1000)),
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
};
console.log(JSON.stringify(r, null, 1));
