/**
 * Okapi BM25 over small documents (lines, windows, messages, files). Pure: term lists in,
 * scores out. The retrieval layer, under everything that ranks text: the lexical line scorer and
 * the model's line features, history compaction, cards, file localization and packing.
 * Postings keep scoring linear in the matches, not in documents × query terms.
 */
export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Index {
  docCount: number;
  avgLen: number;
  docLen: Float64Array;
  /** term → documents containing it and the term's frequency in each */
  postings: Map<string, { docs: number[]; freqs: number[] }>;
}

export function buildBm25Index(docs: string[][]): Bm25Index {
  const postings = new Map<string, { docs: number[]; freqs: number[] }>();
  const docLen = new Float64Array(docs.length);
  let total = 0;
  const local = new Map<string, number>();
  for (let d = 0; d < docs.length; d++) {
    local.clear();
    for (const t of docs[d]) local.set(t, (local.get(t) ?? 0) + 1);
    for (const [t, f] of local) {
      let p = postings.get(t);
      if (!p) postings.set(t, (p = { docs: [], freqs: [] }));
      p.docs.push(d);
      p.freqs.push(f);
    }
    docLen[d] = docs[d].length;
    total += docs[d].length;
  }
  return { docCount: docs.length, avgLen: docs.length ? total / docs.length : 0, docLen, postings };
}

/** Robertson–Spärck Jones IDF, floored at a small positive value so common terms still count. */
export function idf(index: Bm25Index, term: string): number {
  const n = index.postings.get(term)?.docs.length ?? 0;
  return Math.max(0.01, Math.log(1 + (index.docCount - n + 0.5) / (n + 0.5)));
}

/** Query term → weight: repeated terms weigh more, capped so a long query cannot swamp. */
export function queryWeights(queryTerms: string[]): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of queryTerms) q.set(t, Math.min(3, (q.get(t) ?? 0) + 1));
  for (const [t, c] of q) q.set(t, 1 + 0.5 * (c - 1));
  return q;
}

export function bm25Scores(index: Bm25Index, queryTerms: string[], opts: Bm25Options = {}): Float64Array {
  const k1 = opts.k1 ?? 1.2,
    b = opts.b ?? 0.75;
  const scores = new Float64Array(index.docCount);
  const avg = index.avgLen || 1;
  for (const [term, qw] of queryWeights(queryTerms)) {
    const p = index.postings.get(term);
    if (!p) continue;
    const w = idf(index, term) * qw;
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs[i],
        f = p.freqs[i];
      scores[d] += (w * f * (k1 + 1)) / (f + k1 * (1 - b + (b * index.docLen[d]) / avg));
    }
  }
  return scores;
}
