/**
 * The languages bench (`ctxprune bench languages`): real files of public repositories in each
 * language the grammars cover beyond the model's training languages (Go, Rust, Java, C, C++, C#, Ruby, PHP), parsed and
 * pruned at each ratio with the scorer asked for (`auto` by default: the model, as for every language
 * with a grammar; scorers/auto.ts). Per language: the
 * share of input files that parse with no ERROR or MISSING node, of outputs that parse where the
 * input does, outputs within budget, and outputs whose kept lines are the input's byte for byte.
 * Two repositories a language were looked at while the recovery shims (syntax/shims-preprocessor.ts)
 * were written ("tune"); one or two more were not ("held-out"). The files are identified by
 * repository, commit and path (bench/languages/files.json); their texts come from the caller's
 * mirrors, as the compaction bench's do. Pure but for `Mirrors` (git) and prune().
 */
import { createHash } from 'node:crypto';
import { prune } from '../prune/pipeline.js';
import type { ScorerName } from '../scorers/registry.js';
import type { Scorer } from '../scorers/types.js';
import type { LanguageId } from '../syntax/types.js';
import { lineCount, splitLines } from '../text/lines.js';
import { outputOrigin } from '../text/elision.js';
import type { TokenCounter } from '../text/tokens.js';
import type { Mirrors } from './mirrors.js';

export type LanguageSplit = 'tune' | 'held-out';

export interface LanguageRepo {
  repo: string;
  language: LanguageId;
  /** File name endings of the language in this repository (`.h` is C in a C project, C++ in a C++ one). */
  endings: readonly string[];
  split: LanguageSplit;
}

/** None of them is a benchmark, SWE-bench or reserved repository (../shared/bench/RESERVED.md). */
export const LANGUAGE_REPOS: readonly LanguageRepo[] = [
  { repo: 'spf13/cobra', language: 'go', endings: ['.go'], split: 'tune' },
  { repo: 'gin-gonic/gin', language: 'go', endings: ['.go'], split: 'tune' },
  { repo: 'urfave/cli', language: 'go', endings: ['.go'], split: 'held-out' },
  { repo: 'BurntSushi/ripgrep', language: 'rust', endings: ['.rs'], split: 'tune' },
  { repo: 'serde-rs/serde', language: 'rust', endings: ['.rs'], split: 'tune' },
  { repo: 'rust-lang/log', language: 'rust', endings: ['.rs'], split: 'held-out' },
  { repo: 'google/gson', language: 'java', endings: ['.java'], split: 'tune' },
  { repo: 'apache/commons-lang', language: 'java', endings: ['.java'], split: 'tune' },
  { repo: 'square/javapoet', language: 'java', endings: ['.java'], split: 'held-out' },
  { repo: 'DaveGamble/cJSON', language: 'c', endings: ['.c', '.h'], split: 'tune' },
  { repo: 'libuv/libuv', language: 'c', endings: ['.c', '.h'], split: 'tune' },
  { repo: 'jqlang/jq', language: 'c', endings: ['.c', '.h'], split: 'held-out' },
  { repo: 'redis/hiredis', language: 'c', endings: ['.c', '.h'], split: 'held-out' },
  { repo: 'fmtlib/fmt', language: 'cpp', endings: ['.cc', '.cpp', '.h', '.hpp'], split: 'tune' },
  { repo: 'gabime/spdlog', language: 'cpp', endings: ['.cpp', '.h'], split: 'tune' },
  { repo: 'google/leveldb', language: 'cpp', endings: ['.cc', '.h'], split: 'held-out' },
  { repo: 'Tencent/rapidjson', language: 'cpp', endings: ['.cpp', '.h'], split: 'held-out' },
  { repo: 'JamesNK/Newtonsoft.Json', language: 'csharp', endings: ['.cs'], split: 'tune' },
  { repo: 'serilog/serilog', language: 'csharp', endings: ['.cs'], split: 'tune' },
  { repo: 'DapperLib/Dapper', language: 'csharp', endings: ['.cs'], split: 'held-out' },
  { repo: 'AutoMapper/AutoMapper', language: 'csharp', endings: ['.cs'], split: 'held-out' },
  { repo: 'sinatra/sinatra', language: 'ruby', endings: ['.rb'], split: 'tune' },
  { repo: 'rack/rack', language: 'ruby', endings: ['.rb'], split: 'tune' },
  { repo: 'jekyll/jekyll', language: 'ruby', endings: ['.rb'], split: 'held-out' },
  { repo: 'guzzle/guzzle', language: 'php', endings: ['.php'], split: 'tune' },
  { repo: 'slimphp/Slim', language: 'php', endings: ['.php'], split: 'tune' },
  { repo: 'thephpleague/flysystem', language: 'php', endings: ['.php'], split: 'held-out' },
];

export interface LanguageFile {
  repo: string;
  commit: string;
  path: string;
  language: LanguageId;
  split: LanguageSplit;
}

/** The identifiers file's shape: one entry a repository, its sampled paths at one commit. */
export interface LanguageFileSet extends Omit<LanguageFile, 'path'> {
  paths: string[];
}

export function expandFileSets(sets: readonly LanguageFileSet[]): LanguageFile[] {
  return sets.flatMap(({ paths, ...rest }) => paths.map((path) => ({ ...rest, path })));
}

/** Vendored code is another project's: not sampled. */
const VENDORED = /(^|\/)(vendor|third_party|thirdparty|node_modules|deps|external)\//;
/** Files over this many characters are left out (generated tables, amalgamations). */
export const MAX_FILE_CHARS = 400_000;

/**
 * Up to `perRepo` files of each repository at its mirror's HEAD, the same on every run at that
 * commit: the files in the order of sha1(repository + path).
 */
export function selectLanguageFiles(m: Mirrors, perRepo = 100, repos: readonly LanguageRepo[] = LANGUAGE_REPOS): LanguageFileSet[] {
  const out: LanguageFileSet[] = [];
  for (const r of repos) {
    const commit = m.git(r.repo, 'rev-parse', 'HEAD').trim();
    const key = (p: string) =>
      createHash('sha1')
        .update(r.repo + p)
        .digest('hex');
    const paths = m
      .git(r.repo, 'ls-tree', '-r', '--name-only', commit)
      .split('\n')
      .filter((p) => r.endings.some((e) => p.endsWith(e)) && !VENDORED.test(p))
      .map((p) => ({ p, k: key(p) }))
      .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
      .slice(0, perRepo);
    out.push({ repo: r.repo, commit, language: r.language, split: r.split, paths: paths.map(({ p }) => p) });
  }
  return out;
}

const COMMON_WORDS = /^(const|return|public|private|protected|static|function|string|class|struct|import|include|define|final|override|virtual)$/;

/**
 * The query a file is pruned for: "fix" and the last long identifier of the first lines that have
 * one from a third and from two thirds into the file. Deterministic, and it points at code in the
 * middle of the file, which brings headers, closers and markers into play.
 */
export function queryForFile(text: string): string {
  const lines = splitLines(text);
  const names: string[] = [];
  for (const at of [0.33, 0.66]) {
    for (let t = Math.floor(lines.length * at); t < lines.length; t++) {
      const words = (lines[t].match(/[A-Za-z_][A-Za-z0-9_]{4,}/g) ?? []).filter((w) => !COMMON_WORDS.test(w));
      if (words.length) {
        names.push(words[words.length - 1]);
        break;
      }
    }
  }
  return names.length ? `fix ${names.join(' and ')}` : 'fix the bug';
}

/** Whether every output line that is not a marker is its original line, in order. */
export function keptLinesIdentical(input: string, output: string, keptLines: readonly number[]): boolean {
  const original = splitLines(input);
  const lines = output === '' ? [] : splitLines(output);
  const origin = outputOrigin(keptLines, lineCount(original));
  // A final newline leaves an empty last element, which is no line.
  const n = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  // Nothing kept: the output is one marker at most.
  if (keptLines.length === 0) return n <= 1;
  if (n !== origin.length) return false;
  for (let i = 0; i < n; i++) if (origin[i] >= 0 && lines[i] !== original[origin[i]]) return false;
  return true;
}

export interface FileCheck {
  language: LanguageId;
  split: LanguageSplit;
  ratio: number;
  path: string;
  repo: string;
  /** null: not parsed (too large, or no grammar). */
  inputParses: boolean | null;
  /** null: nothing to parse (an empty output). */
  outputParses: boolean | null;
  withinBudget: boolean;
  identical: boolean;
  ms: number;
}

export async function checkFile(
  file: LanguageFile,
  text: string,
  ratio: number,
  counter: TokenCounter,
  scorer: ScorerName | Scorer = 'auto',
): Promise<FileCheck> {
  const t0 = performance.now();
  // A `.h` goes by its name and content, as a caller passing only the file name gets it: a C
  // repository's C++ header (hiredis's Qt adapter) is C++.
  const language = /\.h$/.test(file.path) && file.language === 'c' ? 'auto' : file.language;
  const r = await prune(text, { query: queryForFile(text), ratio, language, fileName: file.path, tokenCounter: counter, scorer });
  const ms = performance.now() - t0;
  return {
    language: file.language,
    split: file.split,
    ratio,
    path: file.path,
    repo: file.repo,
    inputParses: r.stats.inputParseOk,
    outputParses: r.stats.outputParseOk,
    withinBudget: r.stats.outputTokens <= r.stats.budgetTokens || r.stats.originalTokens <= r.stats.budgetTokens,
    identical: keptLinesIdentical(text, r.text, r.keptLines),
    ms,
  };
}

export interface LanguageRow {
  language: LanguageId;
  ratio: number;
  files: number;
  inputParses: number;
  /** Outputs that parse, of the files whose input parses and whose output is not empty. */
  outputParses: number;
  outputChecked: number;
  withinBudget: number;
  identical: number;
  medianMs: number;
}

export function summarizeChecks(checks: readonly FileCheck[]): LanguageRow[] {
  const groups = new Map<string, FileCheck[]>();
  for (const c of checks) {
    const key = `${c.language}\u0000${c.ratio}`;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  const rows: LanguageRow[] = [];
  for (const g of groups.values()) {
    const ms = g.map((c) => c.ms).sort((a, b) => a - b);
    const checked = g.filter((c) => c.inputParses === true && c.outputParses !== null);
    rows.push({
      language: g[0].language,
      ratio: g[0].ratio,
      files: g.length,
      inputParses: g.filter((c) => c.inputParses === true).length,
      outputParses: checked.filter((c) => c.outputParses === true).length,
      outputChecked: checked.length,
      withinBudget: g.filter((c) => c.withinBudget).length,
      identical: g.filter((c) => c.identical).length,
      medianMs: ms[(ms.length - 1) >> 1],
    });
  }
  return rows;
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '—');

export function formatLanguageTable(rows: readonly LanguageRow[]): string {
  const out = [
    '| language | ratio | files | input parses | output parses | within budget | kept lines identical | median ms |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    out.push(
      `| ${r.language} | ${r.ratio}× | ${r.files} | ${pct(r.inputParses, r.files)} | ${r.outputParses}/${r.outputChecked} | ${r.withinBudget}/${r.files} | ${r.identical}/${r.files} | ${r.medianMs.toFixed(0)} |`,
    );
  }
  return out.join('\n');
}
