#!/usr/bin/env node
// @ts-check
/**
 * Step 1 of the word-vector pretraining (no labels beyond what a repository's history says):
 * co-occurrence counts of `semanticTerms` (packages/core/src/features/semantic.ts, the same
 * tokenisation the features use at inference) from the TRAINING repositories only:
 *   - a commit message's words × the words of the lines it edited        (weight --w-edit)
 *   - a docstring/comment's words × the words of the code it describes   (weight --w-edit)
 *   - words of the same message, and of code lines within ±2 lines        (weight 1)
 * Writes DIR/words/vocab.json (terms, by frequency) and DIR/words/counts.f32 ([V, V], symmetric).
 * Step 2 is training/pretrain_words.py (PPMI + SVD → the table that ships in the model).
 *
 *   node training/pretrain_words.mjs [--work DIR] [--vocab 20000] [--w-edit 4]
 * (--work defaults to $CTXPRUNE_TRAIN_DIR, else data/train: training/paths.mjs)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultWork } from './paths.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { semanticTerms } = await import(path.join(here, '..', 'packages', 'core', 'dist', 'features', 'semantic.js'));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const work = opt('work', defaultWork());
const V = Number(opt('vocab', '20000'));
const W_EDIT = Number(opt('w-edit', '4'));
const MIN_COUNT = 5;
const CODE_WINDOW = 2;
const MAX_LINES_PER_FILE = 600;
const MAX_SET = 48;

// Training repositories only (training/repos.py): validation and held-out repositories never feed the vectors.
const reposPy = fs.readFileSync(path.join(here, 'repos.py'), 'utf8');
const train = new Set([...reposPy.matchAll(/\('([^']+)', 'train'\)/g)].map((m) => m[1]));

/** @returns {Generator<any>} */
function* examples() {
  for (const input of ['commits', 'docs']) {
    const dir = path.join(work, input);
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir).sort()) {
      if (!file.endsWith('.jsonl')) continue;
      for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        if (!line) continue;
        const ex = JSON.parse(line);
        if (train.has(ex.repo)) yield ex;
      }
    }
  }
}

/** Gold (edited/described) lines' text and every file's lines, each file once. */
function* units() {
  const files = new Set();
  for (const ex of examples()) {
    const lines = ex.file_text.split('\n');
    const gold = ex.gold_lines.map((/** @type {number} */ g) => lines[g - 1] ?? '').join('\n');
    const digest = crypto.createHash('sha1').update(ex.file_text).digest('hex');
    const fresh = !files.has(digest);
    files.add(digest);
    yield { query: ex.query, gold, lines: fresh ? lines.slice(0, MAX_LINES_PER_FILE) : null };
  }
}

// Pass 1: vocabulary.
const freq = new Map();
const bump = (/** @type {string} */ t) => freq.set(t, (freq.get(t) ?? 0) + 1);
let nEx = 0;
for (const u of units()) {
  nEx++;
  for (const t of semanticTerms(u.query)) bump(t);
  if (u.lines) for (const l of u.lines) for (const t of semanticTerms(l)) bump(t);
}
const vocab = [...freq.entries()]
  .filter(([, c]) => c >= MIN_COUNT)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, V)
  .map(([t]) => t);
const id = new Map(vocab.map((t, i) => [t, i]));
const n = vocab.length;
console.error(`${nEx} examples from ${train.size} training repositories; vocabulary ${n} terms`);

// Pass 2: counts (dense [n, n] float32: 1.6 GB at 20k terms).
const counts = new Float32Array(n * n);
const idsOf = (/** @type {string} */ text) => {
  const s = new Set();
  for (const t of semanticTerms(text)) {
    const i = id.get(t);
    if (i !== undefined) s.add(i);
    if (s.size >= MAX_SET) break;
  }
  return [...s];
};
const cross = (/** @type {number[]} */ a, /** @type {number[]} */ b, /** @type {number} */ w) => {
  for (const i of a)
    for (const j of b)
      if (i !== j) {
        counts[i * n + j] += w;
        counts[j * n + i] += w;
      }
};
const within = (/** @type {number[]} */ a, /** @type {number} */ w) => {
  for (let x = 0; x < a.length; x++)
    for (let y = x + 1; y < a.length; y++) {
      counts[a[x] * n + a[y]] += w;
      counts[a[y] * n + a[x]] += w;
    }
};
for (const u of units()) {
  const q = idsOf(u.query);
  cross(q, idsOf(u.gold), W_EDIT);
  within(q, 1);
  if (!u.lines) continue;
  const lineIds = u.lines.map(idsOf);
  for (let i = 0; i < lineIds.length; i++) {
    within(lineIds[i], 1);
    for (let k = 1; k <= CODE_WINDOW && i + k < lineIds.length; k++) cross(lineIds[i], lineIds[i + k], 1 / (k + 1));
  }
}
const out = path.join(work, 'words');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'vocab.json'), JSON.stringify(vocab));
const fd = fs.openSync(path.join(out, 'counts.f32'), 'w');
const CHUNK = 1 << 24;
for (let off = 0; off < counts.length; off += CHUNK) {
  const part = counts.subarray(off, Math.min(counts.length, off + CHUNK));
  fs.writeSync(fd, new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
}
fs.closeSync(fd);
console.error(`wrote ${out}/counts.f32 [${n}, ${n}]`);
