/**
 * Lexical similarity for redundancy: TF-IDF weighted cosine over identifier-split terms.
 * Built once over a set of texts; returns a similarity over their indices.
 */
import { termsOf } from '../text/identifiers.js';

export interface TermVectors {
  /** Sparse, L2-normalised vectors: term → weight. */
  vectors: Map<string, number>[];
  /** Cosine of vectors i and j, in 0..1. */
  cosine: (i: number, j: number) => number;
}

export function termVectors(texts: string[], terms: (t: string) => string[] = (t) => termsOf(t)): TermVectors {
  const tf = texts.map((t) => {
    const m = new Map<string, number>();
    for (const term of terms(t)) m.set(term, (m.get(term) ?? 0) + 1);
    return m;
  });
  const df = new Map<string, number>();
  for (const m of tf) for (const term of m.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = texts.length;
  const vectors = tf.map((m) => {
    const v = new Map<string, number>();
    let norm = 0;
    for (const [term, f] of m) {
      const w = (1 + Math.log(f)) * Math.log(1 + n / (df.get(term) ?? 1));
      v.set(term, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [term, w] of v) v.set(term, w / norm);
    return v;
  });
  const cache = new Map<number, number>();
  const cosine = (i: number, j: number): number => {
    if (i === j) return vectors[i].size > 0 ? 1 : 0;
    const a = Math.min(i, j),
      b = Math.max(i, j);
    const key = a * n + b;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    let [x, y] = [vectors[a], vectors[b]];
    if (x.size > y.size) [x, y] = [y, x];
    let dot = 0;
    for (const [term, w] of x) {
      const u = y.get(term);
      if (u !== undefined) dot += w * u;
    }
    const s = Math.min(1, Math.max(0, dot));
    cache.set(key, s);
    return s;
  };
  return { vectors, cosine };
}

export interface ShingleSets {
  sets: Set<string>[];
  /** Share of text i's shingles that text j also has (0..1; asymmetric: "how much of i is in j"). */
  containment: (i: number, j: number) => number;
}

/**
 * Verbatim overlap: word n-gram shingles (lowercased words and punctuation marks). Catches
 * repeated tool outputs, re-read files and grep lines quoting code already in context, and,
 * unlike term cosine, does not call two different blocks of one file redundant because they
 * share identifiers.
 */
export function shingleSets(texts: string[], n = 4): ShingleSets {
  const sets = texts.map((t) => {
    const toks = t.toLowerCase().match(/[a-z0-9_$]+|[^\sa-z0-9_$]/g) ?? [];
    const s = new Set<string>();
    if (toks.length > 0 && toks.length < n) s.add(toks.join(' '));
    for (let i = 0; i + n <= toks.length; i++) s.add(toks.slice(i, i + n).join(' '));
    return s;
  });
  const cache = new Map<string, number>();
  const containment = (i: number, j: number): number => {
    const a = sets[i],
      b = sets[j];
    if (a.size === 0) return 0;
    if (i === j) return 1;
    const key = `${i},${j}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    let common = 0;
    for (const x of a) if (b.has(x)) common++;
    const v = common / a.size;
    cache.set(key, v);
    return v;
  };
  return { sets, containment };
}
