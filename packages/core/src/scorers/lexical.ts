/**
 * The lexical LaMR scorer: no model, no download. Semantic evidence is BM25 over
 * identifier-split terms, spread along the file (neighbouring lines and the enclosing
 * definition share a line's score); dependency support is that evidence propagated along the
 * file's structure (scope headers, closers, control-flow companions, definitions and imports a
 * line uses). The gate leans on the dependency rubric for structural lines and for queries that
 * talk about structure.
 */
import { crfParams } from '../crf/chain.js';
import { RUBRICS } from '../crf/rubrics.js';
import { type FileStructure, LineKind } from '../syntax/types.js';
import { queryTermsOf, termsOf } from '../text/identifiers.js';
import { type Bm25Index, bm25Scores } from '../retrieval/bm25.js';
import type { Scorer, ScorerInput, ScorerOutput } from './types.js';
import { runSteps, runStepsAsync, STEP_LINES, type Steps } from '../util/steps.js';

/** Knobs of the lexical scorer; defaults were chosen on the dev cases (see README: benchmark). */
export interface LexicalScorerOptions {
  /** Weights of the ±1, ±2, ±3 neighbours in the smoothing kernel (centre weight 1). */
  kernel?: number[];
  /** Share of the enclosing definition's best line score every line inherits. */
  scopeShare?: number;
  /** Share of a dependent line's evidence a dependency (header, import, definition) receives. */
  dependencyShare?: number;
  /** Emission scale: evidence in [0,1] maps to keep − prune ∈ [−scale/4, 3·scale/4]. */
  scale?: number;
  /** Self-transition bonus of the fused decoder (0 = independent lines; higher = longer blocks). */
  stickiness?: number;
}

const DEFAULTS: Required<LexicalScorerOptions> = {
  kernel: [0.6, 0.35, 0.2],
  scopeShare: 0.45,
  dependencyShare: 0.4,
  scale: 4,
  stickiness: 0.45,
};

/** Words that ask about structure rather than behaviour: they shift the gate to the dependency rubric. */
const STRUCTURAL_QUERY_WORDS = new Set([
  'import',
  'imports',
  'signature',
  'signatures',
  'class',
  'classes',
  'interface',
  'type',
  'types',
  'module',
  'dependency',
  'dependencies',
  'refactor',
  'rename',
  'outline',
  'structure',
  'api',
  'export',
  'exports',
  'inherit',
  'inherits',
  'subclass',
  'decorator',
  'definition',
  'definitions',
  'declare',
  'declaration',
]);

const MAX_QUERY_CHARS = 20_000;

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** The part of a query the scorer reads: its first MAX_QUERY_CHARS characters. */
const readQuery = (query: string): string => (query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query);
/** The document score: the best line's raw BM25 squashed into [0, 1) (score() and documentScore() share it). */
const squashed = (rawMax: number): number => rawMax / (4 + rawMax);

export class LexicalScorer implements Scorer {
  readonly name = 'lexical';
  private readonly opts: Required<LexicalScorerOptions>;

  constructor(options: LexicalScorerOptions = {}) {
    this.opts = { ...DEFAULTS, ...options };
  }

  score(input: ScorerInput): ScorerOutput {
    return runSteps(this.steps(input));
  }

  /** score, awaiting `input.pause` between steps (a yield every STEP_LINES lines). Same result. */
  scoreAsync(input: ScorerInput): Promise<ScorerOutput> {
    return runStepsAsync(this.steps(input), input.pause);
  }

  private *steps(input: ScorerInput): Steps<ScorerOutput> {
    const { lines, structure: st } = input;
    const n = lines.length;
    const query = readQuery(input.query);
    const { terms: queryTerms, stemmed } = queryTermsOf(query);

    const { evidence, rawMax } = yield* this.evidence(lines, queryTerms, stemmed, st);
    yield;
    const support = yield* this.support(evidence, st);
    yield;
    const structuralIntent = this.structuralIntent(query, queryTerms);

    const K = RUBRICS.length;
    const semantic = new Float64Array(2 * n);
    const dependency = new Float64Array(2 * n);
    const gate = new Float64Array(K * n);
    const s = this.opts.scale;
    for (let t = 0; t < n; t++) {
      semantic[2 * t + 1] = s * (evidence[t] - 0.25);
      dependency[2 * t + 1] = s * (support[t] - 0.25);
      const k = st.kind[t];
      // Control headers and clauses carry behaviour (conditions): they stay evidence lines.
      const structural = k === LineKind.Import || k === LineKind.DefHeader || k === LineKind.Decorator || k === LineKind.Closer;
      const g = sigmoid((structural ? -1.2 : 1.6) - 2.5 * structuralIntent);
      gate[K * t] = g;
      gate[K * t + 1] = 1 - g;
    }
    let documentScore = 0;
    for (let t = 0; t < n; t++) documentScore = Math.max(documentScore, evidence[t]);

    return {
      n,
      heads: [semantic, dependency],
      gate,
      // Semantic evidence comes in contiguous blocks (sticky transitions); dependency support
      // is scattered (near-free alternation); the fused decoder sits in between.
      headCrfs: [crfParams([0.7, -0.7, -0.7, 0.7]), crfParams([0.15, -0.15, -0.15, 0.15])],
      fusedCrf: crfParams([this.opts.stickiness, -this.opts.stickiness, -this.opts.stickiness, this.opts.stickiness]),
      // Best single-line BM25 squashed to [0,1): a rough "does this file mention the query at all".
      documentScore: squashed(rawMax),
      scorer: 'lexical',
      backend: 'cpu',
    };
  }

  /**
   * `score(input).documentScore` without the structure or the decoding it does not read: the best
   * line's BM25 (blank lines are empty documents, as the indentation analyzer marks them), squashed.
   * The same number; the document score of the locate rerank calls it for 50 files a task.
   */
  documentScore(query: string, lines: string[]): number {
    const { terms: queryTerms, stemmed } = queryTermsOf(readQuery(query));
    const n = lines.length;
    if (queryTerms.length === 0 || n === 0) return 0;
    const kind = new Uint8Array(n).fill(LineKind.Code);
    for (let i = 0; i < n; i++) if (lines[i].trim() === '') kind[i] = LineKind.Blank;
    const raw = bm25Scores(runSteps(lineIndex(lines, kind, new Set(queryTerms), stemmed)), queryTerms);
    let rawMax = 0;
    for (let t = 0; t < n; t++) if (raw[t] > rawMax) rawMax = raw[t];
    return squashed(rawMax);
  }

  /** Semantic evidence in [0,1] per line, and the best raw line score. */
  private *evidence(lines: string[], queryTerms: string[], stemmed: boolean, st: FileStructure): Steps<{ evidence: Float64Array; rawMax: number }> {
    const n = lines.length;
    const out = new Float64Array(n);
    let rawMax = 0;
    if (queryTerms.length === 0 || n === 0) return { evidence: out, rawMax };
    const raw = bm25Scores(yield* lineIndex(lines, st.kind, new Set(queryTerms), stemmed), queryTerms);
    yield;

    // Spread along the file: a relevant line makes its neighbours likely relevant.
    const kern = this.opts.kernel;
    const smooth = new Float64Array(n);
    for (let t = 0; t < n; t++) {
      let v = raw[t];
      for (let d = 1; d <= kern.length; d++) {
        const w = kern[d - 1];
        if (t - d >= 0) v += w * raw[t - d];
        if (t + d < n) v += w * raw[t + d];
      }
      smooth[t] = v;
    }
    yield;
    // Share of the enclosing definition: the best smoothed score inside it.
    const defOf = enclosingDefinition(st);
    yield;
    const best = new Float64Array(n);
    for (let t = 0; t < n; t++) {
      const d = defOf[t];
      if (d >= 0 && smooth[t] > best[d]) best[d] = smooth[t];
    }
    let max = 0;
    for (let t = 0; t < n; t++) {
      const d = defOf[t];
      const v = smooth[t] + (d >= 0 ? this.opts.scopeShare * best[d] : 0);
      out[t] = v;
      if (v > max) max = v;
      if (raw[t] > rawMax) rawMax = raw[t];
    }
    if (max > 0) for (let t = 0; t < n; t++) out[t] /= max;
    return { evidence: out, rawMax };
  }

  /** Dependency support in [0,1]: evidence propagated to the lines that make it readable. */
  private *support(evidence: Float64Array, st: FileStructure): Steps<Float64Array> {
    const n = evidence.length;
    const dep = new Float64Array(n);
    const share = this.opts.dependencyShare;
    // Outline prior: imports and definition headers are worth a little on their own.
    for (let t = 0; t < n; t++) {
      const k = st.kind[t];
      if (k === LineKind.Import) dep[t] = 0.12;
      else if (k === LineKind.DefHeader) dep[t] = 0.1;
    }
    // Enclosing headers (parents precede children, so a reverse sweep carries support up the chain).
    for (let t = n - 1; t >= 0; t--) {
      const p = st.parent[t];
      if (p < 0) continue;
      const v = share * Math.max(evidence[t], dep[t]);
      const h = st.spanStart[p] >= 0 ? st.spanStart[p] : p;
      for (let l = h; l <= Math.max(p, st.spanEnd[p]); l++) if (v > dep[l]) dep[l] = v;
    }
    yield;
    // Definitions and imports the line uses.
    for (let t = 0; t < n; t++) {
      const e = evidence[t];
      if (e <= 0) continue;
      for (let j = st.useOffsets[t]; j < st.useOffsets[t + 1]; j++) {
        const v = st.useTargets[j];
        const s = share * 0.8 * e;
        if (s > dep[v]) dep[v] = s;
      }
    }
    yield;
    // Closers and control-flow companions follow their header.
    for (let t = 0; t < n; t++) {
      const c = st.closer[t];
      if (c >= 0 && dep[t] > dep[c]) dep[c] = dep[t];
      const g = st.companionGroup[t];
      if (g >= 0 && g !== t) {
        const v = 0.7 * Math.max(dep[g], evidence[g]);
        if (v > dep[t]) dep[t] = v;
      }
    }
    return dep;
  }

  /** How much the query asks about structure (0..1); an empty query is all structure. */
  private structuralIntent(query: string, queryTerms: string[]): number {
    if (queryTerms.length === 0) return 1;
    const words = query.toLowerCase().match(/[a-z]+/g) ?? [];
    let hits = 0;
    for (const w of words) if (STRUCTURAL_QUERY_WORDS.has(w)) hits++;
    return Math.min(1, hits / Math.max(3, words.length / 4));
  }
}

/**
 * The BM25 index of the lines (blank lines are empty documents) with postings for `terms` only:
 * BM25 reads no other posting, so the scores equal those of the full index (buildBm25Index)
 * without building a posting for every identifier of the file.
 */
function* lineIndex(lines: string[], kind: ArrayLike<number>, terms: Set<string>, stemmed: boolean): Steps<Bm25Index> {
  const n = lines.length;
  const postings: Bm25Index['postings'] = new Map();
  const docLen = new Float64Array(n);
  const buf: string[] = [];
  const local = new Map<string, number>();
  let total = 0;
  for (let d = 0; d < n; d++) {
    if (d % STEP_LINES === STEP_LINES - 1) yield;
    if (kind[d] === LineKind.Blank) continue;
    buf.length = 0;
    termsOf(lines[d], buf, stemmed);
    docLen[d] = buf.length;
    total += buf.length;
    local.clear();
    for (const t of buf) if (terms.has(t)) local.set(t, (local.get(t) ?? 0) + 1);
    for (const [t, f] of local) {
      let p = postings.get(t);
      if (!p) postings.set(t, (p = { docs: [], freqs: [] }));
      p.docs.push(d);
      p.freqs.push(f);
    }
  }
  return { docCount: n, avgLen: n ? total / n : 0, docLen, postings };
}

/** For each line, the header line of its innermost enclosing definition (function/class), or -1. */
export function enclosingDefinition(st: FileStructure): Int32Array {
  const n = st.lineCount;
  const out = new Int32Array(n).fill(-1);
  for (let t = 0; t < n; t++) {
    if (st.kind[t] === LineKind.DefHeader && st.blockEnd[t] >= 0) out[t] = t;
    else {
      const p = st.parent[t];
      out[t] = p < 0 ? -1 : st.kind[p] === LineKind.DefHeader ? p : out[p];
    }
  }
  return out;
}
