/**
 * Node helpers of packContext: read a directory (readTree's rules: source extensions, VCS and
 * dependency folders skipped, binary and oversized files left out) and keep its index between
 * calls, rebuilt only when a file's text changed.
 */
import { realpath, stat } from 'node:fs/promises';
import { CtxpruneError } from '../errors.js';
import { readTree, type ReadTreeOptions } from '../cards/tree-node.js';
import { buildPackIndex, packContext, type PackIndex, type PackIndexOptions, type PackContextOptions, type PackContextResult } from './pack.js';

export interface DirectoryIndexOptions extends PackIndexOptions {
  read?: ReadTreeOptions;
}

interface Cached {
  files: Map<string, string>;
  index: PackIndex;
  includeTests: boolean;
}
const indexCache = new Map<string, Cached>();

function sameFiles(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [p, t] of a) if (b.get(p) !== t) return false;
  return true;
}

/**
 * The pack index of a directory: read it, and reuse the index of the last call on the same
 * directory when no file changed (compared text by text), so a second task costs the ranking
 * and pruning alone.
 */
export async function loadPackIndex(root: string, opts: DirectoryIndexOptions = {}): Promise<{ index: PackIndex; reused: boolean; readMs: number }> {
  const st = await stat(root).catch(() => null);
  if (!st?.isDirectory()) throw new CtxpruneError('INVALID_OPTION', `${root} is not a directory`);
  const dir = await realpath(root);
  const t0 = performance.now();
  const files = await readTree(dir, opts.read);
  const readMs = performance.now() - t0;
  const includeTests = !!opts.includeTests;
  const hit = indexCache.get(dir);
  if (hit && hit.includeTests === includeTests && sameFiles(hit.files, files)) return { index: hit.index, reused: true, readMs };
  const index = buildPackIndex(files, { includeTests });
  indexCache.delete(dir);
  if (indexCache.size >= 4) indexCache.delete(indexCache.keys().next().value as string);
  indexCache.set(dir, { files, index, includeTests });
  return { index, reused: false, readMs };
}

/** packContext over a directory's files (`root`), its index cached across calls. */
export async function packDirectory(
  options: Omit<PackContextOptions, 'files' | 'index'> & { root: string; read?: ReadTreeOptions },
): Promise<PackContextResult> {
  if (options === null || typeof options !== 'object' || typeof options.root !== 'string') {
    throw new CtxpruneError('INVALID_OPTION', 'root (a directory) is required');
  }
  const t0 = performance.now();
  const { index, reused } = await loadPackIndex(options.root, { includeTests: options.includeTests, read: options.read });
  const indexMs = performance.now() - t0;
  const { root: _root, read: _read, ...rest } = options;
  const r = await packContext({ ...rest, index });
  r.stats.indexMs = reused ? 0 : indexMs;
  r.stats.ms += indexMs;
  return r;
}
