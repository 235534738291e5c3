/**
 * Bare git mirrors of public repositories (`DIR/<owner>+<name>/repo`), which the benchmarks built
 * from repository identifiers read their texts from: the compaction transcripts
 * (compaction-val.ts) and the languages suite (languages.ts). Only identifiers are committed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CtxpruneError } from '../errors.js';

/** The repositories under `mirror` (bare git repositories at `<owner>+<name>/repo`). */
export class Mirrors {
  constructor(readonly dir: string) {}

  gitDir(repo: string): string {
    return join(this.dir, repo.replace('/', '+'), 'repo');
  }

  git(repo: string, ...args: string[]): string {
    return execFileSync('git', ['--git-dir', this.gitDir(repo), ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  }
}

/** The mirrors at `dir`; a typed error naming `reader` (what reads them) when the folder is not there. */
export function openMirrors(dir: string, reader: string): Mirrors {
  const mirrors = new Mirrors(dir);
  if (!existsSync(mirrors.dir)) {
    throw new CtxpruneError(
      'INVALID_OPTION',
      `no mirrors at ${mirrors.dir}: ${reader} reads bare git mirrors DIR/<owner>+<name>/repo, given by --mirror DIR or $CTXPRUNE_MIRROR (default data/mirror)`,
    );
  }
  return mirrors;
}
