import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { buildPackIndex, definitionsOf, packContext, type PackContextResult } from '../../src/pack/pack.js';
import { loadPackIndex, packDirectory } from '../../src/pack/node.js';
import { packRecall, wholeFilesUntil, bm25PathOrder, goldFromCases } from '../../src/bench/pack.js';
import { loadDefaultTokenCounter, type TokenCounter } from '../../src/text/tokens.js';

/** A small repository: a ledger with accounts, transfers, a rate limiter, and tests. */
function repo(): Map<string, string> {
  const f = new Map<string, string>();
  f.set(
    'ledger/accounts.py',
    [
      'from decimal import Decimal',
      '',
      '',
      'class InsufficientFunds(Exception):',
      '    pass',
      '',
      '',
      'class Account:',
      '    def __init__(self, owner, balance=Decimal("0")):',
      '        self.owner = owner',
      '        self.balance = balance',
      '',
      '    def deposit(self, amount):',
      '        if amount <= 0:',
      '            raise ValueError("deposit must be positive")',
      '        self.balance += amount',
      '',
      '    def withdraw(self, amount):',
      '        if amount > self.balance:',
      '            raise InsufficientFunds(self.owner)',
      '        self.balance -= amount',
      ...Array.from({ length: 60 }, (_, i) => `\n    def report_${i}(self):\n        return f"{self.owner}: statement line ${i} {self.balance}"`),
      '',
    ].join('\n'),
  );
  f.set(
    'ledger/transfer.py',
    [
      'from ledger.accounts import Account, InsufficientFunds',
      '',
      '',
      'def transfer(source: Account, target: Account, amount):',
      '    """Move amount from source to target; both or neither change."""',
      '    source.withdraw(amount)',
      '    target.deposit(amount)',
      '    return amount',
      ...Array.from({ length: 40 }, (_, i) => `\n\ndef audit_${i}(entries):\n    return [e for e in entries if e.kind == "k${i}"]`),
      '',
    ].join('\n'),
  );
  f.set(
    'ledger/limiter.py',
    [
      'import time',
      '',
      '',
      'class RateLimiter:',
      '    def __init__(self, per_second):',
      '        self.per_second = per_second',
      '        self.last = 0.0',
      '',
      '    def retry_after(self, header):',
      '        value = float(header)',
      '        return value',
      ...Array.from({ length: 50 }, (_, i) => `\n    def window_${i}(self):\n        return time.monotonic() - self.last + ${i}`),
      '',
    ].join('\n'),
  );
  f.set('ledger/crlf.py', 'def crlf_helper():\r\n\treturn "tab\tand café"\r\n\r\nclass Withdrawal:\r\n    amount = 0\r\n');
  f.set('tests/test_transfer.py', 'from ledger.transfer import transfer\n\ndef test_transfer_overdraft():\n    transfer(None, None, 1)\n');
  return f;
}

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadDefaultTokenCounter();
});

/** Every kept line of every block equals its input line (gutters stripped when numbered). */
function expectByteIdentical(r: PackContextResult, files: Map<string, string>, numbered = false): void {
  const blocks = r.text.split(/\n\n(?=### )/);
  for (const f of r.files) {
    const block = blocks.find((b) => b.startsWith(`### ${f.path} (`));
    expect(block, f.path).toBeDefined();
    const body = block!.split('\n').slice(1);
    const lines = files.get(f.path)!.split('\n');
    let k = 0;
    for (const out of body) {
      if (k < f.keptLines.length) {
        const want = lines[f.keptLines[k] - 1];
        const got = numbered ? out.replace(/^ *(\d+)\t/, (_m, n) => (Number(n) === f.keptLines[k] ? '' : '<wrong number>')) : out;
        if (got === want) {
          k++;
          continue;
        }
        // Otherwise a marker: never a line of code.
        expect(out.trim().startsWith('#'), `${f.path}: ${JSON.stringify(out)}`).toBe(true);
      }
    }
    expect(k, f.path).toBe(f.keptLines.length);
  }
}

describe('packContext', { timeout: 60_000 }, () => {
  it('puts the file the task is about first, excludes tests, and keeps its lines verbatim', async () => {
    const files = repo();
    const r = await packContext({
      files,
      task: 'transfer() raises InsufficientFunds but the target was already credited; withdraw should run first',
      tokens: 600,
    });
    expect(r.files[0].path).toBe('ledger/transfer.py');
    expect(r.files.map((f) => f.path)).not.toContain('tests/test_transfer.py');
    expect(r.stats.excludedFiles).toBe(1);
    expect(r.files[0].keptLines).toEqual(expect.arrayContaining([4, 6, 7]));
    expect(r.text.startsWith('### ledger/transfer.py (')).toBe(true);
    expect(counter.count(r.text)).toBe(r.tokens);
    expect(r.tokens).toBeLessThanOrEqual(600);
    expectByteIdentical(r, files);
  });

  it('never exceeds the budget, headers and map included, at any budget, with and without line numbers', async () => {
    const files = repo();
    const index = buildPackIndex(files);
    for (const lineNumbers of [false, true]) {
      for (const tokens of [1, 5, 20, 40, 80, 150, 300, 700, 1500, 3000, 20000]) {
        const r = await packContext({ index, task: 'retry_after with a negative header value; the rate limiter window', tokens, lineNumbers });
        expect(counter.count(r.text), `${tokens} ${lineNumbers}`).toBeLessThanOrEqual(tokens);
        expect(r.tokens).toBe(counter.count(r.text));
        expectByteIdentical(r, files, lineNumbers);
        // No gutter without a number or a marker (the final newline of a pruned text is not a line).
        if (lineNumbers) expect(r.text, `${tokens}`).not.toMatch(/^ *\t\r?$/m);
      }
    }
  });

  it('a large budget takes whole files, then the map holds the next files and used definitions', async () => {
    const files = repo();
    const r = await packContext({ files, task: 'transfer withdraw deposit InsufficientFunds', tokens: 2200 });
    const transfer = r.files.find((f) => f.path === 'ledger/transfer.py')!;
    expect(transfer).toBeDefined();
    expect(r.tokens).toBeLessThanOrEqual(2200);
    if (!transfer.whole) expect(transfer.elided.length).toBeGreaterThan(0);
    const big = await packContext({ files, task: 'transfer withdraw deposit', tokens: 100_000 });
    expect(big.files.every((f) => f.whole)).toBe(true);
    expect(big.files.map((f) => f.path).sort()).toEqual(['ledger/accounts.py', 'ledger/crlf.py', 'ledger/limiter.py', 'ledger/transfer.py']);
    // Whole files are their exact text (less the final newline), under a header.
    expect(big.text).toContain(`### ledger/crlf.py (whole, 5 lines)\n${files.get('ledger/crlf.py')!.slice(0, -1)}`);
  });

  it('the map lists definitions that kept lines use, from imported files, with their line numbers', async () => {
    const files = repo();
    const r = await packContext({ files, task: 'transfer(): the source is debited after the target; move amount', tokens: 420, candidates: 1 });
    expect(r.files.map((f) => f.path)).toEqual(['ledger/transfer.py']);
    const used = r.map.filter((m) => m.why === 'used');
    expect(used.length).toBeGreaterThan(0);
    const accounts = files.get('ledger/accounts.py')!.split('\n');
    for (const m of used) {
      expect(m.path).toBe('ledger/accounts.py');
      expect(accounts[m.line - 1].trim()).toBe(m.signature);
      expect(['InsufficientFunds', 'Account', 'deposit', 'withdraw'].some((n) => m.signature.includes(n))).toBe(true);
      expect(r.text).toContain(`${m.path}:${m.line}: ${m.signature}\n`.trimEnd());
    }
  });

  it('--line-numbers style gutters carry the original numbers; CRLF, tabs and non-ASCII survive', async () => {
    const files = repo();
    const r = await packContext({ files, task: 'crlf_helper café Withdrawal', tokens: 200, lineNumbers: true, candidates: 1 });
    expect(r.files[0].path).toBe('ledger/crlf.py');
    expect(r.text).toContain('1\tdef crlf_helper():\r\n2\t\treturn "tab\tand café"\r');
    expectByteIdentical(r, files, true);
  });

  it('reuses an index: the same result, no index time', async () => {
    const files = repo();
    const index = buildPackIndex(files);
    const a = await packContext({ index, task: 'rate limiter retry_after', tokens: 500 });
    const b = await packContext({ files, task: 'rate limiter retry_after', tokens: 500 });
    expect(a.text).toBe(b.text);
    expect(a.stats.indexMs).toBe(0);
  });

  it('bad input: typed errors or a defined degradation', async () => {
    const files = repo();
    await expect(packContext({ files, task: 'x', tokens: 0 })).rejects.toMatchObject({ code: 'INVALID_BUDGET' });
    await expect(packContext({ files, task: 'x', tokens: Number.NaN })).rejects.toMatchObject({ code: 'INVALID_BUDGET' });
    await expect(packContext({ files, task: 3 as unknown as string, tokens: 10 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(packContext({ task: 'x', tokens: 10 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(packContext({ files: new Map([['a.py', 5 as unknown as string]]), task: 'x', tokens: 10 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    const none = await packContext({ files: { 'tests/test_a.py': 'def test_a(): pass\n', 'b.bin': 'a\0b' }, task: 'a', tokens: 100 });
    expect(none.text).toBe('');
    expect(none.stats.degraded).toEqual([{ code: 'EMPTY_POOL', message: 'no files in the pool (tests and binary files are left out)' }]);
    const empty = await packContext({ files, task: '', tokens: 300 });
    expect(empty.tokens).toBeLessThanOrEqual(300);
    expect(empty.stats.degraded).toEqual([{ code: 'EMPTY_TASK', message: 'empty task: files ranked by path, outlines kept' }]);
    const ac = new AbortController();
    ac.abort();
    await expect(packContext({ files, task: 'transfer', tokens: 300, signal: ac.signal })).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('definitionsOf reads Python and TypeScript definitions', () => {
    expect(definitionsOf('a.py', ['class A(B):', '    async def run(self, x):', 'x = 1']).map((d) => [d.name, d.line, d.indent])).toEqual([
      ['A', 1, 0],
      ['run', 2, 4],
    ]);
    expect(
      definitionsOf('a.ts', [
        'export async function go(a: number) {',
        'export const LIMIT = 3;',
        'class C {',
        '  private step(x: T): void {',
        '  if (x) {',
        '}',
      ]).map((d) => d.name),
    ).toEqual(['go', 'LIMIT', 'C', 'step']);
  });
});

describe('pack benchmark pieces', () => {
  it('whole files in order until the budget, the last one cut to the lines that fit', () => {
    const files = [
      { path: 'a.py', text: 'a = 1\nb = 2\n' },
      { path: 'b.py', text: Array.from({ length: 50 }, (_, i) => `x${i} = ${i}`).join('\n') },
    ];
    const all = wholeFilesUntil(files, 10_000, counter);
    expect([...all.get('b.py')!].length).toBe(50);
    const cut = wholeFilesUntil(files, 40, counter);
    const kept = [...cut.get('b.py')!];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(50);
    expect(kept).toEqual(kept.map((_, i) => i + 1));
    expect(
      packRecall(
        cut,
        new Map([
          ['a.py', [1, 2]],
          ['b.py', [1, 50]],
        ]),
      ),
    ).toBe(0.75);
    expect(packRecall(new Map(), new Map())).toBe(1);
  });

  it('reference ranking: BM25 with path terms weighted', () => {
    const files = new Map([
      ['pkg/limiter.py', 'x = 1\n'],
      ['pkg/other.py', 'limiter = None\n'],
    ]);
    expect(bm25PathOrder(files, 'limiter')[0]).toBe('pkg/limiter.py');
  });

  it('gold lines per instance from cases', () => {
    const g = goldFromCases('{"instance_id":"i","path":"a.py","gold_lines":[3,4]}\n\n{"instance_id":"i","path":"b.py","gold_lines":[1]}\n');
    expect([...g.get('i')!]).toEqual([
      ['a.py', [3, 4]],
      ['b.py', [1]],
    ]);
  });
});

/** A 1,000-file repository: packages of modules with classes, functions and imports between them. */
function bigRepo(root: string | null): Map<string, string> {
  const files = new Map<string, string>();
  const words = [
    'alpha',
    'bravo',
    'cache',
    'delta',
    'event',
    'frame',
    'graph',
    'house',
    'index',
    'jolt',
    'kernel',
    'layer',
    'model',
    'node',
    'order',
    'parse',
    'queue',
    'route',
    'store',
    'token',
  ];
  for (let i = 0; i < 1000; i++) {
    const pkg = `pkg${i % 25}`;
    const name = `${words[i % 20]}_${words[(i * 7) % 20]}_${i}`;
    const lines = [
      `"""Module ${name}."""`,
      `from ${`pkg${(i + 1) % 25}`}.${words[(i + 1) % 20]}_${words[((i + 1) * 7) % 20]}_${i + 1} import helper_${i + 1}`,
      'import os',
      '',
    ];
    for (let c = 0; c < 4; c++) {
      lines.push('', `class ${words[(i + c) % 20][0].toUpperCase()}${words[(i + c) % 20].slice(1)}Handler${i}_${c}:`);
      for (let m = 0; m < 6; m++) {
        lines.push(`    def ${words[(i + m) % 20]}_${words[(c + m) % 20]}_${m}(self, ${words[m]}, ${words[(m + 3) % 20]}=None):`);
        lines.push(`        value = helper_${i + 1}(${words[m]}) + len(os.sep)`);
        lines.push(`        if ${words[(m + 3) % 20]} is not None and value > ${m * 3 + c}:`);
        lines.push(`            return self.${words[(i + m + 1) % 20]}_${words[(c + m + 1) % 20]}_${(m + 1) % 6}(value, ${words[(m + 3) % 20]})`);
        lines.push(`        return value * ${(i % 7) + 1}`);
        lines.push('');
      }
    }
    lines.push(`def helper_${i}(x):`, `    return x + ${i}`, '');
    const path = `${pkg}/${name}.py`;
    files.set(path, lines.join('\n'));
  }
  if (root) {
    for (const [p, t] of files) {
      mkdirSync(join(root, p.split('/')[0]), { recursive: true });
      writeFileSync(join(root, p), t);
    }
  }
  return files;
}

describe('speed', () => {
  it('a 1,000-file repository in ≤ 5 s, reading from disk and building the index included; a next task on the index ≤ 1 s', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ctxprune-pack-'));
    bigRepo(root);
    await loadDefaultTokenCounter();
    const t0 = performance.now();
    const first = await packDirectory({ root, task: 'kernel_layer handler returns the wrong value when token is None (helper_417)', tokens: 8000 });
    const firstMs = performance.now() - t0;
    expect(first.stats.poolFiles).toBe(1000);
    expect(first.tokens).toBeLessThanOrEqual(8000);
    // The next tasks reuse the index (the directory helper's cache, or the index object itself).
    const { index, reused } = await loadPackIndex(root);
    expect(reused).toBe(true);
    const ms: number[] = [];
    for (const task of [
      'route queue order: parse_store_3 ignores the frame argument',
      'cache eviction in StoreHandler412_2 when delta is None',
      'graph_index returns value * 3 instead of helper_88',
    ]) {
      const t1 = performance.now();
      const r = await packContext({ index, task, tokens: 8000 });
      ms.push(performance.now() - t1);
      expect(r.tokens).toBeLessThanOrEqual(8000);
      expect(r.stats.indexMs).toBe(0);
    }
    ms.sort((a, b) => a - b);
    console.log(
      `pack of 1,000 files (machine shared): first ${firstMs.toFixed(0)} ms (read + index ${first.stats.indexMs.toFixed(0)}, rank ${first.stats.rankMs.toFixed(0)}, prune ${first.stats.pruneMs.toFixed(0)} in ${first.stats.prunes} calls); next tasks ${ms.map((x) => x.toFixed(0)).join(', ')} ms`,
    );
    expect(firstMs).toBeLessThan(5000);
    expect(ms[1]).toBeLessThan(1000);
  }, 60_000);
});

describe('ctxprune pack', { timeout: 60_000 }, () => {
  const io = () => {
    const out: string[] = [],
      err: string[] = [];
    return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
  };
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctxprune-pack-cli-'));
    for (const [p, t] of repo()) {
      mkdirSync(join(dir, p.split('/').slice(0, -1).join('/')), { recursive: true });
      writeFileSync(join(dir, p), t);
    }
    writeFileSync(join(dir, 'task.txt'), 'transfer credits the target before the withdraw check');
  });

  it('prints the pack on stdout and a summary on stderr; --json has per-file keptLines', async () => {
    const c = io();
    expect(await main(['pack', '--repo', dir, '--task-file', join(dir, 'task.txt'), '--tokens', '500', '--line-numbers'], c.io)).toBe(0);
    expect(c.out[0]).toMatch(/^### ledger\/transfer\.py \(/);
    expect(c.out[0]).toMatch(/\n {2}4\tdef transfer\(source: Account, target: Account, amount\):/);
    expect(counter.count(c.out[0])).toBeLessThanOrEqual(500);
    expect(c.err[0]).toMatch(/^ctxprune pack: \d+\/500 tokens \(o200k_base\)/);
    const j = io();
    expect(await main(['pack', '--repo', dir, '--task', 'transfer withdraw', '--tokens', '500', '--json'], j.io)).toBe(0);
    const r = JSON.parse(j.out[0]) as PackContextResult;
    expect(r.files[0].path).toBe('ledger/transfer.py');
    expect(Array.isArray(r.files[0].keptLines)).toBe(true);
    expect(r.tokens).toBeLessThanOrEqual(500);
  });

  it('bad arguments are typed errors (exit 2)', async () => {
    for (const argv of [
      ['pack', '--task', 'x', '--tokens', '10'],
      ['pack', '--repo', dir, '--tokens', '10'],
      ['pack', '--repo', dir, '--task', 'x'],
      ['pack', '--repo', dir, '--task', 'x', '--tokens', '0'],
      ['pack', '--repo', join(dir, 'nope'), '--task', 'x', '--tokens', '10'],
    ]) {
      const c = io();
      expect(await main(argv, c.io), argv.join(' ')).toBe(2);
      expect(c.err.join('\n')).toMatch(/\[(INVALID_OPTION|INVALID_BUDGET)\]/);
    }
  });
});
