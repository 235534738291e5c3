/**
 * What the CLI reads at run time from outside dist/ ships in the npm package: the identifier files
 * of `ctxprune bench compaction --transcripts val|wide|tune` (packages/core/bench/compaction/) are in
 * package.json's `files`, so the suite works from an installed package given the mirrors.
 * (`npm pack --dry-run` in packages/core lists them; it is too slow on a shared machine for a unit test.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkgDir = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', pkgDir), 'utf8')) as { files: string[]; bin: Record<string, string> };

/** npm's `files` entries as used here: a folder (everything under it) or a `*` glob within one folder. */
const shipped = (path: string) =>
  pkg.files.some((entry) =>
    entry.includes('*')
      ? new RegExp(`^${entry.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`).test(path)
      : path === entry || path.startsWith(`${entry}/`),
  );

describe('the npm package', () => {
  it('ships the CLI, its built code and the benchmarks’ identifier files', () => {
    expect(pkg.files).toEqual(['dist', 'bin', 'bench/compaction/*.json', 'bench/languages/*.json']);
    expect(Object.values(pkg.bin).map((p) => shipped(p.replace(/^\.\//, '')))).toEqual([true]);
    expect(shipped('dist/cli/main.js')).toBe(true);
    const ids = readdirSync(new URL('bench/compaction/', pkgDir)).filter((f) => f.endsWith('.json'));
    expect(ids.sort()).toEqual(['val-transcripts-holdout.json', 'val-transcripts-tune.json', 'val-transcripts-wide.json', 'val-transcripts.json']);
    const commits: string[] = [];
    for (const f of ids) {
      expect(shipped(`bench/compaction/${f}`), f).toBe(true);
      const rows = JSON.parse(readFileSync(new URL(`bench/compaction/${f}`, pkgDir), 'utf8')) as Record<string, unknown>[];
      // Identifiers only: no text from the repositories.
      for (const r of rows) expect(Object.keys(r).sort()).toEqual(['commit', 'path', 'repo']);
      commits.push(...rows.map((r) => `${r.repo as string}@${r.commit as string}`));
    }
    // A set that judges a change chosen on another must not share a transcript with it.
    expect(new Set(commits).size).toBe(commits.length);
    expect(shipped('bench/languages/files.json')).toBe(true);
    const sets = JSON.parse(readFileSync(new URL('bench/languages/files.json', pkgDir), 'utf8')) as Record<string, unknown>[];
    for (const x of sets) expect(Object.keys(x).sort()).toEqual(['commit', 'language', 'paths', 'repo', 'split']);
    // The abort suite's inputs are concatenated from src/, which the package does not ship.
    expect(shipped('src/index.ts')).toBe(false);
    expect(existsSync(new URL('src/index.ts', pkgDir))).toBe(true);
  });
});
