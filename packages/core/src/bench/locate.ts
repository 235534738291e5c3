/**
 * Node driver of file localization over SWE-bench instances and the trees that materialize.py
 * --pools writes (DIR/owner+name/BASE_COMMIT/...). One index per tree, reused across instances.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CtxpruneError } from '../errors.js';
import { readTree } from '../cards/tree-node.js';
import { buildFileIndex, type FileIndex } from '../locate/file-index.js';
import { locateFiles, type LocateOptions } from '../locate/rank.js';
import { rankMetrics } from './metrics.js';
import { parseJsonLines } from './jsonl.js';

export interface LocateInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  files_touched?: string[];
}

export interface LocateRunOptions extends LocateOptions {
  /** Ranked paths kept per instance in the output (default all). */
  keep?: number;
  /** File extensions ranked (default .py). */
  extensions?: readonly string[];
  /** k of MRR@k (default 10). */
  k?: number;
  onResult?: (r: { instance_id: string; ranked: string[]; ms: number; hit1?: number; rr?: number }) => void;
}

export interface LocateRunResult {
  instances: number;
  /** Instances with gold files (files_touched). */
  scored: number;
  hit1: number;
  mrr: number;
  /** Mean wall time per instance (including reading and indexing its tree, shared trees amortised). */
  msPerInstance: number;
  msMax: number;
  missingTrees: string[];
}

export function poolDir(pools: string, inst: LocateInstance): string {
  return join(pools, inst.repo.replace('/', '+'), inst.base_commit);
}

export async function runLocate(instances: readonly LocateInstance[], pools: string, opts: LocateRunOptions = {}): Promise<LocateRunResult> {
  const cache = new Map<string, FileIndex>();
  let hit = 0,
    rr = 0,
    scored = 0,
    total = 0,
    max = 0;
  const missing: string[] = [];
  for (const inst of instances) {
    const t0 = performance.now();
    const dir = poolDir(pools, inst);
    let ix = cache.get(dir);
    if (!ix) {
      if (!existsSync(dir)) {
        missing.push(inst.instance_id);
        continue;
      }
      ix = buildFileIndex(await readTree(dir, { extensions: opts.extensions ?? ['.py'], maxFileBytes: 2 << 20, skipDirs: ['.git'] }));
      cache.clear(); // one tree at a time keeps memory flat; instances are grouped by commit in practice
      cache.set(dir, ix);
    }
    const r = await locateFiles(inst.problem_statement, ix, opts);
    const ranked = opts.keep ? r.ranked.slice(0, opts.keep) : r.ranked;
    const ms = performance.now() - t0;
    total += ms;
    max = Math.max(max, ms);
    let m: { hit1: number; rr: number } | undefined;
    if (inst.files_touched && inst.files_touched.length) {
      m = rankMetrics(r.ranked, inst.files_touched, opts.k ?? 10);
      hit += m.hit1;
      rr += m.rr;
      scored++;
    }
    opts.onResult?.({ instance_id: inst.instance_id, ranked, ms, ...(m ?? {}) });
  }
  const n = instances.length - missing.length;
  return {
    instances: n,
    scored,
    hit1: scored ? hit / scored : 0,
    mrr: scored ? rr / scored : 0,
    msPerInstance: n ? total / n : 0,
    msMax: max,
    missingTrees: missing,
  };
}

/** Parse a JSONL file of instances (blank lines skipped); a malformed line is an error with its number. */
export function parseInstances(text: string): LocateInstance[] {
  return parseJsonLines(
    text,
    (o, line) => {
      const r = o as Record<string, unknown>;
      for (const f of ['instance_id', 'repo', 'base_commit', 'problem_statement']) {
        if (typeof r?.[f] !== 'string') throw new CtxpruneError('INVALID_OPTION', `instances line ${line}: "${f}" must be a string`);
      }
      // Both become path segments under --pools: no '.', '..' or separators.
      if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(r.repo as string) || !/^[A-Za-z0-9][\w.-]*$/.test(r.base_commit as string)) {
        throw new CtxpruneError('INVALID_OPTION', `instances line ${line}: bad repo or base_commit`);
      }
      const ft = Array.isArray(r.files_touched) ? (r.files_touched as unknown[]).filter((x): x is string => typeof x === 'string') : undefined;
      return {
        instance_id: r.instance_id as string,
        repo: r.repo as string,
        base_commit: r.base_commit as string,
        problem_statement: r.problem_statement as string,
        ...(ft ? { files_touched: ft } : {}),
      };
    },
    (line) => `instances line ${line} is not JSON`,
  );
}
