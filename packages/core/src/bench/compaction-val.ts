/**
 * Compaction transcripts from validation repositories (`ctxprune bench compaction --transcripts
 * val`, #17): real commits of repositories that are in no benchmark, not SWE-bench, not reserved
 * and not trained on. Only identifiers (repository, fix commit, fixed file) are in git
 * (packages/core/bench/compaction/val-transcripts*.json); every text comes from the repository
 * mirrors (`MIRROR/<owner>+<name>/repo`, bare git) at run time:
 *   - the task: the fix commit's message (trailers dropped);
 *   - a grep of the message's most specific word over the repository at the parent commit;
 *   - read_file of the fixed file at the parent commit (the gold lines: the lines the fix edits),
 *     and of four other files of the same repository (two from its directory when it has them),
 *     in a per-case shuffled order;
 *   - a run_tests log; in half of the transcripts (per case) the last read comes after it, so the
 *     protected tail is a long, mostly irrelevant file.
 * Calls and results are paired (assistant `toolCalls` / tool `toolCallId`, the path in the arguments).
 * Node only (git through child_process); the runner and the metric are compaction.ts's.
 */
import type { Message } from '../compaction/types.js';
import { CtxpruneError } from '../errors.js';
import { shuffled as shuffle } from '../util/random.js';
import { rng, testLog, type BenchTranscript } from './compaction.js';
import type { Mirrors } from './mirrors.js';

/** One transcript's identifiers. */
export interface TranscriptId {
  repo: string;
  commit: string;
  path: string;
}

/** Never these (the benchmark, SWE-bench, RESERVED.md). */
const FORBIDDEN = new Set([
  'psf/requests',
  'pallets/flask',
  'encode/httpx',
  'sindresorhus/got',
  'vitejs/vite',
  'pytest-dev/pytest',
  'pylint-dev/pylint',
  'mwaskom/seaborn',
  'astropy/astropy',
  'pydata/xarray',
  'sphinx-doc/sphinx',
  'sympy/sympy',
  'django/django',
  'scikit-learn/scikit-learn',
  'matplotlib/matplotlib',
  'honojs/hono',
  'tanstack/query',
  'mobxjs/mobx',
  'vercel/swr',
  'pmndrs/zustand',
  'immerjs/immer',
  'reduxjs/redux-toolkit',
  'pydantic/pydantic',
  'encode/django-rest-framework',
  'textualize/textual',
  'pycqa/flake8',
]);

function allowed(repo: string): void {
  if (FORBIDDEN.has(repo.toLowerCase())) throw new CtxpruneError('INVALID_OPTION', `forbidden repository ${repo} (a benchmark, SWE-bench or reserved one)`);
}

/** A materialised case (a line of cases.jsonl), as far as selection reads it. */
export interface SelectableCase {
  repo: string;
  commit: string;
  path: string;
  file_text: string;
  gold_lines: number[];
}

/** Up to `perRepo` transcripts per repository (distinct commits, files of 60–1,500 lines with a non-blank gold line), in a per-repository seeded order. */
export function selectTranscriptIds(rows: readonly SelectableCase[], perRepo = 6): TranscriptId[] {
  const byRepo = new Map<string, SelectableCase[]>();
  for (const r of rows) {
    allowed(r.repo);
    const lines = r.file_text.split('\n');
    const gold = r.gold_lines.filter((n) => n >= 1 && n <= lines.length && lines[n - 1].trim() !== '');
    if (gold.length === 0 || lines.length < 60 || lines.length > 1500) continue;
    let l = byRepo.get(r.repo);
    if (!l) byRepo.set(r.repo, (l = []));
    l.push(r);
  }
  const out: TranscriptId[] = [];
  for (const [repo, rs] of [...byRepo].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const seen = new Set<string>();
    for (const r of shuffle(rs, rng(repo))) {
      if (out.filter((o) => o.repo === repo).length >= perRepo) break;
      if (seen.has(r.commit)) continue;
      seen.add(r.commit);
      out.push({ repo, commit: r.commit, path: r.path });
    }
  }
  return out;
}

const TRAILER = /^(signed-off-by|co-authored-by|reviewed-by|acked-by|cc|change-id|pr-url)\s*:/i;
const EXT: Record<string, string[]> = {
  '.py': ['.py'],
  '.ts': ['.ts', '.tsx'],
  '.tsx': ['.ts', '.tsx'],
  '.js': ['.js', '.mjs', '.cjs'],
  '.mjs': ['.js', '.mjs'],
  '.cjs': ['.js', '.cjs'],
};
// prettier-ignore
const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'that', 'this', 'when', 'into', 'fix', 'fixes', 'fixed', 'add', 'adds', 'added', 'use', 'make', 'remove', 'update', 'support', 'should', 'not', 'are', 'was', 'were', 'have', 'has']);

/** Pre-image line numbers the fix edits (a pure insertion: the two lines around it, when not blank). */
function goldLinesOf(m: Mirrors, repo: string, parent: string, commit: string, path: string, pre: readonly string[]): number[] {
  const diff = m.git(repo, 'diff', '-U0', '--no-color', '--no-ext-diff', parent, commit, '--', path);
  const gold = new Set<number>();
  for (const line of diff.split('\n')) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!h) continue;
    const start = Number(h[1]);
    const count = h[2] === undefined ? 1 : Number(h[2]);
    if (count > 0) for (let n = start; n < start + count; n++) gold.add(n);
    else for (const n of [start, start + 1]) if (n >= 1 && n <= pre.length && pre[n - 1].trim()) gold.add(n);
  }
  return [...gold].filter((n) => n >= 1 && n <= pre.length).sort((a, b) => a - b);
}

/** Words of the message to grep for, most specific first: identifier-looking ones (camelCase, snake_case), then the longest. */
function grepWords(query: string): string[] {
  const words = [...new Set((query.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? []).filter((w) => !STOP.has(w.toLowerCase())))];
  const idish = (w: string) => /[a-z][A-Z]|_/.test(w);
  return words.sort((a, b) => Number(idish(b)) - Number(idish(a)) || b.length - a.length || (a < b ? -1 : 1));
}

function failingTestName(query: string): string {
  const words = (
    query
      .split('\n')[0]
      .toLowerCase()
      .match(/[a-z]{3,}/g) ?? []
  )
    .filter((w) => !STOP.has(w))
    .slice(0, 3);
  return `test_${words.join('_') || 'regression'}`;
}

/** The transcript of one commit, from the mirror. */
export function buildValTranscript(m: Mirrors, id: TranscriptId): BenchTranscript & { repo: string; goal: string } {
  const { repo, commit, path } = id;
  allowed(repo);
  const parent = m.git(repo, 'rev-parse', `${commit}^`).trim();
  const message = m
    .git(repo, 'log', '-1', '--format=%B', commit)
    .split('\n')
    .filter((l) => !TRAILER.test(l.trim()))
    .join('\n')
    .trim()
    .slice(0, 2000);
  const text = m.git(repo, 'show', `${parent}:${path}`);
  const pre = text.split('\n');
  const gold = goldLinesOf(m, repo, parent, commit, path, pre);
  const ext = path.slice(path.lastIndexOf('.'));
  const exts = EXT[ext] ?? [ext];
  const r = rng(`${repo}@${commit}:${path}`);
  // Distractors: files of the same language at the parent, 1.5–40 kB, two from the fixed file's directory when it has them.
  const sizes = m
    .git(repo, 'ls-tree', '-r', '-l', parent)
    .split('\n')
    .flatMap((l) => {
      const f = /^\d+ blob [0-9a-f]+\s+(\d+)\t(.+)$/.exec(l);
      return f ? [{ path: f[2], size: Number(f[1]) }] : [];
    })
    .filter(
      (f) =>
        f.path !== path &&
        exts.some((e) => f.path.endsWith(e)) &&
        f.size > 1500 &&
        f.size < 40000 &&
        !/\.d\.ts$|\.min\.js$|(^|\/)(dist|vendor|node_modules)\//.test(f.path),
    );
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const near = shuffle(
    sizes.filter((f) => f.path.startsWith(dir) && !f.path.slice(dir.length).includes('/')),
    r,
  ).slice(0, 2);
  const far = shuffle(
    sizes.filter((f) => !near.includes(f)),
    r,
  ).slice(0, 4 - near.length);
  const others = [...near, ...far].map((f) => ({ path: f.path, text: m.git(repo, 'show', `${parent}:${f.path}`), gold: false }));
  const files = shuffle([{ path, text, gold: true }, ...others], r);
  // grep over the repository at the parent commit.
  let grepOut = '',
    word = 'error';
  for (const w of grepWords(message).slice(0, 6)) {
    try {
      grepOut = m.git(repo, 'grep', '-n', '-I', '-F', w, parent, '--', ...exts.map((e) => `*${e}`));
    } catch {
      grepOut = '';
    }
    if (grepOut.trim()) {
      word = w;
      break;
    }
  }
  // As an agent's grep tool shows it: generated and vendored files skipped, long lines cut, 40 hits at most.
  const grepLines = grepOut
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(parent.length + 1))
    .filter((l) => !/^(dist|build|vendor|node_modules)\/|\.min\.js:/.test(l))
    .slice(0, 40)
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)} …` : l));
  const testFiles = shuffle(
    others.map((o) => o.path),
    r,
  ).slice(0, 3);
  const call = (n: string, name: string, a: unknown): Message => ({
    id: `a-${n}`,
    role: 'assistant',
    content: '',
    toolCalls: [{ id: `call_${n}`, name, arguments: JSON.stringify(a) }],
  });
  const result = (n: string, name: string, content: string): Message => ({ id: `t-${n}`, role: 'tool', toolName: name, toolCallId: `call_${n}`, content });
  const messages: Message[] = [
    {
      id: 'sys',
      role: 'system',
      content:
        'You are a coding agent working in a git repository. Tools: grep, read_file, run_tests, read_overflow. Find the cause of the problem the user reports and fix it; keep changes minimal.',
    },
    { id: 'u1', role: 'user', content: message },
    { ...call('grep', 'grep', { pattern: word, path: '.' }), content: `Searching the repository for "${word}".` },
    result('grep', 'grep', grepLines.join('\n') || '(no matches)'),
  ];
  const reads = files.map((f, n) => [
    { ...call(`read${n}`, 'read_file', { path: f.path }), content: `Reading ${f.path}.` },
    result(`read${n}`, 'read_file', f.text),
  ]);
  // pytest's item count is drawn before the files' lines, as the transcripts were first built.
  const lang = ext === '.py' ? 'py' : 'ts';
  const collected = lang === 'py' ? 150 + Math.floor(r() * 300) : 0;
  const test = [
    { ...call('test', 'run_tests', {}), content: 'Running the test suite to reproduce the failure.' },
    result('test', 'run_tests', testLog(lang, failingTestName(message), testFiles, r, collected)),
  ];
  // Half the transcripts end on a read (a long protected tail), the others on the test run.
  const lastRead = r() < 0.5;
  if (lastRead) messages.push(...reads.slice(0, -1).flat(), ...test, ...reads[reads.length - 1]);
  else messages.push(...reads.flat(), ...test);
  const goldMessageId = `t-read${files.findIndex((f) => f.gold)}`;
  const goldLines = gold.map((n) => pre[n - 1]).filter((l) => l.trim() !== '');
  return { id: `${repo}@${commit.slice(0, 10)}:${path}`, repo, messages, goldMessageId, goldLines, goal: message };
}
