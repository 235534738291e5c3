/**
 * `ctxprune bench languages` (bench/languages.ts): parse rate and output checks per language on real
 * files of public repositories, read from bare git mirrors. `--select` writes the identifiers file
 * from the mirrors' HEADs; without it the committed one (bench/languages/files.json) is read.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openMirrors } from '../../bench/mirrors.js';
import {
  checkFile,
  expandFileSets,
  type FileCheck,
  formatLanguageTable,
  type LanguageFileSet,
  MAX_FILE_CHARS,
  selectLanguageFiles,
  summarizeChecks,
} from '../../bench/languages.js';
import { CtxpruneError } from '../../errors.js';
import { resolveScorer } from '../../scorers/registry.js';
import { loadDefaultTokenCounter } from '../../text/tokens.js';
import { boolFlag, numberFlag, parseArgs, stringFlag } from '../args.js';
import type { Command } from '../main.js';
import { mirrorDirFromArgs } from './shared.js';

/** The committed identifiers file (repository, commit, path; no text), shipped in the npm package. */
const DEFAULT_IDS = fileURLToPath(new URL('../../../bench/languages/files.json', import.meta.url));

const usage =
  'ctxprune bench languages [--mirror DIR] [--ids FILES.json] [--ratios 4,8] [--split all|tune|held-out] [--scorer auto|lexical|neural] [--limit N] [--json] | ctxprune bench languages --select --mirror DIR --ids OUT.json [--per-repo 100]';

export const command: Command = {
  summary: 'parse rate and output checks per language (Go, Rust, Java, C, C++, C#, Ruby, PHP) on real files',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, ['select', 'json'], ['mirror', 'ids', 'ratios', 'split', 'limit', 'per-repo', 'scorer']);
    const mirrors = openMirrors(mirrorDirFromArgs(args), 'bench languages');
    const idsPath = stringFlag(args, 'ids') ?? DEFAULT_IDS;
    if (boolFlag(args, 'select')) {
      if (stringFlag(args, 'ids') === undefined)
        throw new CtxpruneError('INVALID_OPTION', `--select needs --ids OUT.json (the identifiers file to write)\nusage: ${usage}`);
      const sets = selectLanguageFiles(mirrors, numberFlag(args, 'per-repo') ?? 100);
      await writeFile(idsPath, '[\n' + sets.map((x) => JSON.stringify(x)).join(',\n') + '\n]\n');
      io.out(`${sets.reduce((a, x) => a + x.paths.length, 0)} files from ${sets.length} repositories → ${idsPath}`);
      return 0;
    }
    const split = stringFlag(args, 'split') ?? 'all';
    if (!['all', 'tune', 'held-out'].includes(split)) throw new CtxpruneError('INVALID_OPTION', `--split is all, tune or held-out; got "${split}"`);
    const ratios = (stringFlag(args, 'ratios') ?? '4,8').split(',').map(Number);
    if (ratios.some((r) => !Number.isFinite(r) || r < 1)) throw new CtxpruneError('INVALID_OPTION', '--ratios takes numbers ≥ 1 (e.g. 4,8)');
    const limit = numberFlag(args, 'limit') ?? 0;
    let files = expandFileSets(JSON.parse(await readFile(idsPath, 'utf8')) as LanguageFileSet[]).filter((f) => split === 'all' || f.split === split);
    const missing = [...new Set(files.filter((f) => !existsSync(mirrors.gitDir(f.repo))).map((f) => f.repo))];
    files = files.filter((f) => existsSync(mirrors.gitDir(f.repo)));
    if (limit > 0) files = files.slice(0, limit);
    const counter = await loadDefaultTokenCounter();
    // Resolved once: a name would load the model for every file.
    const scorerName = stringFlag(args, 'scorer') ?? 'auto';
    const scorer = await resolveScorer(scorerName);
    const checks: FileCheck[] = [];
    for (const f of files) {
      const text = mirrors.git(f.repo, 'show', `${f.commit}:${f.path}`);
      if (text.length > MAX_FILE_CHARS) continue;
      for (const ratio of ratios) checks.push(await checkFile(f, text, ratio, counter, scorer));
    }
    const rows = summarizeChecks(checks);
    if (boolFlag(args, 'json')) {
      io.out(
        JSON.stringify(
          { rows, failures: checks.filter((c) => c.inputParses === false || c.outputParses === false || !c.withinBudget || !c.identical) },
          null,
          1,
        ),
      );
      return 0;
    }
    const repos = new Set(files.map((f) => f.repo)).size;
    io.out(
      `${files.length} files (${split}) of ${repos} repositories from ${idsPath}, mirrors ${mirrors.dir}; scorer ${scorerName}, budget in ${counter.name}`,
    );
    if (missing.length) io.out(`not in the mirrors, skipped: ${missing.join(', ')}`);
    io.out(formatLanguageTable(rows));
    return 0;
  },
};
