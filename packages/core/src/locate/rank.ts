/**
 * File localization (pure): rank a repository's files for an issue. Stage 1 is BM25 over path +
 * contents; stage 2 reranks the top N (default 50) with a document score (injectable: the neural
 * backbone's, by default a lexical best-window BM25) and graph signals: files and modules the
 * issue names (paths, dotted modules, traceback frames), query terms in the path, query
 * identifiers the file defines, import neighbours of the leading files, and a test-file penalty.
 */
let lexicalDoc: DocumentScoreFn | null = null;
function defaultDocumentScore(): DocumentScoreFn {
  return (lexicalDoc ??= documentScoreFromScorer(new LexicalScorer()));
}
import { buildBm25Index, bm25Scores, idf, type Bm25Index } from '../scorers/bm25.js';
import { termsOf } from '../text/identifiers.js';
import { pythonImports, pythonModuleIndex, jsImports } from '../cards/imports.js';
import { judgeAll, judgmentComponents, type JudgeFn, type JudgeRunOptions, type JudgeStats } from '../cards/judge.js';
import type { ContextUnit } from '../cards/types.js';
import { utilityScore } from '../cards/utility.js';
import { approximateCounter, type TokenCounter } from '../text/tokens.js';
import { LexicalScorer } from '../scorers/lexical.js';
import type { Scorer } from '../scorers/types.js';
import { analyzeByIndent } from '../syntax/fallback.js';

/** Relevance of each text to the query, higher is better (any scale; normalised by max). */
export type DocumentScoreFn = (query: string, texts: string[]) => Promise<number[]>;

export interface FileIndex {
  paths: string[];
  texts: string[];
  bm25: Bm25Index;
  /** Terms of each path (directories + file stem). */
  pathTerms: Set<string>[];
  pyModules: Map<string, string>;
  pathSet: Set<string>;
  /** Lazily computed import lists. */
  imports: Map<string, string[]>;
}

const WORD = /[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+/g;

/**
 * termsOf() with a per-word cache: termsOf is word-local, and identifiers repeat heavily across a
 * repository, so indexing a tree costs a map lookup per word instead of a split per word.
 */
export function cachedTerms(text: string, cache: Map<string, string[]>, out: string[] = []): string[] {
  WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD.exec(text))) {
    const w = m[0];
    let t = cache.get(w);
    if (t === undefined) {
      t = termsOf(w);
      if (cache.size < 500_000) cache.set(w, t);
    }
    for (let i = 0; i < t.length; i++) out.push(t[i]);
  }
  return out;
}

function pathTermsOf(path: string): string[] {
  return termsOf(path.replace(/\.[A-Za-z0-9]+$/, '').replace(/[/\\._-]+/g, ' '));
}

/** Index a tree once; reuse it across instances at the same commit. */
export function buildFileIndex(files: ReadonlyMap<string, string>): FileIndex {
  const paths = [...files.keys()];
  const texts = paths.map((p) => files.get(p)!);
  const cache = new Map<string, string[]>();
  const docs = paths.map((p, i) => cachedTerms(texts[i], cache, pathTermsOf(p)));
  return {
    paths, texts, bm25: buildBm25Index(docs),
    pathTerms: paths.map((p) => new Set(pathTermsOf(p))),
    pyModules: pythonModuleIndex(paths), pathSet: new Set(paths), imports: new Map(),
  };
}

function importsOf(ix: FileIndex, i: number): string[] {
  const p = ix.paths[i];
  let l = ix.imports.get(p);
  if (!l) {
    l = p.endsWith('.py') ? pythonImports(p, ix.texts[i], ix.pyModules) : jsImports(p, ix.texts[i], ix.pathSet);
    ix.imports.set(p, l);
  }
  return l;
}

const TEST_PATH = /(^|\/)(tests?|testing|test_?data|fixtures?|functional|regrtest_data|input|examples?|docs?|doc|benchmarks?)\//i;
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/i;
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path) || TEST_FILE.test(path);
}

/** Paths, dotted modules and traceback frames named in the text → indices of files they denote. */
export function mentionedFiles(text: string, ix: FileIndex): Map<number, number> {
  const out = new Map<number, number>();
  const pos = new Map(ix.paths.map((p, i) => [p, i]));
  const bump = (i: number | undefined, w: number) => { if (i !== undefined) out.set(i, Math.max(out.get(i) ?? 0, w)); };
  // Traceback frames and explicit paths: match by the longest path suffix.
  const frames = new Set<string>();
  for (const m of text.matchAll(/File "([^"]+\.py)"/g)) frames.add(m[1]);
  for (const m of text.matchAll(/([\w.-]+(?:[/\\][\w.-]+)*\.py)\b/g)) frames.add(m[1]);
  for (const f of frames) {
    const parts = f.replace(/\\/g, '/').split('/').filter((s) => s && s !== '.');
    for (let k = Math.min(parts.length, 6); k >= 1; k--) {
      const suffix = parts.slice(-k).join('/');
      const hits = ix.paths.filter((p) => p === suffix || p.endsWith('/' + suffix));
      if (hits.length > 0 && hits.length <= 3) {
        for (const h of hits) bump(pos.get(h), k >= 2 ? 1 : 0.7);
        break;
      }
      if (hits.length > 3) break;
    }
  }
  // Dotted modules: `_pytest.capture`, `requests.sessions.Session` (longest resolvable prefix).
  for (const m of text.matchAll(/\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\b/g)) {
    const segs = m[1].split('.');
    for (let k = segs.length; k >= 2; k--) {
      const p = ix.pyModules.get(segs.slice(0, k).join('.'));
      if (p) { bump(pos.get(p), 0.8); break; }
    }
  }
  return out;
}

const IDENT = /\b[A-Za-z_][A-Za-z0-9_]{2,}\b/g;
const DEF_RE = /^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)/gm;

/** Names defined in a Python file (def/class at any depth). */
function definedNames(text: string): Set<string> {
  const out = new Set<string>();
  DEF_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DEF_RE.exec(text))) out.add(m[1]);
  return out;
}

/** Identifiers of the issue that look like code names (snake_case, CamelCase, dotted parts, backticked). */
function issueIdentifiers(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.match(IDENT) ?? []) {
    if (/_/.test(m.slice(1)) || /[a-z][A-Z]/.test(m) || /^[A-Z][a-z]+[A-Z]/.test(m)) out.add(m);
  }
  for (const m of text.matchAll(/`([^`\n]{2,80})`/g)) for (const id of m[1].match(IDENT) ?? []) out.add(id);
  for (const m of text.matchAll(/\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b/g)) for (const id of m[0].split('.')) if (id.length >= 3) out.add(id);
  for (const m of text.matchAll(/\b([A-Za-z_]\w{2,})\(/g)) out.add(m[1]);
  return out;
}

/**
 * Alternative document score: the best BM25 of the query over ~40-line windows of each file (IDF from
 * the whole tree), so a file with one focused matching function beats one with scattered mentions.
 */
export function lexicalWindowScore(ix: FileIndex, queryTerms: string[], window = 40): (texts: string[]) => number[] {
  const q = new Map<string, number>();
  for (const t of queryTerms) q.set(t, idf(ix.bm25, t));
  const cache = new Map<string, string[]>();
  return (texts) => texts.map((text) => {
    const lines = text.split('\n');
    let best = 0;
    for (let s = 0; s < lines.length; s += window / 2) {
      const terms = cachedTerms(lines.slice(s, s + window).join('\n'), cache);
      const tf = new Map<string, number>();
      for (const t of terms) if (q.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
      let sc = 0;
      for (const [t, f] of tf) sc += (q.get(t)! * f * 2.2) / (f + 1.2);
      best = Math.max(best, sc);
      if (s + window >= lines.length) break;
    }
    return best;
  });
}

export interface LocateWeights {
  bm25: number;
  document: number;
  mentioned: number;
  pathTerms: number;
  defines: number;
  importNeighbour: number;
  /** Multiplier for test / docs / fixture files the issue does not name. */
  testFactor: number;
}

/**
 * Set by hand, then checked on the 40 SWE-bench dev instances with the lexical rubric scorer as the
 * document score: hit@1 0.600 / MRR@10 0.684 (plain BM25 0.350 / 0.494). A small weight grid picked
 * per held-out repository (leave-one-repository-out) gives 0.550 / 0.657, the honest estimate; the
 * best in-sample grid point is no better than these defaults. The import-neighbour nudge measured
 * slightly harmful, so it is off by default.
 */
export const DEFAULT_LOCATE_WEIGHTS: LocateWeights = {
  bm25: 0.45, document: 0.15, mentioned: 1, pathTerms: 0.4, defines: 0.15, importNeighbour: 0, testFactor: 0.3,
};

export interface LocateOptions {
  /** Candidates reranked after BM25 (default 50). */
  rerankTop?: number;
  /**
   * The backbone's document score over the reranked pool. Default: the lexical rubric scorer's
   * documentScore (documentScoreFromScorer(new LexicalScorer())); lexicalWindowScore is a cheaper
   * alternative.
   */
  documentScore?: DocumentScoreFn;
  weights?: Partial<LocateWeights>;
  /** Skip stage 2 (plain BM25 ranking). */
  bm25Only?: boolean;
}

export interface LocateSignals {
  path: string;
  bm25: number;
  document: number;
  mentioned: number;
  pathTerms: number;
  defines: number;
  importNeighbour: number;
  test: boolean;
  score: number;
}

export interface LocateResult {
  /** Paths best first: the reranked top N, then the rest in BM25 order. */
  ranked: string[];
  /** Stage-2 signals of the reranked files, best first. */
  signals: LocateSignals[];
}

export async function locateFiles(query: string, ix: FileIndex, opts: LocateOptions = {}): Promise<LocateResult> {
  const qTerms = termsOf(query);
  const raw = bm25Scores(ix.bm25, qTerms);
  const order = ix.paths.map((_, i) => i).sort((a, b) => raw[b] - raw[a] || (ix.paths[a] < ix.paths[b] ? -1 : 1));
  if (opts.bm25Only) return { ranked: order.map((i) => ix.paths[i]), signals: [] };
  const w = { ...DEFAULT_LOCATE_WEIGHTS, ...opts.weights };
  const n = Math.min(opts.rerankTop ?? 50, order.length);
  const mentioned = mentionedFiles(query, ix);
  // Named files join the pool even when BM25 missed them.
  const poolSet = new Set(order.slice(0, n));
  for (const i of mentioned.keys()) poolSet.add(i);
  const pool = [...poolSet];
  const texts = pool.map((i) => ix.texts[i]);
  const doc = await (opts.documentScore ?? defaultDocumentScore())(query, texts);
  const maxOf = (xs: ArrayLike<number>) => { let m = 0; for (let i = 0; i < xs.length; i++) if (Number.isFinite(xs[i])) m = Math.max(m, xs[i]); return m || 1; };
  const maxB = maxOf(pool.map((i) => raw[i])), maxD = maxOf(doc);
  const qSet = new Set(qTerms);
  let qIdf = 0;
  for (const t of qSet) qIdf += idf(ix.bm25, t);
  const idents = issueIdentifiers(query);
  const sig: LocateSignals[] = pool.map((i, k) => {
    const path = ix.paths[i];
    let pt = 0;
    for (const t of ix.pathTerms[i]) if (qSet.has(t)) pt += idf(ix.bm25, t);
    const defs = definedNames(ix.texts[i]);
    let d = 0;
    for (const id of idents) if (defs.has(id)) d++;
    const s: LocateSignals = {
      path,
      bm25: raw[i] / maxB,
      document: Number.isFinite(doc[k]) ? Math.max(0, doc[k]) / maxD : 0,
      mentioned: mentioned.get(i) ?? 0,
      pathTerms: Math.min(1, pt / Math.max(1e-9, 0.25 * qIdf)),
      defines: Math.min(1, d / 3),
      importNeighbour: 0,
      test: isTestPath(path),
      score: 0,
    };
    return s;
  });
  const combine = (s: LocateSignals) => {
    const base = w.bm25 * s.bm25 + w.document * s.document + w.mentioned * s.mentioned + w.pathTerms * s.pathTerms +
      w.defines * s.defines + w.importNeighbour * s.importNeighbour;
    return s.test && s.mentioned === 0 ? base * w.testFactor : base;
  };
  for (const s of sig) s.score = combine(s);
  // Import neighbours of the three leading files get a nudge, then rescore.
  const lead = [...sig].sort((a, b) => b.score - a.score).slice(0, 3);
  const byPath = new Map(sig.map((s, k) => [s.path, k]));
  const leadSet = new Set(lead.map((s) => s.path));
  for (const s of lead) {
    for (const p of importsOf(ix, ix.paths.indexOf(s.path))) {
      const k = byPath.get(p);
      if (k !== undefined && !leadSet.has(p)) sig[k].importNeighbour = 1;
    }
  }
  for (const s of sig) s.score = combine(s);
  sig.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
  const ranked = sig.map((s) => s.path);
  for (const i of order) if (!poolSet.has(i)) ranked.push(ix.paths[i]);
  return { ranked, signals: sig };
}

/** hit@1 and reciprocal rank within the top k (0 when no gold file is in the top k). */
export function rankMetrics(ranked: readonly string[], gold: readonly string[], k = 10): { hit1: number; rr: number } {
  const g = new Set(gold);
  const idx = ranked.slice(0, k).findIndex((p) => g.has(p));
  return { hit1: ranked.length > 0 && g.has(ranked[0]) ? 1 : 0, rr: idx >= 0 ? 1 / (idx + 1) : 0 };
}

/**
 * A Scorer's document score (the lexical rubric scorer, or the neural backbone once its model
 * loads) as a DocumentScoreFn. Structure comes from the indentation analyzer: cheap, and enough
 * for a document-level score.
 */
export function documentScoreFromScorer(scorer: Scorer, maxLines = 3000): DocumentScoreFn {
  return async (query, texts) => {
    const out: number[] = [];
    for (const text of texts) {
      const lines = text.split('\n').slice(0, maxLines);
      const structure = analyzeByIndent(lines, 'python');
      try {
        const r = await scorer.score({ query, lines, structure, language: 'python' });
        out.push(Number.isFinite(r.documentScore) ? r.documentScore : 0);
      } catch {
        out.push(0);
      }
    }
    return out;
  };
}

/**
 * The paper's reranker: ask a judge (the caller's LLM, eight-field schema) about each candidate
 * file and score it with the fixed CICL aggregation. Malformed, thrown or late answers score 0 and
 * are counted in `stats` (never thrown).
 */
export function documentScoreFromJudge(
  judge: JudgeFn, opts: JudgeRunOptions & { onStats?: (s: JudgeStats) => void; counter?: TokenCounter } = {},
): DocumentScoreFn {
  const counter = opts.counter ?? approximateCounter;
  return async (query, texts) => {
    const units: ContextUnit[] = texts.map((content, i) => ({
      id: `candidate:${i}`, type: 'file', source: `candidate ${i + 1}`, content, tokens: counter.count(content.slice(0, 6000)), confidence: 1,
    }));
    const { outcomes, stats } = await judgeAll(judge, { query }, units, opts);
    opts.onStats?.(stats);
    return outcomes.map((o, i) => (o.ok ? Math.max(0, utilityScore(judgmentComponents(o.judgment), units[i].tokens).score) : 0));
  };
}
