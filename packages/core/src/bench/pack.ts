/**
 * The pack benchmark (Node only): on SWE-bench instances whose repository trees materialize.py
 * --pools wrote, the share of each fix's gold lines (pre-image lines of every patched file, from
 * the materialized cases) inside a pack of N o200k tokens, beside two references computed the same
 * way: (a) whole files in BM25 order until the budget is spent, the last one cut; (b) the patched
 * files alone, whole, in order (perfect localization, no pruning). Test files are not in the pool
 * (benchTestPath). Reference (a) is issue #19's definition (referenceWords, bm25PathOrder), which
 * gives its numbers on the 40 dev instances: 0.285 / 0.340 / 0.499 at 4k / 8k / 16k (the issue:
 * 0.285 / 0.341 / 0.499).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { CtxpruneError } from '../errors.js';
import { readTree } from '../cards/tree-node.js';
import { poolDir, parseInstances, type LocateInstance } from './locate.js';
import { buildBm25Index, bm25Scores } from '../retrieval/bm25.js';
import { splitLines } from '../text/lines.js';
import { loadDefaultTokenCounter, measureTokens, type TokenCounter } from '../text/tokens.js';
import type { Scorer } from '../scorers/types.js';
import { buildPackIndex, packContext, type PackIndex } from '../pack/pack.js';

/** instance_id → path → gold lines (1-based, pre-image). */
export type GoldLines = Map<string, Map<string, number[]>>;

/** Gold lines per instance from materialized cases (dev-cases.jsonl: instance_id, path, gold_lines). */
export function goldFromCases(text: string): GoldLines {
  const out: GoldLines = new Map();
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new CtxpruneError('INVALID_OPTION', `cases line ${i + 1} is not JSON`);
    }
    if (typeof o.instance_id !== 'string' || typeof o.path !== 'string' || !Array.isArray(o.gold_lines)) return;
    let m = out.get(o.instance_id);
    if (!m) out.set(o.instance_id, (m = new Map<string, number[]>()));
    m.set(
      o.path,
      (o.gold_lines as unknown[]).filter((x): x is number => typeof x === 'number'),
    );
  });
  return out;
}

/** What a method put in the context: path → kept 1-based lines. */
export type Kept = Map<string, Iterable<number>>;

/** Share of the instance's gold lines inside `kept` (1 when it has none). */
export function packRecall(kept: Kept, gold: Map<string, number[]>): number {
  let n = 0,
    hit = 0;
  for (const [path, lines] of gold) {
    const k = new Set(kept.get(path) ?? []);
    for (const g of lines) {
      n++;
      if (k.has(g)) hit++;
    }
  }
  return n ? hit / n : 1;
}

interface Whole {
  path: string;
  text: string;
}

/**
 * Whole files in order, each with a `### path` header, until `budget` tokens are spent; the file
 * that does not fit is cut to the longest prefix of its lines that does.
 */
export function wholeFilesUntil(files: readonly Whole[], budget: number, counter: TokenCounter): Kept {
  const kept: Kept = new Map();
  let left = budget;
  for (const f of files) {
    const head = counter.count(`### ${f.path}\n`);
    if (head >= left) break;
    left -= head;
    const lines = splitLines(f.text);
    const { total, costs } = measureTokens(f.text, lines, counter);
    if (total + 1 <= left) {
      kept.set(
        f.path,
        lines.map((_, i) => i + 1),
      );
      left -= total + 1;
      continue;
    }
    const part: number[] = [];
    for (let i = 0; i < lines.length && costs[i] <= left; i++) {
      left -= costs[i];
      part.push(i + 1);
    }
    kept.set(f.path, part);
    break;
  }
  return kept;
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;
const WORD_PART = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;

/**
 * Reference (a)'s terms, "identifier words": each identifier ([A-Za-z_][A-Za-z0-9_]*) split at
 * underscores, case changes (`HTTPServer` → http, server) and digits, lowercased, nothing dropped
 * (no stopwords, no length limit). Deliberately not ctxprune's own termsOf (which adds the whole
 * compound and drops stopwords and one-letter parts): with those terms (a) is 0.407 / 0.479 /
 * 0.648 on dev, not the issue's numbers.
 */
export function referenceWords(text: string, out: string[] = []): string[] {
  for (const id of text.match(IDENTIFIER) ?? []) for (const w of id.match(WORD_PART) ?? []) out.push(w.toLowerCase());
  return out;
}

/**
 * Reference (a)'s ranking (#19): BM25 (k1 1.5, b 0.75, IDF ln(1 + (N − n + ½)/(n + ½))) over the
 * identifier words of the path (the whole path, extension included) three times and of the
 * content; the query is the task's distinct words, each once; ties in path order.
 */
export function bm25PathOrder(files: ReadonlyMap<string, string>, task: string): string[] {
  const paths = [...files.keys()];
  const docs = paths.map((p) => {
    const pt = referenceWords(p);
    return referenceWords(files.get(p)!, [...pt, ...pt, ...pt]);
  });
  const s = bm25Scores(buildBm25Index(docs), [...new Set(referenceWords(task))], { k1: 1.5, b: 0.75 });
  return paths
    .map((_, i) => i)
    .sort((a, b) => s[b] - s[a] || (paths[a] < paths[b] ? -1 : 1))
    .map((i) => paths[i]);
}

const TEST_DIR = /(^|\/)(tests?|testing|__tests__)\//;
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$|\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * The benchmark's test rule, one for every method's pool: files under tests/, test/, testing/ or
 * __tests__/, test_*.py, *_test.py, conftest.py, and *.test.* / *.spec.* scripts. (The pack
 * applies its own, wider isTestPath inside this pool, as it does for any caller.)
 */
export function benchTestPath(path: string): boolean {
  return TEST_DIR.test(path) || TEST_FILE.test(path);
}

/**
 * The source files a pool may hold: .py for the dev SWE-bench trees (materialize.py writes nothing
 * else there), and the miners' TypeScript/JavaScript extensions for the validation trees
 * (training/pack_validation.py).
 */
export const POOL_EXTENSIONS = ['.py', '.ts', '.tsx', '.js', '.mjs', '.cjs', '.mts', '.cts'];

export interface PackBenchRow {
  instance_id: string;
  budget: number;
  pack: number;
  refA: number;
  refB: number;
  tokens: number;
  ms: number;
  files: string[];
  /** 1-based rank of each gold file in the pack's ranking (0: not in the top 30). */
  goldRanks: number[];
}

export interface PackBenchOptions {
  instancesPath: string;
  casesPath: string;
  pools: string;
  budgets?: readonly number[];
  scorer?: Scorer | 'lexical';
  /** Only the references (no pack). */
  referencesOnly?: boolean;
  onRow?: (r: PackBenchRow) => void;
}

export interface PackBenchSummary {
  budgets: number[];
  instances: number;
  /** Mean recall per budget. */
  pack: number[];
  refA: number[];
  refB: number[];
  /** Largest pack, in tokens, over its budget (≤ 0 means never exceeded). */
  worstOverBudget: number;
  msMedian: number;
  missing: string[];
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new CtxpruneError('INVALID_OPTION', `cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The benchmark: one row per instance and budget, means per budget. */
export async function runPackBench(opts: PackBenchOptions): Promise<PackBenchSummary> {
  const budgets = [...(opts.budgets ?? [4000, 8000, 16000])];
  const instances: LocateInstance[] = parseInstances(await readText(opts.instancesPath));
  const gold = goldFromCases(await readText(opts.casesPath));
  const counter = await loadDefaultTokenCounter();
  const sums = { pack: budgets.map(() => 0), refA: budgets.map(() => 0), refB: budgets.map(() => 0) };
  const missing: string[] = [];
  const times: number[] = [];
  let worst = -Infinity,
    n = 0;
  let cached = null as { dir: string; pool: Map<string, string>; all: Map<string, string>; index: PackIndex | null } | null;
  for (const inst of instances) {
    const g = gold.get(inst.instance_id);
    const dir = poolDir(opts.pools, inst);
    if (!g || !existsSync(dir)) {
      missing.push(inst.instance_id);
      continue;
    }
    if (!cached || cached.dir !== dir) {
      const all = await readTree(dir, { extensions: POOL_EXTENSIONS, maxFileBytes: 2 << 20, skipDirs: ['.git'] });
      const pool = new Map([...all].filter(([p]) => !benchTestPath(p)));
      cached = { dir, pool, all, index: null };
    }
    const here = cached;
    const { pool, all } = here;
    const orderA = bm25PathOrder(pool, inst.problem_statement).map((p) => ({ path: p, text: pool.get(p)! }));
    const patched = (inst.files_touched ?? [...g.keys()]).filter((p) => all.has(p)).map((p) => ({ path: p, text: all.get(p)! }));
    n++;
    for (let b = 0; b < budgets.length; b++) {
      const budget = budgets[b];
      const refA = packRecall(wholeFilesUntil(orderA, budget, counter), g);
      const refB = packRecall(wholeFilesUntil(patched, budget, counter), g);
      let pack = 0,
        tokens = 0,
        ms = 0,
        files: string[] = [],
        goldRanks: number[] = [];
      if (!opts.referencesOnly) {
        const t0 = performance.now();
        here.index ??= buildPackIndex(pool);
        const r = await packContext({
          index: here.index,
          task: inst.problem_statement,
          tokens: budget,
          tokenCounter: counter,
          ...(opts.scorer ? { scorer: opts.scorer } : {}),
        });
        ms = performance.now() - t0;
        times.push(ms);
        tokens = r.tokens;
        worst = Math.max(worst, counter.count(r.text) - budget);
        pack = packRecall(new Map(r.files.map((f) => [f.path, f.keptLines])), g);
        files = r.files.map((f) => f.path);
        goldRanks = [...g.keys()].map((p) => r.ranked.indexOf(p) + 1);
      }
      sums.pack[b] += pack;
      sums.refA[b] += refA;
      sums.refB[b] += refB;
      opts.onRow?.({ instance_id: inst.instance_id, budget, pack, refA, refB, tokens, ms, files, goldRanks });
    }
  }
  times.sort((a, b) => a - b);
  return {
    budgets,
    instances: n,
    pack: sums.pack.map((s) => (n ? s / n : 0)),
    refA: sums.refA.map((s) => (n ? s / n : 0)),
    refB: sums.refB.map((s) => (n ? s / n : 0)),
    worstOverBudget: worst,
    msMedian: times.length ? times[Math.floor(times.length / 2)] : 0,
    missing,
  };
}
