/**
 * `ctxprune bench languages` (bench/languages.ts): the pure parts exactly, then the command on a
 * C repository made in a temporary directory, one file of which parses only through recovery.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expandFileSets,
  type FileCheck,
  formatLanguageTable,
  keptLinesIdentical,
  LANGUAGE_REPOS,
  queryForFile,
  summarizeChecks,
} from '../../src/bench/languages.js';
import { main } from '../../src/cli/main.js';

describe('languages bench: pure parts', () => {
  it('derives the query from the long names a third and two thirds into the file', () => {
    const text = ['a', 'b', 'int x;', 'return compute_total(items);', 'c', 'd', 'e', 'static int render_widget;', 'f', ''].join('\n');
    expect(queryForFile(text)).toBe('fix items and render_widget');
    expect(queryForFile('a\nb\n')).toBe('fix the bug');
  });
  it('checks that the kept lines are the input lines, markers aside', () => {
    const input = 'a\nb\nc\nd\n';
    expect(keptLinesIdentical(input, 'a\n// …\nd\n', [1, 4])).toBe(true);
    expect(keptLinesIdentical(input, 'a\n// …\nD\n', [1, 4])).toBe(false);
    expect(keptLinesIdentical(input, 'a\nd\n', [1, 4])).toBe(false);
    expect(keptLinesIdentical('a\r\nb\r\n', 'a\r\n// …\r\n', [1])).toBe(true);
    expect(keptLinesIdentical(input, '// …\n', [])).toBe(true);
  });
  it('summarizes per language and ratio, and formats a table', () => {
    const check = (over: Partial<FileCheck>): FileCheck => ({
      language: 'c',
      split: 'tune',
      ratio: 4,
      path: 'a.c',
      repo: 'o/r',
      inputParses: true,
      outputParses: true,
      withinBudget: true,
      identical: true,
      ms: 10,
      ...over,
    });
    const rows = summarizeChecks([
      check({}),
      check({ inputParses: false, outputParses: false, ms: 30 }),
      check({ outputParses: false, ms: 20 }),
      check({ ratio: 8 }),
    ]);
    expect(rows).toEqual([
      { language: 'c', ratio: 4, files: 3, inputParses: 2, outputParses: 1, outputChecked: 2, withinBudget: 3, identical: 3, medianMs: 20 },
      { language: 'c', ratio: 8, files: 1, inputParses: 1, outputParses: 1, outputChecked: 1, withinBudget: 1, identical: 1, medianMs: 10 },
    ]);
    expect(formatLanguageTable(rows).split('\n')[2]).toBe('| c | 4× | 3 | 66.7% | 1/2 | 3/3 | 3/3 | 20 |');
  });
  it('reads the identifiers file one entry a repository', () => {
    expect(expandFileSets([{ repo: 'o/r', commit: 'c1', language: 'go', split: 'tune', paths: ['a.go', 'b.go'] }])).toEqual([
      { repo: 'o/r', commit: 'c1', language: 'go', split: 'tune', path: 'a.go' },
      { repo: 'o/r', commit: 'c1', language: 'go', split: 'tune', path: 'b.go' },
    ]);
  });
  it('names no reserved or benchmark repository', () => {
    const reserved =
      /requests|flask|httpx|got|vite|pytest|pylint|seaborn|astropy|xarray|sphinx|sympy|django|scikit-learn|matplotlib|hono|tanstack\/query|mobx|swr|zustand|immer|redux|pydantic|textual|flake8/i;
    for (const r of LANGUAGE_REPOS) expect(r.repo).not.toMatch(reserved);
  });
});

describe('ctxprune bench languages', { timeout: 60_000 }, () => {
  let mirror: string;
  beforeAll(() => {
    const work = mkdtempSync(join(tmpdir(), 'ctxprune-langrepo-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: work, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    const helpers = Array.from({ length: 40 }, (_, i) => `static int helper_${i}(int value) { return value + ${i}; }`).join('\n');
    writeFileSync(join(work, 'plain.c'), `#include <stdio.h>\n\n${helpers}\n\nint main(void) {\n  return helper_3(1);\n}\n`);
    writeFileSync(join(work, 'macro.c'), `#include "api.h"\n\n${helpers}\n\nint API_CDECL main(void) {\n  return helper_7(2);\n}\n`);
    git('add', '.');
    git('commit', '-q', '-m', 'files');
    mirror = mkdtempSync(join(tmpdir(), 'ctxprune-langmirror-'));
    execFileSync('git', ['clone', '-q', '--bare', work, join(mirror, 'o+c', 'repo')]);
  });

  it('selects files from a mirror, then parses and prunes each at both ratios', async () => {
    const ids = join(mkdtempSync(join(tmpdir(), 'ctxprune-langids-')), 'files.json');
    const commit = execFileSync('git', ['--git-dir', join(mirror, 'o+c', 'repo'), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    writeFileSync(ids, JSON.stringify([{ repo: 'o/c', commit, language: 'c', split: 'held-out', paths: ['macro.c', 'plain.c'] }]));
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: () => undefined };
    expect(await main(['bench', 'languages', '--mirror', mirror, '--ids', ids, '--json'], io)).toBe(0);
    const { rows, failures } = JSON.parse(out.join('')) as { rows: unknown[]; failures: unknown[] };
    expect(rows).toEqual([
      expect.objectContaining({ language: 'c', ratio: 4, files: 2, inputParses: 2, outputParses: 2, outputChecked: 2, withinBudget: 2, identical: 2 }),
      expect.objectContaining({ language: 'c', ratio: 8, files: 2, inputParses: 2, outputParses: 2, outputChecked: 2, withinBudget: 2, identical: 2 }),
    ]);
    expect(failures).toEqual([]);
  });

  it('runs the scorer asked for (auto by default) and says which', async () => {
    const ids = join(mkdtempSync(join(tmpdir(), 'ctxprune-langids-')), 'files.json');
    const commit = execFileSync('git', ['--git-dir', join(mirror, 'o+c', 'repo'), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    writeFileSync(ids, JSON.stringify([{ repo: 'o/c', commit, language: 'c', split: 'tune', paths: ['plain.c'] }]));
    for (const [flag, named] of [
      [[], 'auto'],
      [['--scorer', 'lexical'], 'lexical'],
    ] as const) {
      const out: string[] = [];
      expect(
        await main(['bench', 'languages', '--mirror', mirror, '--ids', ids, '--ratios', '4', ...flag], { out: (s) => out.push(s), err: () => undefined }),
      ).toBe(0);
      expect(out[0]).toMatch(new RegExp(`; scorer ${named}, budget in o200k_base$`));
    }
    const err: string[] = [];
    expect(await main(['bench', 'languages', '--mirror', mirror, '--ids', ids, '--scorer', 'bm99'], { out: () => undefined, err: (s) => err.push(s) })).toBe(2);
    expect(err.join('')).toMatch(/unknown scorer "bm99"/);
  });

  it('without mirrors: a clear error', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (s: string) => err.push(s) };
    expect(await main(['bench', 'languages', '--mirror', join(tmpdir(), 'no-such-mirrors-dir')], io)).toBe(2);
    expect(err.join('')).toMatch(/no mirrors at .*no-such-mirrors-dir/);
  });
});
