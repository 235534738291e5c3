/**
 * `ctxprune bench compaction --transcripts`: transcripts built from a repository mirror's commits
 * (bench/compaction-val.ts), here a two-commit repository made in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildValTranscript, selectTranscriptIds } from '../../src/bench/compaction-val.js';
import { Mirrors } from '../../src/bench/mirrors.js';
import { main } from '../../src/cli/main.js';

const body = (name: string, n: number) => Array.from({ length: n }, (_, i) => `def ${name}_${i}(value):\n    return value + ${i}\n`).join('\n');
let mirror: string;
let commit: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
}

beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), 'ctxprune-valrepo-'));
  git(work, 'init', '-q', '-b', 'main');
  mkdirSync(join(work, 'pkg'));
  writeFileSync(
    join(work, 'pkg', 'headers.py'),
    `import re\n\n\ndef parse_header(raw):\n    name, value = raw.split(":")\n    return name, value\n\n${body('helper', 30)}`,
  );
  for (const f of ['pkg/render.py', 'pkg/util.py', 'other.py', 'more.py']) writeFileSync(join(work, f), body(f.replace(/\W/g, '_'), 40));
  git(work, 'add', '.');
  git(work, 'commit', '-q', '-m', 'first');
  writeFileSync(
    join(work, 'pkg', 'headers.py'),
    `import re\n\n\ndef parse_header(raw):\n    name, _, value = raw.partition(":")\n    return name, value\n\n${body('helper', 30)}`,
  );
  git(work, 'commit', '-q', '-am', 'Fix parse_header on values with a colon\n\nSigned-off-by: t <t@t>');
  commit = git(work, 'rev-parse', 'HEAD').trim();
  mirror = mkdtempSync(join(tmpdir(), 'ctxprune-mirror-'));
  execFileSync('git', ['clone', '-q', '--bare', work, join(mirror, 'o+r', 'repo')]);
});

describe('compaction transcripts from a mirror', { timeout: 60_000 }, () => {
  it('the commit message as the task, a grep at the parent, the fixed file and four others read, a test run; gold = the lines the fix edits', () => {
    const t = buildValTranscript(new Mirrors(mirror), { repo: 'o/r', commit, path: 'pkg/headers.py' });
    expect(t.id).toBe(`o/r@${commit.slice(0, 10)}:pkg/headers.py`);
    expect(t.goal).toBe('Fix parse_header on values with a colon');
    expect(t.messages[1]).toEqual({ id: 'u1', role: 'user', content: 'Fix parse_header on values with a colon' });
    expect(t.messages[3].content).toBe('pkg/headers.py:4:def parse_header(raw):');
    expect(t.goldLines).toEqual(['    name, value = raw.split(":")']);
    const reads = t.messages.filter((m) => m.toolName === 'read_file');
    expect(reads).toHaveLength(5);
    expect(t.messages.find((m) => m.id === t.goldMessageId)!.content).toContain('def parse_header(raw):');
    // Every call has its result, named by id.
    for (const m of t.messages.filter((x) => x.toolCalls)) expect(t.messages.some((r) => r.toolCallId === m.toolCalls![0].id)).toBe(true);
    expect(t.messages.find((m) => m.toolName === 'run_tests')!.content).toMatch(/^={29} test session starts ={30}\ncollected \d+ items\n/);
    // Seeded: the same transcript every time.
    expect(buildValTranscript(new Mirrors(mirror), { repo: 'o/r', commit, path: 'pkg/headers.py' })).toEqual(t);
  });

  it('refuses a benchmark repository; selection takes distinct commits of files with gold', () => {
    expect(() => buildValTranscript(new Mirrors(mirror), { repo: 'psf/requests', commit, path: 'x.py' })).toThrow(/forbidden repository psf\/requests/);
    const file = Array.from({ length: 80 }, (_, i) => `line ${i}`).join('\n');
    const rows = [
      { repo: 'o/r', commit: 'c1', path: 'a.py', file_text: file, gold_lines: [3] },
      { repo: 'o/r', commit: 'c1', path: 'b.py', file_text: file, gold_lines: [4] },
      { repo: 'o/r', commit: 'c2', path: 'c.py', file_text: 'short', gold_lines: [1] },
    ];
    expect(selectTranscriptIds(rows, 6)).toEqual([{ repo: 'o/r', commit: 'c1', path: expect.stringMatching(/^[ab]\.py$/) }]);
  });

  it('ctxprune bench compaction --transcripts IDS.json --mirror DIR', async () => {
    const ids = join(mkdtempSync(join(tmpdir(), 'ctxprune-ids-')), 'ids.json');
    writeFileSync(ids, JSON.stringify([{ repo: 'o/r', commit, path: 'pkg/headers.py' }]));
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: () => undefined };
    expect(await main(['bench', 'compaction', '--transcripts', ids, '--mirror', mirror, '--strategies', 'reactive', '--json'], io)).toBe(0);
    const { rows } = JSON.parse(out.join('')) as { rows: { ratio: number; strategy: string; cases: number; transcripts: number; overBudget: number }[] };
    expect(rows.map((r) => [r.ratio, r.strategy, r.cases, r.transcripts, r.overBudget])).toEqual([
      [4, 'reactive', 1, 1, 0],
      [8, 'reactive', 1, 1, 0],
    ]);
  });

  it('the mirrors default to $CTXPRUNE_MIRROR, else data/mirror; none there is an error that says how to give them', async () => {
    const ids = join(mkdtempSync(join(tmpdir(), 'ctxprune-ids-')), 'ids.json');
    writeFileSync(ids, JSON.stringify([{ repo: 'o/r', commit, path: 'pkg/headers.py' }]));
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s) };
    vi.stubEnv('CTXPRUNE_MIRROR', mirror);
    try {
      expect(await main(['bench', 'compaction', '--transcripts', ids, '--strategies', 'reactive', '--ratios', '4', '--json'], io)).toBe(0);
      expect((JSON.parse(out.join('')) as { rows: { transcripts: number }[] }).rows.map((r) => r.transcripts)).toEqual([1]);
      const nowhere = join(tmpdir(), 'ctxprune-no-such-mirrors');
      vi.stubEnv('CTXPRUNE_MIRROR', nowhere);
      expect(await main(['bench', 'compaction', '--transcripts', 'val', '--json'], io)).toBe(2);
      expect(err).toEqual([
        `ctxprune bench: no mirrors at ${nowhere}: --transcripts val reads bare git mirrors DIR/<owner>+<name>/repo, given by --mirror DIR or $CTXPRUNE_MIRROR (default data/mirror) [INVALID_OPTION]`,
      ]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
