/**
 * packContext: the context an agent needs for a task, from a repository, under one token budget.
 * Pure given file texts (the Node helper in ./node.ts walks a directory).
 *
 * 1. Rank the files (locate: BM25 over path + contents, reranked with the task's signals: named
 *    paths, dotted modules, traceback frames, identifiers the file defines, path terms).
 * 2. Allocate the budget across the leading files by marginal value: file f is worth
 *    p_f · F_f(b) at b tokens, with p_f a softmax of its rank score and F_f the share of the
 *    file's task relevance (smoothed per-line BM25 of the task's terms) that its densest lines
 *    worth b tokens hold — concave, so giving a file more yields less, and the second file gets
 *    budget only when a chunk of it is worth more than more of the first (MIG-style).
 * 3. Prune each chosen file to its share with the LaMR pipeline (whole when it fits).
 * 4. With what is left, a compact map: signatures of the definitions the kept lines use (in their
 *    own file or in the files they import) and of the next-ranked files.
 * The result never exceeds the budget (counted on the exact text, headers included) and every
 * kept line is byte-identical to its input line.
 */
import { degradation, type PackDegradation } from '../degradations.js';
import { CtxpruneError } from '../errors.js';
import { pythonImports, jsImports } from '../cards/imports.js';
import { elidedRanges, formatRanges, numberLines } from '../integrations/focus.js';
import { documentScoreFromScorer, type DocumentScoreFn } from '../locate/document-score.js';
import { buildFileIndex, cachedTerms, type FileIndex } from '../locate/file-index.js';
import { locateFiles } from '../locate/rank.js';
import { isTestPath } from '../locate/signals.js';
import { prune } from '../prune/pipeline.js';
import { idf } from '../retrieval/bm25.js';
import { LexicalScorer } from '../scorers/lexical.js';
import type { Scorer } from '../scorers/types.js';
import { termsOf } from '../text/identifiers.js';
import { lineCount, splitLines } from '../text/lines.js';
import { checkedCounter, loadDefaultTokenCounter, measureTokens, type TokenCounter } from '../text/tokens.js';

/** Files as a map, a record, or a list of { path, text }. */
export type PackFilesInput = ReadonlyMap<string, string> | Readonly<Record<string, string>> | readonly { path: string; text: string }[];

export interface PackIndexOptions {
  /** Keep test, fixture, docs and example files in the pool (default false: left out). */
  includeTests?: boolean;
}

/** What packContext reuses across tasks on the same files: build once, pass as `index`. */
export interface PackIndex {
  readonly locate: FileIndex;
  /** Files left out of the pool (tests, binary). */
  readonly excluded: number;
  /** Lazily filled per-file caches. */
  readonly cache: {
    lines: Map<string, string[]>;
    costs: Map<string, { total: number; costs: Float64Array; counter: string }>;
    defs: Map<string, Definition[]>;
    imports: Map<string, string[]>;
    terms: Map<string, string[]>;
    pathIndex: Map<string, number>;
  };
}

export interface Definition {
  name: string;
  /** 1-based line of the definition. */
  line: number;
  /** Its first line, trimmed. */
  signature: string;
  /** Indentation depth in columns. */
  indent: number;
}

export interface PackContextOptions {
  /** What the agent is trying to do (an issue, a request, a traceback). */
  task: string;
  /** Token budget for the whole pack (o200k_base by default), headers included. */
  tokens: number;
  /** The repository's files, or a prebuilt `index` (buildPackIndex) to reuse across tasks. */
  files?: PackFilesInput;
  index?: PackIndex;
  /** Scorer of the pruning (default: lexical). */
  scorer?: Scorer | 'lexical';
  /** Document score of the ranking's rerank (default: the lexical rubric scorer's, as locateFiles). */
  documentScore?: DocumentScoreFn;
  tokenCounter?: TokenCounter;
  /** Prefix each kept line with its original line number. */
  lineNumbers?: boolean;
  /** Files considered for bodies (default 12). */
  candidates?: number;
  /** Softmax temperature over the rank scores (default 0.05: a file 0.1 below the leader is worth e⁻² of it). */
  temperature?: number;
  /** Add the signature map with the budget left (default true). */
  map?: boolean;
  /** With `files`: see PackIndexOptions. */
  includeTests?: boolean;
  signal?: AbortSignal;
}

export interface PackedFile {
  path: string;
  /** Rank score (locate) and its share of the relevance prior. */
  score: number;
  prior: number;
  totalLines: number;
  /** 1-based original line numbers in the pack, ascending. */
  keptLines: number[];
  /** Elided 1-based inclusive ranges. */
  elided: [number, number][];
  whole: boolean;
  /** Tokens of this file's block (header included) and the share it was given. */
  tokens: number;
  allocated: number;
}

export interface MapEntry {
  path: string;
  line: number;
  signature: string;
  /** 'used': defined where a kept line's name resolves; 'next': a next-ranked file's definition. */
  why: 'used' | 'next';
}

export interface PackContextResult {
  text: string;
  tokens: number;
  budget: number;
  files: PackedFile[];
  map: MapEntry[];
  /** The ranking, best first (at most 30 paths). */
  ranked: string[];
  stats: {
    ms: number;
    indexMs: number;
    rankMs: number;
    pruneMs: number;
    /** Calls of the pruning pipeline (a block that overflowed the exact count is pruned again, smaller). */
    prunes: number;
    poolFiles: number;
    excludedFiles: number;
    tokenizer: string;
    scorer: string;
    /** What packing did instead of the plan, each a code (`PACK_DEGRADATION_CODES`) and its message. */
    degraded: PackDegradation[];
  };
}

function entriesOf(files: PackFilesInput): [string, string][] {
  if (files instanceof Map) return [...(files as ReadonlyMap<string, string>)];
  if (Array.isArray(files)) return (files as { path: string; text: string }[]).map((f) => [f?.path, f?.text] as [string, string]);
  if (files && typeof files === 'object') return Object.entries(files as Record<string, string>);
  throw new CtxpruneError('INVALID_OPTION', 'files must be a Map, a record of path → text, or a list of { path, text }');
}

/** Index the files once (BM25, module table); reuse it for every task on the same files. */
export function buildPackIndex(files: PackFilesInput, opts: PackIndexOptions = {}): PackIndex {
  const pool = new Map<string, string>();
  let excluded = 0;
  for (const [path, text] of entriesOf(files)) {
    if (typeof path !== 'string' || path === '' || typeof text !== 'string') {
      throw new CtxpruneError('INVALID_OPTION', `every file needs a non-empty string path and a string text (got ${JSON.stringify(path)})`);
    }
    const p = path.replace(/\\/g, '/');
    if ((!opts.includeTests && isTestPath(p)) || text.slice(0, 8000).includes('\0')) {
      excluded++;
      continue;
    }
    pool.set(p, text);
  }
  const locate = buildFileIndex(pool);
  return {
    locate,
    excluded,
    cache: {
      lines: new Map(),
      costs: new Map(),
      defs: new Map(),
      imports: new Map(),
      terms: new Map(),
      pathIndex: new Map(locate.paths.map((p, i) => [p, i])),
    },
  };
}

function linesOf(ix: PackIndex, path: string): string[] {
  let l = ix.cache.lines.get(path);
  if (!l) {
    l = splitLines(ix.locate.texts[ix.cache.pathIndex.get(path)!]);
    if (ix.cache.lines.size > 2000) ix.cache.lines.clear();
    ix.cache.lines.set(path, l);
  }
  return l;
}

function costsOf(ix: PackIndex, path: string, counter: TokenCounter): { total: number; costs: Float64Array } {
  const c = ix.cache.costs.get(path);
  if (c && c.counter === counter.name) return c;
  const m = measureTokens(ix.locate.texts[ix.cache.pathIndex.get(path)!], linesOf(ix, path), counter);
  if (ix.cache.costs.size > 2000) ix.cache.costs.clear();
  ix.cache.costs.set(path, { ...m, counter: counter.name });
  return m;
}

const PY_DEF = /^([ \t]*)(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)/;
const JS_DEF =
  /^([ \t]*)(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?(?:function\*?|class|interface|type|enum|const|let|var)[ \t]+([A-Za-z_$][\w$]*)/;
const JS_METHOD = /^([ \t]+)(?:(?:public|private|protected|static|readonly|async|get|set|override)[ \t]+)*([A-Za-z_$][\w$]*)[ \t]*(?:<[^>]*>)?\([^;]*$/;
const NOT_METHOD = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'else', 'do', 'with', 'await', 'new', 'typeof']);

/** Definitions of a file (Python def/class; JS/TS functions, classes, types, top-level consts, methods). */
export function definitionsOf(path: string, lines: readonly string[]): Definition[] {
  const out: Definition[] = [];
  const py = path.endsWith('.py');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.length > 400) continue;
    const m = (py ? PY_DEF : JS_DEF).exec(l) ?? (!py ? JS_METHOD.exec(l) : null);
    if (!m || (!py && NOT_METHOD.has(m[2]))) continue;
    const indent = m[1].replace(/\t/g, '    ').length;
    if (!py && /^(const|let|var)\b/.test(l.trim().replace(/^export[ \t]+/, '')) && indent > 0) continue;
    let sig = l.trim().replace(/\r$/, '');
    if (sig.length > 160) sig = sig.slice(0, 157) + '...';
    out.push({ name: m[2], line: i + 1, signature: sig, indent });
  }
  return out;
}

function defsOf(ix: PackIndex, path: string): Definition[] {
  let d = ix.cache.defs.get(path);
  if (!d) ix.cache.defs.set(path, (d = definitionsOf(path, linesOf(ix, path))));
  return d;
}

function importsOf(ix: PackIndex, path: string): string[] {
  let l = ix.cache.imports.get(path);
  if (!l) {
    const text = ix.locate.texts[ix.cache.pathIndex.get(path)!];
    l = path.endsWith('.py') ? pythonImports(path, text, ix.locate.pyModules) : jsImports(path, text, ix.locate.pathSet);
    ix.cache.imports.set(path, l);
  }
  return l;
}

/**
 * A third of a file's relevance mass is spread uniformly over its lines (a floor of half the
 * mean line relevance): lexical matches are evidence, not certainty, so a file's value keeps
 * growing, more slowly, past its matching lines. (Floors of 0.05 and 0.5 were run on the dev
 * instances: 0.5 gave +0.03 at 16k, −0.01 at 8k.)
 */
const FLOOR = 0.5;

/**
 * F_f: the share of a file's task relevance held by its densest lines worth b tokens. Line
 * relevance = IDF mass of the task's terms on the line, spread over ±3 lines (a line near a match
 * is context for it), plus a uniform floor (FLOOR × the mean line relevance) so that every line keeps some value.
 * Returns cumulative (tokens, share) points, densest lines first.
 */
function relevanceCurve(ix: PackIndex, path: string, q: Map<string, number>, costs: Float64Array): { cost: Float64Array; share: Float64Array } {
  const lines = linesOf(ix, path);
  const n = lines.length;
  const raw = new Float64Array(n);
  const cache = ix.cache.terms;
  for (let i = 0; i < n; i++) {
    if (lines[i].length > 2000) continue;
    const seen = new Set<string>();
    for (const t of cachedTerms(lines[i], cache)) {
      const w = q.get(t);
      if (w !== undefined && !seen.has(t)) {
        seen.add(t);
        raw[i] += w;
      }
    }
  }
  const rel = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    let s = raw[i];
    for (let d = 1; d <= 3; d++) {
      const k = 1 - d / 4;
      if (i - d >= 0) s += k * raw[i - d] * 0.5;
      if (i + d < n) s += k * raw[i + d] * 0.5;
    }
    rel[i] = s;
    total += s;
  }
  const floor = (total / Math.max(1, n)) * FLOOR + 1e-6;
  const order = Array.from({ length: n }, (_, i) => i);
  const dens = order.map((i) => (rel[i] + floor) / Math.max(1, costs[i]));
  order.sort((a, b) => dens[b] - dens[a] || a - b);
  const cost = new Float64Array(n),
    share = new Float64Array(n);
  let c = 0,
    s = 0;
  const mass = total + floor * n;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    c += Math.max(1, costs[i]);
    s += rel[i] + floor;
    cost[k] = c;
    share[k] = s / mass;
  }
  return { cost, share };
}

/** F(b) on a curve: the share at the last point whose cumulative cost ≤ b, interpolated. */
function curveAt(curve: { cost: Float64Array; share: Float64Array }, b: number): number {
  const { cost, share } = curve;
  if (!cost.length) return 1;
  if (b >= cost[cost.length - 1]) return 1;
  let lo = 0,
    hi = cost.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cost[mid] >= b) hi = mid;
    else lo = mid + 1;
  }
  const c0 = lo ? cost[lo - 1] : 0,
    s0 = lo ? share[lo - 1] : 0;
  return s0 + ((share[lo] - s0) * (b - c0)) / Math.max(1e-9, cost[lo] - c0);
}

function header(path: string, kept: number, total: number, elided: [number, number][]): string {
  if (kept === total) return `### ${path} (whole, ${total} lines)`;
  if (kept === 0) return `### ${path} (0/${total} lines)`;
  return `### ${path} (kept ${kept}/${total} lines; elided ${formatRanges(elided, 12)})`;
}

interface Block {
  path: string;
  head: string;
  body: string;
  file: PackedFile;
}

async function scorerOf(s: PackContextOptions['scorer']): Promise<{ prune: Scorer | 'lexical'; name: string }> {
  if (s === undefined || s === 'lexical') return { prune: 'lexical', name: 'lexical' };
  if (s === null || typeof s !== 'object' || typeof s.score !== 'function')
    throw new CtxpruneError('INVALID_OPTION', 'scorer must be "lexical" or an object with a score() method');
  return { prune: s, name: s.name };
}
let lexicalScorer: LexicalScorer | null = null;
const lexical = () => (lexicalScorer ??= new LexicalScorer());

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CtxpruneError('ABORTED', 'pack aborted');
}

/** Pack the context for `task` from `files` (or a reused `index`) within `tokens`. */
export async function packContext(options: PackContextOptions): Promise<PackContextResult> {
  const t0 = performance.now();
  if (options === null || typeof options !== 'object') throw new CtxpruneError('INVALID_OPTION', 'options must be an object { task, tokens, files | index }');
  const task = options.task;
  if (typeof task !== 'string') throw new CtxpruneError('INVALID_OPTION', `task must be a string, got ${typeof task}`);
  const budget = options.tokens;
  if (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 1) {
    throw new CtxpruneError('INVALID_BUDGET', `tokens must be a finite number ≥ 1, got ${String(budget)}`);
  }
  const B = Math.floor(budget);
  const degraded: PackDegradation[] = [];
  if (task.trim() === '') degraded.push(degradation('EMPTY_TASK', 'empty task: files ranked by path, outlines kept'));
  let ix = options.index;
  const tIndex = performance.now();
  if (!ix) {
    if (options.files === undefined) throw new CtxpruneError('INVALID_OPTION', 'files or index is required');
    ix = buildPackIndex(options.files, { includeTests: options.includeTests });
  }
  const indexMs = options.index ? 0 : performance.now() - tIndex;
  const counter = options.tokenCounter !== undefined ? checkedCounter(options.tokenCounter) : await loadDefaultTokenCounter();
  const sc = await scorerOf(options.scorer);
  const signal = options.signal;
  const query = task.length > 20_000 ? task.slice(0, 20_000) : task;
  const empty = (why: PackDegradation): PackContextResult => {
    degraded.push(why);
    return {
      text: '',
      tokens: 0,
      budget: B,
      files: [],
      map: [],
      ranked: [],
      stats: {
        ms: performance.now() - t0,
        indexMs,
        rankMs: 0,
        pruneMs: 0,
        prunes: 0,
        poolFiles: ix.locate.paths.length,
        excludedFiles: ix.excluded,
        tokenizer: counter.name,
        scorer: sc.name,
        degraded,
      },
    };
  };
  if (ix.locate.paths.length === 0) return empty(degradation('EMPTY_POOL', 'no files in the pool (tests and binary files are left out)'));
  checkAborted(signal);

  // 1. Rank.
  const tRank = performance.now();
  const located = await locateFiles(query, ix.locate, { documentScore: options.documentScore ?? documentScoreFromScorer(lexical()) });
  checkAborted(signal);
  const rankMs = performance.now() - tRank;
  const scoreOf = new Map(located.signals.map((s) => [s.path, s.score]));
  const K = Math.max(1, Math.min(options.candidates ?? 12, located.ranked.length));
  const cands = located.ranked.slice(0, K);
  const T = options.temperature ?? 0.05;
  const top = scoreOf.get(cands[0]) ?? 0;
  const weights = cands.map((p) => Math.exp(((scoreOf.get(p) ?? 0) - top) / T));
  const wsum = weights.reduce((a, b) => a + b, 0);
  const prior = weights.map((w) => w / wsum);

  // 2. Allocate by marginal value.
  const q = new Map<string, number>();
  for (const t of termsOf(query)) q.set(t, idf(ix.locate.bm25, t));
  const lineNumbers = !!options.lineNumbers;
  const info = cands.map((path, k) => {
    const lines = linesOf(ix, path);
    const { total, costs } = costsOf(ix, path, counter);
    // Header: path + counts + a few ranges; line numbers: ~2 tokens a line.
    const headCost = counter.count(`### ${path} (kept 100/${lines.length} lines; elided 1-10, 20-30, 40-50)\n\n`);
    const perLine = lineNumbers ? 2 : 0;
    const whole = total + headCost + perLine * lines.length;
    return { path, k, lines, total, costs, headCost, whole, curve: relevanceCurve(ix, path, q, costs), perLine };
  });
  const alloc = new Float64Array(K);
  const step = Math.max(64, Math.round(B / 48));
  const minFirst = Math.max(step, 160);
  let left = B;
  for (;;) {
    let best = -1,
      bestGain = 0,
      bestCost = 0;
    for (let k = 0; k < K; k++) {
      const f = info[k];
      const b = alloc[k];
      if (b >= f.whole) continue;
      const body = b === 0 ? 0 : (b - f.headCost) / (1 + f.perLine / 8);
      let cost = b === 0 ? f.headCost + Math.min(minFirst, f.whole - f.headCost) : Math.min(step, f.whole - b);
      if (cost > left) {
        cost = left;
        if (b === 0 && cost < f.headCost + 48) continue;
      }
      if (cost <= 0) continue;
      const nb = b + cost;
      const nbody = nb >= f.whole ? f.total : (nb - f.headCost) / (1 + f.perLine / 8);
      const gain = (prior[k] * (curveAt(f.curve, nbody) - curveAt(f.curve, body))) / cost;
      if (gain > bestGain) {
        best = k;
        bestGain = gain;
        bestCost = cost;
      }
    }
    if (best < 0) break;
    alloc[best] += bestCost;
    left -= bestCost;
    if (left <= 0) break;
  }

  // 3. Prune each chosen file to its share.
  const tPrune = performance.now();
  const blocks: Block[] = [];
  let prunes = 0;
  const makeBlock = async (k: number, share: number): Promise<Block | null> => {
    const f = info[k];
    const totalLines = lineCount(f.lines);
    let keptLines: number[], body: string;
    if (share >= f.whole) {
      keptLines = Array.from({ length: totalLines }, (_, i) => i + 1);
      body = f.lines.slice(0, totalLines).join('\n');
    } else {
      const avg = f.total / Math.max(1, totalLines);
      const bodyBudget = Math.floor((share - f.headCost) * (avg / (avg + f.perLine)));
      if (bodyBudget < 16) return null;
      try {
        prunes++;
        const r = await prune(ix.locate.texts[ix.cache.pathIndex.get(f.path)!], {
          query,
          tokens: bodyBudget,
          fileName: f.path,
          scorer: sc.prune,
          tokenCounter: counter,
          ...(signal ? { signal } : {}),
        });
        keptLines = r.keptLines;
        // A block ends at its last line, as a whole file's does: the blocks are joined by a blank line.
        body = r.text.endsWith('\n') ? r.text.slice(0, -1) : r.text;
        for (const d of r.stats.degraded)
          if (d.code !== 'BUDGET_TOO_SMALL' && d.code !== 'EMPTY_QUERY' && d.code !== 'QUERY_UNMATCHED')
            degraded.push(degradation('FILE_DEGRADED', `${f.path}: ${d.message}`));
      } catch (e) {
        if ((e as { code?: string }).code === 'ABORTED') throw e;
        degraded.push(degradation('FILE_NOT_PRUNED', `${f.path}: not pruned (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`));
        return null;
      }
      if (!keptLines.length) return null;
    }
    const elided = elidedRanges(keptLines, totalLines);
    // `cat -n` gutters, as read_pruned and `ctxprune prune --line-numbers`.
    if (lineNumbers) body = numberLines(body, keptLines, totalLines);
    const head = header(f.path, keptLines.length, totalLines, elided);
    return {
      path: f.path,
      head,
      body,
      file: {
        path: f.path,
        score: scoreOf.get(f.path) ?? 0,
        prior: prior[k],
        totalLines,
        keptLines,
        elided,
        whole: keptLines.length === totalLines,
        tokens: 0,
        allocated: share,
      },
    };
  };
  const order = [...alloc.keys()].filter((k) => alloc[k] > 0);
  const shares = new Map<number, number>(order.map((k) => [k, alloc[k]]));
  for (const k of order) {
    checkAborted(signal);
    const b = await makeBlock(k, shares.get(k)!);
    if (b) blocks.push(b);
  }
  const pruneMs = performance.now() - tPrune;

  // 4. Assemble; the map takes what is left; shrink until the exact count fits.
  const render = (bs: Block[], map: MapEntry[]) => {
    const parts = bs.map((b) => `${b.head}\n${b.body}`);
    if (map.length) parts.push(`### map (signatures, path:line)\n${map.map((m) => `${m.path}:${m.line}: ${m.signature}`).join('\n')}`);
    return parts.join('\n\n');
  };
  let map: MapEntry[] = [];
  let text = render(blocks, map);
  let used = counter.count(text);
  if (options.map !== false && used < B - 24) map = buildMap(ix, blocks, located.ranked, B - used - 12, counter);
  text = render(blocks, map);
  used = counter.count(text);
  for (let guard = 0; used > B && guard < 50; guard++) {
    const over = used - B;
    if (map.length) {
      // Drop entries from the end worth at least the overflow.
      let drop = 0,
        n = map.length;
      while (n > 0 && drop < over) {
        n--;
        drop += counter.count(`${map[n].path}:${map[n].line}: ${map[n].signature}\n`);
      }
      map = map.slice(0, n);
    } else {
      // Shrink the least valuable block by the overflow (drop it when it gets too small).
      let k = blocks.length - 1;
      for (let j = blocks.length - 1; j >= 0; j--)
        if (!blocks[j].file.whole || j === 0) {
          k = j;
          break;
        }
      const b = blocks[k];
      const idx = info.findIndex((f) => f.path === b.path);
      const share = Math.min(b.file.allocated, info[idx].whole - 1) - over - 8 - guard * 4;
      const nb = share > info[idx].headCost + 16 ? await makeBlock(idx, share) : null;
      if (nb) blocks[k] = nb;
      else blocks.splice(k, 1);
    }
    text = render(blocks, map);
    used = counter.count(text);
  }
  if (used > B) {
    blocks.length = 0;
    map = [];
    text = '';
    used = 0;
    degraded.push(degradation('NOTHING_FITS', 'nothing fits the budget'));
  }
  for (const b of blocks) b.file.tokens = counter.count(`${b.head}\n${b.body}`);
  return {
    text,
    tokens: used,
    budget: B,
    files: blocks.map((b) => b.file),
    map,
    ranked: located.ranked.slice(0, 30),
    stats: {
      ms: performance.now() - t0,
      indexMs,
      rankMs,
      pruneMs,
      prunes,
      poolFiles: ix.locate.paths.length,
      excludedFiles: ix.excluded,
      tokenizer: counter.name,
      scorer: sc.name,
      degraded,
    },
  };
}

const CALL = /([A-Za-z_$][\w$]*)\s*\(/g;
const ATTR = /\.([A-Za-z_$][\w$]*)/g;
const CAPS = /\b([A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*)\b/g;

/**
 * Signatures worth the tokens left: first, definitions that names on the kept lines resolve to
 * (elided in the same file, or in a file it imports, or in another packed file), nearest first;
 * then the definitions of the next-ranked files (top level and one level in).
 */
function buildMap(ix: PackIndex, blocks: Block[], ranked: string[], room: number, counter: TokenCounter): MapEntry[] {
  const out: MapEntry[] = [];
  const seen = new Set<string>();
  let cost = counter.count('### map (signatures, path:line)\n\n');
  const add = (path: string, d: Definition, why: MapEntry['why']): boolean => {
    const key = `${path}:${d.line}`;
    if (seen.has(key)) return true;
    const c = counter.count(`${path}:${d.line}: ${d.signature}\n`);
    if (cost + c > room) return false;
    seen.add(key);
    cost += c;
    out.push({ path, line: d.line, signature: d.signature, why });
    return true;
  };
  const packed = new Set(blocks.map((b) => b.path));
  for (const b of blocks) {
    if (b.file.whole) continue;
    const lines = linesOf(ix, b.path);
    const kept = new Set(b.file.keptLines);
    const names = new Set<string>();
    for (const n of b.file.keptLines) {
      const l = lines[n - 1];
      if (l.length > 400) continue;
      for (const re of [CALL, ATTR, CAPS]) {
        re.lastIndex = 0;
        let m;
        while ((m = re.exec(l))) if (m[1].length > 2) names.add(m[1]);
      }
    }
    const where = [b.path, ...importsOf(ix, b.path).filter((p) => ix.cache.pathIndex.has(p)), ...[...packed].filter((p) => p !== b.path)];
    for (const p of where) {
      for (const d of defsOf(ix, p)) {
        if (!names.has(d.name) || (p === b.path && kept.has(d.line))) continue;
        if (packed.has(p) && p !== b.path && blocks.find((x) => x.path === p)?.file.keptLines.includes(d.line)) continue;
        if (!add(p, d, 'used')) return out;
      }
    }
  }
  for (const p of ranked.slice(0, 30)) {
    if (packed.has(p)) continue;
    const defs = defsOf(ix, p);
    const base = Math.min(...defs.map((d) => d.indent), Infinity);
    let any = false;
    for (const d of defs) {
      if (d.indent > base + 4) continue;
      if (!add(p, d, 'next')) return out;
      any = true;
    }
    if (!any) continue;
  }
  return out;
}
