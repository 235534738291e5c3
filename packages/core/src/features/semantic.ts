/**
 * Word vectors that connect words which do not match: a report that says "crash" and code that
 * says `raise`. The vectors are learned here without labels (training/pretrain_words.*: PPMI +
 * SVD over commit messages ↔ the lines they edited, docstrings ↔ their code, and code context)
 * and ship inside the model file (outputs `word_keys`, `words`; runtime/contract.ts).
 *
 * Pure: the table is bytes in, similarity features out. Terms are keyed by a 32-bit FNV-1a hash,
 * so the model file carries numbers, not a word list.
 */
import { identifierParts } from '../text/identifiers.js';

/** English function words only: code keywords (raise, throw, null, return) carry meaning here. */
const STOP = new Set(
  (
    'a an the and or not of to in on at by for with from as is are was were be been being it its this that these ' +
    'those there here then than so if when do does did can could should would will may might must i we you he she ' +
    'they me us my our your their them his her what which who how why where all any some no yes into out up ' +
    'over under again once only own same too very just also but about after before each few more most other such ' +
    'both nor has have had'
  ).split(' '),
);
const WORD_RE = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const MAX_WORD = 64;

/** Lowercase identifier parts of a text (≥ 2 letters, no English function words), in order. */
export function semanticTerms(text: string, out: string[] = []): string[] {
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(text); m; m = WORD_RE.exec(text)) {
    if (m[0].length > MAX_WORD) continue;
    for (const p of identifierParts(m[0])) if (p.length >= 2 && !STOP.has(p) && !/^\d+$/.test(p)) out.push(p);
  }
  return out;
}

/** 32-bit FNV-1a of a term's UTF-16 code units (terms are ASCII: same as over bytes). */
export function termKey(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Unit word vectors looked up by term. Rows are int8 (×1/127), keys sorted ascending. */
export class WordVectors {
  readonly dim: number;
  readonly size: number;
  private readonly rows = new Map<number, number>();
  private readonly vectors: Float32Array;

  constructor(keys: Uint32Array | Int32Array, values: Int8Array, dim: number) {
    if (dim <= 0 || values.length !== keys.length * dim) {
      throw new RangeError(`word table: ${values.length} values for ${keys.length} keys × ${dim}`);
    }
    this.dim = dim;
    this.size = keys.length;
    this.vectors = new Float32Array(values.length);
    for (let i = 0; i < values.length; i++) this.vectors[i] = values[i] / 127;
    for (let r = 0; r < keys.length; r++) this.rows.set(keys[r] >>> 0, r);
  }

  /** Row of a term, or -1 when the term has no vector. */
  row(term: string): number {
    return this.rows.get(termKey(term)) ?? -1;
  }

  dot(a: number, b: number): number {
    const d = this.dim,
      v = this.vectors;
    let s = 0;
    for (let k = 0, i = a * d, j = b * d; k < d; k++) s += v[i + k] * v[j + k];
    return s;
  }

  /** Add `w ×` row r into acc. */
  accumulate(acc: Float64Array, r: number, w: number): void {
    const d = this.dim,
      v = this.vectors;
    for (let k = 0, i = r * d; k < d; k++) acc[k] += w * v[i + k];
  }
}

export const SEMANTIC_FEATURE_NAMES = ['sem_best', 'sem_best_norm', 'sem_bag', 'sem_doc'] as const;
export const SEMANTIC_FEATURE_COUNT = SEMANTIC_FEATURE_NAMES.length;

/** Query terms beyond this many (by weight) add little and cost Q × file-vocabulary dot products. */
const MAX_QUERY_TERMS = 48;

function cosine(a: Float64Array, b: Float64Array): number {
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let k = 0; k < a.length; k++) {
    ab += a[k] * b[k];
    aa += a[k] * a[k];
    bb += b[k] * b[k];
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/**
 * Per line: `sem_best` = the query terms' IDF-weighted mean of their best cosine with a term of the
 * line; `sem_best_norm` = that over the file's best; `sem_bag` = cosine of the IDF-weighted query
 * centroid with the line's centroid; `sem_doc` = the same against the whole file (same on every
 * line). Query terms weigh by their rarity in the file, so words the file never uses count most:
 * those are the ones only similarity can connect. Writes into `out` at columns col..col+3 of rows
 * of width `stride`.
 */
export function semanticFeatures(words: WordVectors, query: string, lines: readonly string[], out: Float32Array, stride: number, col: number): void {
  const n = lines.length;
  if (n === 0) return;
  // Rows of each line's terms (distinct), and the file's document frequency per row.
  const lineRows: Int32Array[] = new Array<Int32Array>(n);
  const df = new Map<number, number>();
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    seen.clear();
    for (const t of semanticTerms(lines[i])) {
      const r = words.row(t);
      if (r >= 0) seen.add(r);
    }
    lineRows[i] = Int32Array.from(seen);
    for (const r of seen) df.set(r, (df.get(r) ?? 0) + 1);
  }
  // Query rows weighted by file IDF; the heaviest MAX_QUERY_TERMS kept.
  const qWeight = new Map<number, number>();
  for (const t of semanticTerms(query)) {
    const r = words.row(t);
    if (r >= 0 && !qWeight.has(r)) qWeight.set(r, Math.log((n + 1) / ((df.get(r) ?? 0) + 0.5)));
  }
  const q = [...qWeight.entries()]
    .filter(([, w]) => w > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_QUERY_TERMS);
  if (q.length === 0) return;
  let wSum = 0;
  for (const [, w] of q) wSum += w;
  const dim = words.dim;
  const qCentroid = new Float64Array(dim);
  for (const [r, w] of q) words.accumulate(qCentroid, r, w);

  // Best cosine of each query term with each distinct file term, computed once per file term.
  const fileRows = [...df.keys()];
  const simIndex = new Map<number, number>();
  const sims = new Float32Array(fileRows.length * q.length);
  for (let f = 0; f < fileRows.length; f++) {
    simIndex.set(fileRows[f], f);
    for (let j = 0; j < q.length; j++) sims[f * q.length + j] = words.dot(fileRows[f], q[j][0]);
  }

  const best = new Float64Array(n);
  const bestTerm = new Float64Array(q.length);
  const fileCentroid = new Float64Array(dim);
  const lineCentroid = new Float64Array(dim);
  let maxBest = 0;
  for (let i = 0; i < n; i++) {
    const rows = lineRows[i];
    if (rows.length === 0) continue;
    bestTerm.fill(-1);
    lineCentroid.fill(0);
    for (const r of rows) {
      const base = simIndex.get(r)! * q.length;
      for (let j = 0; j < q.length; j++) if (sims[base + j] > bestTerm[j]) bestTerm[j] = sims[base + j];
      words.accumulate(lineCentroid, r, 1);
    }
    let s = 0;
    for (let j = 0; j < q.length; j++) s += q[j][1] * Math.max(0, bestTerm[j]);
    best[i] = s / wSum;
    if (best[i] > maxBest) maxBest = best[i];
    for (let k = 0; k < dim; k++) fileCentroid[k] += lineCentroid[k];
    out[i * stride + col + 2] = cosine(qCentroid, lineCentroid);
  }
  const doc = cosine(qCentroid, fileCentroid);
  for (let i = 0; i < n; i++) {
    const o = i * stride + col;
    out[o] = best[i];
    out[o + 1] = maxBest > 0 ? best[i] / maxBest : 0;
    out[o + 3] = doc;
  }
}
