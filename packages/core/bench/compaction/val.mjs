#!/usr/bin/env node
// Compaction benchmark on validation repositories (issue #17): agent transcripts built from real
// commits of repositories that are in no benchmark, not SWE-bench, not reserved and not trained on
// (the `val` repositories of training/repos.py and other fetched mirrors, see val-transcripts.json).
// Only identifiers (repository, fix commit, fixed file) are in git; every text comes from the
// repository mirrors at run time:
//   - the task: the fix commit's message (trailers dropped);
//   - a grep of the message's most specific word over the repository at the parent commit;
//   - read_file of the fixed file at the parent commit (the gold lines: the lines the fix edits),
//     and of four other files of the same repository (two from its directory when it has them),
//     in a per-case shuffled order;
//   - a run_tests log; in half of the transcripts (per case) the last read comes after it, so the
//     protected tail is a long, mostly irrelevant file.
// Calls and results are paired (assistant `toolCalls` / tool `toolCallId`, the path in the arguments).
// Metric: the share of gold lines whose exact text is a line of the compacted gold read; "over" =
// results whose messages count more tokens than the budget in o200k_base counted by js-tiktoken
// (independent of the library's counter).
//
// Build the core first (`npm run build -w @ctxprune/core`), then
//   node packages/core/bench/compaction/val.mjs [--mirror /work/.mirror] [--ratios 4,8] [--limit N] [--json]
//   node packages/core/bench/compaction/val.mjs --select CASES.jsonl [--per-repo 6] [--ids OUT.json]   # rewrite the identifiers
//   --ids val-transcripts-wide.json: one commit from each of 48 repositories of the lead's validation corpus (data/val/cases.jsonl)
// CTXPRUNE_DIST points at another build output (default: packages/core/dist), e.g. an older build
// to measure before/after on the same transcripts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const has = (name) => args.includes(`--${name}`);
const idsPath = flag('ids', join(here, 'val-transcripts.json'));
const mirror = flag('mirror', '/work/.mirror');

// Never these (benchmark, SWE-bench, RESERVED.md).
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

// --- deterministic randomness -------------------------------------------------------------
function hash(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
function rng(seed) {
  let a = hash(seed);
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffle(xs, r) {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// --- selection of identifiers ---------------------------------------------------------------
if (flag('select', null)) {
  const per = Number(flag('per-repo', '6'));
  const rows = readFileSync(flag('select'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const byRepo = new Map();
  for (const r of rows) {
    if (FORBIDDEN.has(r.repo.toLowerCase())) throw new Error(`forbidden repository ${r.repo}`);
    const lines = r.file_text.split('\n');
    const gold = r.gold_lines.filter((n) => n >= 1 && n <= lines.length && lines[n - 1].trim() !== '');
    if (gold.length === 0 || lines.length < 60 || lines.length > 1500) continue;
    if (!byRepo.has(r.repo)) byRepo.set(r.repo, []);
    byRepo.get(r.repo).push(r);
  }
  const out = [];
  for (const [repo, rs] of [...byRepo].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const seen = new Set();
    for (const r of shuffle(rs, rng(repo))) {
      if (out.filter((o) => o.repo === repo).length >= per) break;
      if (seen.has(r.commit)) continue;
      seen.add(r.commit);
      out.push({ repo, commit: r.commit, path: r.path });
    }
  }
  writeFileSync(idsPath, JSON.stringify(out, null, 1) + '\n');
  console.log(`${out.length} transcripts from ${byRepo.size} repositories → ${idsPath}`);
  process.exit(0);
}

// --- transcripts from the mirrors ------------------------------------------------------------
const gitDir = (repo) => join(mirror, repo.replace('/', '+'), 'repo');
const git = (repo, ...a) => execFileSync('git', ['--git-dir', gitDir(repo), ...a], { encoding: 'utf8', maxBuffer: 64 << 20 });
const TRAILER = /^(signed-off-by|co-authored-by|reviewed-by|acked-by|cc|change-id|pr-url)\s*:/i;
const EXT = {
  '.py': ['.py'],
  '.ts': ['.ts', '.tsx'],
  '.tsx': ['.ts', '.tsx'],
  '.js': ['.js', '.mjs', '.cjs'],
  '.mjs': ['.js', '.mjs'],
  '.cjs': ['.js', '.cjs'],
};

function goldLinesOf(repo, parent, commit, path, pre) {
  const diff = git(repo, 'diff', '-U0', '--no-color', '--no-ext-diff', parent, commit, '--', path);
  const gold = new Set();
  for (const line of diff.split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!m) continue;
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    if (count > 0) for (let n = start; n < start + count; n++) gold.add(n);
    else for (const n of [start, start + 1]) if (n >= 1 && n <= pre.length && pre[n - 1].trim()) gold.add(n);
  }
  return [...gold].filter((n) => n >= 1 && n <= pre.length).sort((a, b) => a - b);
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'that',
  'this',
  'when',
  'into',
  'fix',
  'fixes',
  'fixed',
  'add',
  'adds',
  'added',
  'use',
  'make',
  'remove',
  'update',
  'support',
  'should',
  'not',
  'are',
  'was',
  'were',
  'have',
  'has',
]);
function grepWord(query) {
  const words = [...new Set((query.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? []).filter((w) => !STOP.has(w.toLowerCase())))];
  // The most specific word: an identifier-looking one (camelCase, snake_case) first, then the longest.
  const idish = (w) => /[a-z][A-Z]|_/.test(w);
  return words.sort((a, b) => Number(idish(b)) - Number(idish(a)) || b.length - a.length || (a < b ? -1 : 1));
}

function testLog(query, lang, testFiles, r) {
  const words = (
    query
      .split('\n')[0]
      .toLowerCase()
      .match(/[a-z]{3,}/g) ?? []
  )
    .filter((w) => !STOP.has(w))
    .slice(0, 3);
  const name = `test_${words.join('_') || 'regression'}`;
  if (lang === '.py') {
    const lines = ['============================= test session starts ==============================', `collected ${150 + Math.floor(r() * 300)} items`, ''];
    for (const f of testFiles)
      lines.push(`tests/test_${f.replace(/\.[a-z]+$/, '').replace(/.*\//, '')}.py ${'.'.repeat(20 + Math.floor(r() * 40))} [${Math.floor(r() * 100)}%]`);
    lines.push(
      'tests/test_regressions.py ..F.. [100%]',
      '',
      '=================================== FAILURES ===================================',
      `___________________________ ${name} ___________________________`,
      '',
      `    def ${name}():`,
      '>       assert result == expected',
      'E       AssertionError: assert None == True',
      '',
      `FAILED tests/test_regressions.py::${name} - AssertionError`,
      '======================== 1 failed, 213 passed in 4.12s =========================',
    );
    return lines.join('\n');
  }
  const lines = ['', ' RUN  v1.6.0', ''];
  for (const f of testFiles)
    lines.push(` ✓ test/${f.replace(/\.[a-z]+$/, '').replace(/.*\//, '')}.test.ts (${10 + Math.floor(r() * 40)} tests) ${Math.floor(r() * 300)}ms`);
  lines.push(
    ' ❯ test/regressions.test.ts (5 tests | 1 failed) 41ms',
    `   × ${name.replace(/_/g, ' ')}`,
    '     → expected undefined to be true',
    '',
    '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
    '',
    ` FAIL  test/regressions.test.ts > ${name.replace(/_/g, ' ')}`,
    'AssertionError: expected undefined to be true',
    '',
    ' Test Files  1 failed | 3 passed (4)',
    '      Tests  1 failed | 212 passed (213)',
  );
  return lines.join('\n');
}

export function buildTranscript(id) {
  const { repo, commit, path } = id;
  if (FORBIDDEN.has(repo.toLowerCase())) throw new Error(`forbidden repository ${repo}`);
  const parent = git(repo, 'rev-parse', `${commit}^`).trim();
  const message = git(repo, 'log', '-1', '--format=%B', commit)
    .split('\n')
    .filter((l) => !TRAILER.test(l.trim()))
    .join('\n')
    .trim()
    .slice(0, 2000);
  const text = git(repo, 'show', `${parent}:${path}`);
  const pre = text.split('\n');
  const gold = goldLinesOf(repo, parent, commit, path, pre);
  const ext = path.slice(path.lastIndexOf('.'));
  const exts = EXT[ext] ?? [ext];
  const r = rng(`${repo}@${commit}:${path}`);
  // Distractors: files of the same language at the parent, 1.5–40 kB, two from the fixed file's directory when it has them.
  const sizes = git(repo, 'ls-tree', '-r', '-l', parent)
    .split('\n')
    .flatMap((l) => {
      const m = /^\d+ blob [0-9a-f]+\s+(\d+)\t(.+)$/.exec(l);
      return m ? [{ path: m[2], size: Number(m[1]) }] : [];
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
  const others = [...near, ...far].map((f) => ({ path: f.path, text: git(repo, 'show', `${parent}:${f.path}`), gold: false }));
  const files = shuffle([{ path, text, gold: true }, ...others], r);
  // grep over the repository at the parent commit.
  let grepOut = '',
    word = 'error';
  for (const w of grepWord(message).slice(0, 6)) {
    try {
      grepOut = git(repo, 'grep', '-n', '-I', '-F', w, parent, '--', ...exts.map((e) => `*${e}`));
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
  const call = (n, name, a) => ({ id: `a-${n}`, role: 'assistant', content: '', toolCalls: [{ id: `call_${n}`, name, arguments: JSON.stringify(a) }] });
  const result = (n, name, content) => ({ id: `t-${n}`, role: 'tool', toolName: name, toolCallId: `call_${n}`, content });
  const messages = [
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
  const test = [
    { ...call('test', 'run_tests', {}), content: 'Running the test suite to reproduce the failure.' },
    result('test', 'run_tests', testLog(message, ext === '.py' ? '.py' : '.ts', testFiles, r)),
  ];
  // Half the transcripts end on a read (a long protected tail), the others on the test run.
  const lastRead = r() < 0.5;
  if (lastRead) messages.push(...reads.slice(0, -1).flat(), ...test, ...reads[reads.length - 1]);
  else messages.push(...reads.flat(), ...test);
  const goldMessageId = `t-read${files.findIndex((f) => f.gold)}`;
  const goldLines = gold.map((n) => pre[n - 1]).filter((l) => l.trim() !== '');
  return { id: `${repo}@${commit.slice(0, 10)}:${path}`, repo, messages, goldMessageId, goldLines, goal: message };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dist = resolve(process.env.CTXPRUNE_DIST ?? join(here, '..', '..', 'dist'));
  const { compact } = await import(pathToFileURL(join(dist, 'compaction', 'compact.js')).href);
  const { loadDefaultTokenCounter } = await import(pathToFileURL(join(dist, 'text', 'tokens.js')).href);
  const { Tiktoken } = await import('js-tiktoken/lite');
  const o200k = (await import('js-tiktoken/ranks/o200k_base')).default;
  const ref = new Tiktoken(o200k);
  const refCount = (s) => ref.encode(s, 'all').length;
  const ids = JSON.parse(readFileSync(idsPath, 'utf8'));
  const limit = Number(flag('limit', '0'));
  const ratios = flag('ratios', '4,8').split(',').map(Number);
  const strategies = flag('strategies', 'reactive,task_aware,mig,task_aware_mig').split(',');
  const scorerName = flag('scorer', 'lexical');
  const counter = await loadDefaultTokenCounter();
  const transcripts = (limit ? ids.slice(0, limit) : ids).filter((x) => existsSync(gitDir(x.repo))).map(buildTranscript);
  const rows = [];
  const perCase = [];
  for (const ratio of ratios) {
    for (const strategy of strategies) {
      let share = 0,
        all = 0,
        n = 0,
        over = 0,
        used = 0,
        budget = 0,
        ms = 0;
      for (const t of transcripts) {
        const total = t.messages.reduce((a, m) => a + counter.count(m.content), 0);
        const tokens = Math.floor(total / ratio);
        const t0 = performance.now();
        const res = await compact(t.messages, { strategy, tokens, ...(scorerName !== 'lexical' ? { scorer: scorerName } : {}) });
        ms += performance.now() - t0;
        const after = res.messages.reduce((a, m) => a + refCount(m.content), 0);
        if (after > tokens) over++;
        used += after;
        budget += tokens;
        // A case whose commit edits no non-blank line of the file (e.g. a pure deletion elsewhere) counts for the budget only.
        if (t.goldLines.length === 0) {
          perCase.push({ ratio, strategy, id: t.id, gold: null, tokens, after });
          continue;
        }
        const m = res.messages.find((x) => x.id === t.goldMessageId);
        const present = new Set(m ? m.content.split('\n') : []);
        const s = t.goldLines.filter((l) => present.has(l)).length / t.goldLines.length;
        share += s;
        if (s === 1) all++;
        n++;
        perCase.push({ ratio, strategy, id: t.id, gold: s, tokens, after });
      }
      const k = transcripts.length;
      rows.push({
        ratio,
        strategy,
        cases: n,
        transcripts: k,
        goldShare: share / n,
        allGold: all / n,
        over,
        meanBudget: budget / k,
        meanUsed: used / k,
        ms: ms / k,
      });
    }
  }
  if (has('json')) console.log(JSON.stringify({ rows, perCase }, null, 1));
  else {
    const repos = new Set(transcripts.map((t) => t.repo));
    console.log(`${transcripts.length} transcripts from ${repos.size} repositories (${[...repos].join(', ')}); scorer ${scorerName}; dist ${dist}\n`);
    console.log('| budget | strategy | gold lines kept | all gold kept | over budget (o200k) | mean tokens / budget | ms/transcript |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| 1/${r.ratio} | ${r.strategy} | ${r.goldShare.toFixed(3)} (${r.cases}) | ${(100 * r.allGold).toFixed(0)}% | ${r.over}/${r.transcripts} | ${Math.round(r.meanUsed)} / ${Math.round(r.meanBudget)} | ${r.ms.toFixed(0)} |`,
      );
    }
  }
}
