#!/usr/bin/env node
// @ts-check
/**
 * Features + rubric labels for training, computed by packages/core (the same code the neural
 * scorer runs at inference). Run after `npm run build -w @ctxprune/core`.
 *
 *   node training/build_dataset.mjs [--work DIR] [--input commits|docs] [--max-lines 640] [--neg 0.12] [--shard i/k]
 *                                    [--feature-version V] [--words DIR/words] [--no-stems] [--tokens]
 *
 * --work defaults to $CTXPRUNE_TRAIN_DIR, else data/train (training/paths.mjs).
 * Reads DIR/<input>/*.jsonl (training/mine_commits.py → commits, training/mine_docs.py → docs) and
 * writes DIR/dataset/<shard>/ (shard<i> for commits, <input>-shard<i> otherwise):
 *   features.f32  row-major float32 [total_lines, F]
 *   labels.u8     [total_lines, 3]: teacher mask, semantic label, dependency label
 *   index.jsonl   one line per example: repo, split, commit, path, offset (rows), n, doc, language
 * Long files are cropped to a window of --max-lines lines holding the teacher lines (features
 * are computed on the whole file first, so document-level features see everything).
 *
 *   node training/build_dataset.mjs --fixture OUT_DIR
 * writes the parity fixture used by packages/core/test/features (a small real case).
 *
 * Feature version 2 needs the word table of training/pretrain_words.* (--words, default DIR/words).
 * --no-stems: short queries matched as written, not on stems (FeatureOptions.stems), as the shipped
 * model was trained.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { defaultWork } from './paths.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const core = path.join(here, '..', 'packages', 'core', 'dist');
const { analyzeByIndent, splitLines } = await import(path.join(core, 'syntax', 'index.js'));
const { computeLineFeatures, FEATURE_SETS, FEATURE_VERSION } = await import(path.join(core, 'features', 'lines.js'));
const { WordVectors, semanticTerms, termKey } = await import(path.join(core, 'features', 'semantic.js'));
const { rubricLabels } = await import(path.join(core, 'labels', 'rubric.js'));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const featureVersion = Number(opt('feature-version', String(FEATURE_VERSION)));
const featureNames = FEATURE_SETS[featureVersion];
if (!featureNames) throw new Error(`unknown feature version ${featureVersion}`);
/** The word table (training/pretrain_words.py) for feature version 2. */
function loadWords(dir) {
  const { dim } = JSON.parse(fs.readFileSync(path.join(dir, 'table.json'), 'utf8'));
  const k = fs.readFileSync(path.join(dir, 'keys.u32'));
  const v = fs.readFileSync(path.join(dir, 'vectors.i8'));
  return new WordVectors(new Uint32Array(Uint8Array.from(k).buffer), new Int8Array(Uint8Array.from(v).buffer), dim);
}
const words = featureVersion >= 2 ? loadWords(opt('words', path.join(opt('work', defaultWork()), 'words'))) : null;

const PARSE_LANG = { python: 'python', typescript: 'typescript', javascript: 'javascript' };

// Parsing runs in a worker so a file that makes the analyzer hang costs a timeout, not the run.
const stems = !args.includes('--no-stems');
const ANALYZE_TIMEOUT_MS = Number(opt('analyze-timeout', '4000'));
const hung = new Set(); // paths whose analysis timed out once: indentation fallback from then on
// The cast keeps TypeScript from narrowing to `null` at the top level (analyzeInWorker sets it).
let worker = /** @type {Worker | null} */ (null);
let nextId = 0;
let timeouts = 0;
function analyzeInWorker(text, lang) {
  worker ??= new Worker(path.join(here, 'analyze_worker.mjs'));
  const w = worker;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      w.off('message', onMsg);
      void w.terminate();
      if (worker === w) worker = null;
      reject(new Error('analyze timed out'));
    }, ANALYZE_TIMEOUT_MS);
    const onMsg = (m) => {
      if (m.id !== id) return;
      clearTimeout(timer);
      w.off('message', onMsg);
      if (m.error) reject(new Error(m.error));
      else resolve(m.st);
    };
    w.on('message', onMsg);
    w.postMessage({ id, text, lang });
  });
}

async function structureOf(text, lines, language, key) {
  const lang = PARSE_LANG[language] ?? null;
  if (!lang || hung.has(key) || text.length > 2 * 1024 * 1024 || text.length / lines.length > 1000) return analyzeByIndent(lines, lang);
  try {
    return await analyzeInWorker(text, lang);
  } catch (e) {
    if (String(e instanceof Error ? e.message : e).includes('timed out')) {
      timeouts++;
      hung.add(key);
      console.error(`analyze timed out (${key}, ${lines.length} lines): indentation fallback`);
    }
    return analyzeByIndent(lines, lang);
  }
}

async function example(query, text, language, goldLines, doc, key = '') {
  const lines = splitLines(text);
  const st = await structureOf(text, lines, language, key);
  const feats = computeLineFeatures(query, lines, st, PARSE_LANG[language] ?? null, { version: featureVersion, words, stems });
  const mask = new Uint8Array(lines.length);
  for (const g of goldLines) if (g >= 1 && g <= lines.length) mask[g - 1] = 1;
  const lab = rubricLabels(mask, doc, st);
  return { lines, feats, mask, lab };
}

if (opt('fixture')) {
  const out = opt('fixture');
  fs.mkdirSync(out, { recursive: true });
  const fixture = JSON.parse(fs.readFileSync(path.join(out, 'case.json'), 'utf8'));
  const { feats } = await example(fixture.query, fixture.source, fixture.language, fixture.gold_lines, 1);
  fs.writeFileSync(path.join(out, 'features.f32'), Buffer.from(feats.data.buffer));
  fs.writeFileSync(path.join(out, 'features.json'), JSON.stringify({ n: feats.n, f: feats.f, version: featureVersion }));
  console.log(`fixture: ${feats.n} lines × ${feats.f} features`);
  if (worker) await worker.terminate();
  process.exit(0);
}

const work = opt('work', defaultWork());
// --tokens: also each line's hashed terms (tokens.u16 [rows, TOKENS_PER_LINE], 0 = none) and each
// query's (index.jsonl `q`), for a model that reads tokens (experiment, issue #18). The bucket
// count goes into meta.json (`token_buckets`), where train.py reads it.
const withTokens = args.includes('--tokens');
const TOKEN_BUCKETS = 32768;
const TOKENS_PER_LINE = 16;
const QUERY_TOKENS = 48;
const tokenIds = (text, max) => {
  const ids = [];
  for (const t of semanticTerms(text)) {
    const id = 1 + (termKey(t) % (TOKEN_BUCKETS - 1));
    if (!ids.includes(id)) ids.push(id);
    if (ids.length >= max) break;
  }
  return ids;
};
const maxLines = Number(opt('max-lines', '640'));
const negShare = Number(opt('neg', '0.12'));
const [shardI, shardK] = opt('shard', '0/1').split('/').map(Number);
const splits = JSON.parse(opt('splits', '{}'));
const input = opt('input', 'commits');
const files = fs
  .readdirSync(path.join(work, input))
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .filter((_, i) => i % shardK === shardI);
const outDir = path.join(work, 'dataset', input === 'commits' ? `shard${shardI}` : `${input}-shard${shardI}`);
fs.mkdirSync(outDir, { recursive: true });
const fx = fs.openSync(path.join(outDir, 'features.f32'), 'w');
const fy = fs.openSync(path.join(outDir, 'labels.u8'), 'w');
const ft = withTokens ? fs.openSync(path.join(outDir, 'tokens.u16'), 'w') : -1;
const fi = fs.createWriteStream(path.join(outDir, 'index.jsonl'));
let offset = 0;
const t0 = Date.now();

for (const file of files) {
  const rows = fs
    .readFileSync(path.join(work, input, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const rand = mulberry32(1234 + file.length * 7919 + rows.length);
  let count = 0;
  for (let r = 0; r < rows.length; r++) {
    const c = rows[r];
    const jobs = [{ query: c.query, gold: c.gold_lines, doc: 1, neg: false }];
    if (rand() < negShare && rows.length > 1) {
      // A negative: another commit's message (different file) against this file.
      let o = Math.floor(rand() * rows.length);
      if (rows[o].path === c.path) o = (o + 1) % rows.length;
      if (rows[o].path !== c.path) jobs.push({ query: rows[o].query, gold: [], doc: 0, neg: true });
    }
    for (const job of jobs) {
      let ex;
      try {
        ex = await example(job.query, c.file_text, c.language, job.gold, job.doc, `${c.repo}:${c.path}`);
      } catch (e) {
        console.error(`skip ${c.repo} ${c.commit}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      const n = ex.lines.length;
      let lo = 0,
        hi = n;
      if (n > maxLines) {
        const gold = job.gold.map((g) => g - 1).filter((g) => g >= 0 && g < n);
        const gMin = gold.length ? Math.min(...gold) : Math.floor(rand() * n);
        const gMax = gold.length ? Math.max(...gold) : gMin;
        const slackLo = Math.max(0, gMax - maxLines + 1),
          slackHi = Math.min(gMin, n - maxLines);
        lo = slackHi >= slackLo ? slackLo + Math.floor(rand() * (slackHi - slackLo + 1)) : Math.max(0, Math.min(gMin, n - maxLines));
        hi = lo + maxLines;
      }
      const m = hi - lo;
      const F = ex.feats.f;
      fs.writeSync(fx, Buffer.from(ex.feats.data.buffer, lo * F * 4, m * F * 4));
      const y = new Uint8Array(m * 3);
      for (let t = 0; t < m; t++) {
        y[3 * t] = ex.mask[lo + t];
        y[3 * t + 1] = ex.lab.semantic[lo + t];
        y[3 * t + 2] = ex.lab.dependency[lo + t];
      }
      fs.writeSync(fy, y);
      if (withTokens) {
        const tk = new Uint16Array(m * TOKENS_PER_LINE);
        for (let t = 0; t < m; t++) tk.set(tokenIds(ex.lines[lo + t], TOKENS_PER_LINE), t * TOKENS_PER_LINE);
        fs.writeSync(ft, Buffer.from(tk.buffer));
      }
      fi.write(
        JSON.stringify({
          repo: c.repo,
          split: splits[c.repo] ?? 'train',
          commit: c.commit,
          path: c.path,
          language: c.language,
          offset,
          n: m,
          full_n: n,
          crop: lo,
          doc: job.doc,
          neg: job.neg,
          kind: c.kind ?? 'commit',
          ...(withTokens ? { q: tokenIds(job.query, QUERY_TOKENS) } : {}),
        }) + '\n',
      );
      offset += m;
      count++;
    }
  }
  console.error(`${file}: ${count} examples, ${offset} rows, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
fs.closeSync(fx);
fs.closeSync(fy);
if (withTokens) fs.closeSync(ft);
fi.end();
if (worker) await worker.terminate();
console.error(`analyze timeouts: ${timeouts}`);
if (hung.size) fs.appendFileSync(path.join(work, 'hung_paths.txt'), [...hung].map((k) => k + '\n').join(''));
fs.writeFileSync(
  path.join(outDir, 'meta.json'),
  JSON.stringify({
    features: featureNames.length,
    version: featureVersion,
    names: featureNames,
    rows: offset,
    ...(withTokens ? { token_buckets: TOKEN_BUCKETS } : {}),
  }),
);
