/**
 * Compaction benchmark (`ctxprune bench compaction`): agent transcripts built from materialised
 * dev cases. The user turn is the issue text; then a grep, reads of the gold file and of other
 * files of the same repository (in a per-case shuffled order, so the gold file is not always
 * oldest or newest) and a test log. Budget: 1/ratio of the transcript's tokens. Metric: the share
 * of gold lines whose exact text survives in the (possibly pruned) tool output that read the gold
 * file. Gold labels are used only to measure, never to build the transcript or to score blocks.
 * The transcripts built from validation repositories' commits (`--transcripts val`) are in
 * compaction-val.ts; both share the runner, the test log and the randomness here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { BenchCase } from './cases.js';
import { join } from 'node:path';
import { compact } from '../compaction/compact.js';
import type { CompactOptions, CompactionStrategy, Message } from '../compaction/types.js';
import { termsOf } from '../text/identifiers.js';
import type { TokenCounter } from '../text/tokens.js';
import { hashString, mulberry32, shuffled as shuffle } from '../util/random.js';

/** A case with its repository and path (materialised dev or validation cases; readCases reads them). */
export type DevCase = BenchCase & { repo: string; path: string };

export interface BenchTranscript {
  id: string;
  messages: Message[];
  goldMessageId: string;
  /** Non-blank gold line texts of the gold file. */
  goldLines: string[];
  /** The repository (validation transcripts). */
  repo?: string;
}

/** Deterministic PRNG from a string (mulberry32 over an FNV hash). */
export function rng(seed: string): () => number {
  return mulberry32(hashString(seed));
}

function poolFiles(poolsDir: string, c: DevCase, exts: string[], max: number, r: () => number): { path: string; text: string }[] {
  if (!c.commit) return [];
  const root = join(poolsDir, c.repo.replace('/', '+'), c.commit);
  const found: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (depth > 6 || found.length > 400) return;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      if (n.startsWith('.')) continue;
      const p = join(d, n);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p, depth + 1);
      else if (exts.some((e) => n.endsWith(e)) && st.size > 2000 && st.size < 60000) found.push(p);
    }
  };
  walk(root, 0);
  return shuffle(found, r)
    .map((p) => ({ path: p.slice(root.length + 1), text: readFileSync(p, 'utf8') }))
    .filter((f) => f.path !== c.path)
    .slice(0, max);
}

export interface TranscriptOptions {
  otherFiles?: number;
  poolsDir?: string;
}

/** One transcript per case. Other files: other cases' files of the same repo, then the pool tree. */
export function buildTranscripts(cases: DevCase[], opts: TranscriptOptions = {}): BenchTranscript[] {
  const k = opts.otherFiles ?? 4;
  const byRepo = new Map<string, DevCase[]>();
  for (const c of cases) {
    let l = byRepo.get(c.repo);
    if (!l) byRepo.set(c.repo, (l = []));
    l.push(c);
  }
  return cases.map((c) => {
    const r = rng(c.id);
    const seen = new Set([c.path]);
    const others: { path: string; text: string }[] = [];
    for (const o of shuffle(byRepo.get(c.repo)!, r)) {
      if (others.length >= k) break;
      if (seen.has(o.path) || o.file_text.length > 120_000) continue;
      seen.add(o.path);
      others.push({ path: o.path, text: o.file_text });
    }
    if (others.length < k && opts.poolsDir) {
      const ext = c.path.slice(c.path.lastIndexOf('.'));
      for (const f of poolFiles(opts.poolsDir, c, [ext], k - others.length + 5, r)) {
        if (others.length >= k) break;
        if (seen.has(f.path)) continue;
        seen.add(f.path);
        others.push(f);
      }
    }
    const files = shuffle([{ path: c.path, text: c.file_text, gold: true }, ...others.map((o) => ({ ...o, gold: false }))], r);
    // grep: the agent searches the most specific word (longest term) across the files.
    const qTerms = [...new Set(termsOf(c.query))].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    const word = qTerms.find((t) => files.some((f) => f.text.toLowerCase().includes(t))) ?? qTerms[0] ?? 'error';
    const grepLines: string[] = [];
    for (const f of files) {
      f.text.split('\n').forEach((l, i) => {
        if (grepLines.length < 40 && l.toLowerCase().includes(word)) grepLines.push(`${f.path}:${i + 1}:${l}`);
      });
    }
    const testFiles = shuffle(
      others.map((o) => o.path),
      r,
    ).slice(0, 3);
    const testLog = syntheticTestLog(c, testFiles, r);
    const messages: Message[] = [
      { id: 'sys', role: 'system', content: 'You are a coding agent. Tools: grep, read_file, run_tests, read_overflow. Fix the issue the user reports.' },
      { id: 'u1', role: 'user', content: c.query },
      { id: 'a-grep', role: 'assistant', content: `Searching the repository for "${word}".` },
      { id: 't-grep', role: 'tool', toolName: 'grep', content: grepLines.join('\n') || '(no matches)' },
    ];
    let goldMessageId = '';
    files.forEach((f, n) => {
      messages.push({ id: `a-read${n}`, role: 'assistant', content: `Reading ${f.path}.` });
      messages.push({ id: `t-read${n}`, role: 'tool', toolName: 'read_file', content: f.text });
      if (f.gold) goldMessageId = `t-read${n}`;
    });
    messages.push({ id: 'a-test', role: 'assistant', content: 'Running the test suite to reproduce the failure.' });
    messages.push({ id: 't-test', role: 'tool', toolName: 'run_tests', content: testLog });
    const fileLines = c.file_text.split('\n');
    const goldLines = [...new Set(c.gold_lines)]
      .filter((n) => n >= 1 && n <= fileLines.length)
      .map((n) => fileLines[n - 1])
      .filter((l) => l.trim() !== '');
    return { id: c.id, messages, goldMessageId, goldLines };
  });
}

function syntheticTestLog(c: DevCase, testFiles: string[], r: () => number): string {
  const title = c.query.split('\n')[0].slice(0, 120);
  const words = termsOf(title).slice(0, 3);
  return testLog('py', `test_${words.join('_') || 'regression'}`, testFiles, r);
}

/**
 * A failing test run that names `testName`: pytest's output (`py`) or vitest's (`ts`), with a line
 * per file of `testFiles` (its size drawn from `r`); `collected` is pytest's item count.
 */
export function testLog(lang: 'py' | 'ts', testName: string, testFiles: readonly string[], r: () => number, collected = 214): string {
  const name = testName;
  const base = (f: string) => f.replace(/\.[a-z]+$/, '').replace(/.*\//, '');
  if (lang === 'ts') {
    const lines = ['', ' RUN  v1.6.0', ''];
    for (const f of testFiles) lines.push(` ✓ test/${base(f)}.test.ts (${10 + Math.floor(r() * 40)} tests) ${Math.floor(r() * 300)}ms`);
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
  const lines = ['============================= test session starts ==============================', `collected ${collected} items`, ''];
  for (const f of testFiles) {
    const n = 20 + Math.floor(r() * 40);
    lines.push(`tests/test_${base(f)}.py ${'.'.repeat(n)} [${Math.floor(r() * 100)}%]`);
  }
  lines.push(
    `tests/test_regressions.py ..F.. [100%]`,
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

/** Share of the gold lines whose exact text is a line of the compacted gold tool output. */
export function goldShare(t: BenchTranscript, messages: Message[]): number {
  if (t.goldLines.length === 0) return NaN;
  const m = messages.find((x) => x.id === t.goldMessageId);
  if (!m) return 0;
  const present = new Set(m.content.split('\n'));
  return t.goldLines.filter((l) => present.has(l)).length / t.goldLines.length;
}

export interface BenchRow {
  strategy: string;
  /** The budget: 1/ratio of each transcript's tokens. */
  ratio: number;
  /** Transcripts with gold lines (the others count for the budget only). */
  cases: number;
  transcripts: number;
  goldShare: number;
  /** Share of cases whose gold lines all survive. */
  allGold: number;
  tokensUsed: number;
  budget: number;
  overBudget: number;
  /** ms per transcript, compact() alone. */
  ms: number;
}

/** One transcript under one variant and budget (gold: null when it has no gold lines). */
export interface BenchCaseRow {
  ratio: number;
  strategy: string;
  id: string;
  gold: number | null;
  tokens: number;
  after: number;
}

export interface BenchOptions {
  /** Budgets to run, each 1/ratio of a transcript's tokens (default [4]). */
  ratios?: number[];
  /**
   * A second, independent count of the result (e.g. js-tiktoken): when given, "tokens used" and
   * "over budget" are measured with it instead of the library's own count.
   */
  check?: (text: string) => number;
}

export interface Variant {
  name: string;
  strategy: CompactionStrategy;
  options?: Partial<CompactOptions>;
}

export async function runCompactionBench(
  transcripts: BenchTranscript[],
  variants: Variant[],
  counter: TokenCounter,
  opts: BenchOptions = {},
): Promise<{ rows: BenchRow[]; perCase: BenchCaseRow[] }> {
  const rows: BenchRow[] = [];
  const perCase: BenchCaseRow[] = [];
  const totals = transcripts.map((t) => t.messages.reduce((a, m) => a + counter.count(m.content), 0));
  for (const ratio of opts.ratios ?? [4]) {
    const budgets = totals.map((total) => Math.floor(total / ratio));
    for (const v of variants) {
      let share = 0,
        all = 0,
        n = 0,
        used = 0,
        budget = 0,
        over = 0,
        ms = 0;
      for (let k = 0; k < transcripts.length; k++) {
        const t = transcripts[k];
        const t0 = performance.now();
        const r = await compact(t.messages, { ...v.options, strategy: v.strategy, tokens: budgets[k], tokenCounter: counter });
        ms += performance.now() - t0;
        const check = opts.check;
        const after = check ? r.messages.reduce((a, m) => a + check(m.content), 0) : r.tokensAfter;
        used += after;
        budget += budgets[k];
        if ((!check && r.overBudget) || after > budgets[k]) over++;
        // A transcript whose commit edits no non-blank line of the file counts for the budget only.
        const s = goldShare(t, r.messages);
        perCase.push({ ratio, strategy: v.name, id: t.id, gold: Number.isNaN(s) ? null : s, tokens: budgets[k], after });
        if (Number.isNaN(s)) continue;
        share += s;
        if (s === 1) all++;
        n++;
      }
      const k = transcripts.length;
      rows.push({
        strategy: v.name,
        ratio,
        cases: n,
        transcripts: k,
        goldShare: share / n,
        allGold: all / n,
        tokensUsed: used / k,
        budget: budget / k,
        overBudget: over,
        ms: ms / k,
      });
    }
  }
  return { rows, perCase };
}

/** The rows as a Markdown table (the README's compaction tables). */
export function formatRows(rows: readonly BenchRow[]): string {
  const lines = [
    '| budget | strategy | gold lines kept | all gold kept | over budget | mean tokens / budget | ms/transcript |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| 1/${r.ratio} | ${r.strategy} | ${r.goldShare.toFixed(3)} (${r.cases}) | ${(100 * r.allGold).toFixed(0)}% | ${r.overBudget}/${r.transcripts} | ${Math.round(r.tokensUsed)} / ${Math.round(r.budget)} | ${r.ms.toFixed(0)} |`,
    );
  }
  return lines.join('\n');
}
