/**
 * Reading a repository tree from disk (Node only; the rest of cards/ is pure and takes a
 * path → text map). Skips VCS and dependency folders, binary and oversized files.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export interface ReadTreeOptions {
  /** Keep files whose name ends with one of these (default: common source extensions). */
  extensions?: readonly string[];
  /** Skip files larger than this (default 1 MiB). */
  maxFileBytes?: number;
  /** Stop after this many files (default 20,000). */
  maxFiles?: number;
  /** Directory names never entered. */
  skipDirs?: readonly string[];
  /** Skip files with more hard links than this (default: no limit; the MCP server passes 1). */
  maxLinks?: number;
}

export const DEFAULT_SOURCE_EXTENSIONS = [
  '.py',
  '.ts',
  '.tsx',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.go',
  '.rs',
  '.java',
  '.c',
  '.h',
  '.cpp',
  '.cs',
  '.rb',
  '.php',
  '.md',
];
const SKIP = ['.git', 'node_modules', '__pycache__', '.venv', 'venv', '.tox', 'dist', 'build', '.mypy_cache', '.pytest_cache'];

/** path (relative, '/'-separated) → text, in sorted path order. */
export async function readTree(root: string, opts: ReadTreeOptions = {}): Promise<Map<string, string>> {
  const exts = opts.extensions ?? DEFAULT_SOURCE_EXTENSIONS;
  const maxBytes = opts.maxFileBytes ?? 1 << 20;
  const maxFiles = opts.maxFiles ?? 20_000;
  const skip = new Set(opts.skipDirs ?? SKIP);
  const maxLinks = opts.maxLinks ?? Number.POSITIVE_INFINITY;
  const paths: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (paths.length >= maxFiles) return;
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name)) await walk(full);
      } else if (e.isFile() && exts.some((x) => e.name.endsWith(x))) paths.push(full);
    }
  };
  await walk(root);
  const out = new Map<string, string>();
  const texts: (string | null)[] = [];
  for (let i = 0; i < paths.length; i += 64) {
    texts.push(
      ...(await Promise.all(
        paths.slice(i, i + 64).map(async (p) => {
          const s = await stat(p);
          if (s.size > maxBytes || s.nlink > maxLinks) return null;
          const buf = await readFile(p);
          if (buf.includes(0)) return null;
          return buf.toString('utf8');
        }),
      )),
    );
  }
  paths.forEach((p, i) => {
    const t = texts[i];
    if (t !== null) out.set(relative(root, p).split(sep).join('/'), t);
  });
  return out;
}
