/**
 * The package embeds: `npm pack` packages/core, install the tarball into a scratch Vite app written
 * here (no Vite config, no asset configuration), `vite build`, `vite preview`, and prune in
 * chromium — on the page (lexical and the bundled neural model), in the bundled worker, and after
 * one configure() call that points the assets elsewhere.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { test } from '../helpers';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const core = join(repo, 'packages/core');
const viteBin = join(repo, 'node_modules/vite/bin/vite.js');
const PORT = 4273;
const BASE = `http://localhost:${PORT}`;

let dir = '';
let preview: ChildProcess | null = null;

const run = (cmd: string, args: string[], cwd: string, timeout = 300_000) =>
  execFileSync(cmd, args, { cwd, stdio: 'pipe', timeout, env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } }).toString();

const MAIN_JS = `import { configure, createPruner, prune, resolveScorer } from '@ctxprune/core';

const SOURCE = ${JSON.stringify(
  [
    'import time',
    '',
    '',
    'class Limiter:',
    '    def __init__(self, rate):',
    '        self.rate = rate',
    '        self.updated = time.monotonic()',
    '',
    '    def describe(self):',
    '        return f"Limiter({self.rate})"',
    '',
    '    def log(self, logger):',
    '        logger.info("rate=%s", self.rate)',
    '        logger.info("updated=%s", self.updated)',
    '',
    '',
    'def parse_retry_after(value):',
    '    """Seconds to wait from a Retry-After header."""',
    '    try:',
    '        seconds = float(value)',
    '    except ValueError:',
    '        seconds = 0',
    '    return max(0, seconds)',
    '',
    '',
    'def format_rate(rate):',
    '    return f"{rate:.2f}/s"',
    '',
  ].join('\n'),
)};
const GO = 'package main\\n\\nimport "fmt"\\n\\nfunc retryAfter(v string) int {\\n\\treturn 0\\n}\\n\\nfunc main() {\\n\\tfmt.Println(retryAfter("1"))\\n}\\n';
const query = 'how is the Retry-After header parsed?';
const pick = (r) => ({ text: r.text, keptLines: r.keptLines, stats: { scorer: r.stats.scorer, backend: r.stats.backend, language: r.stats.language, syntax: r.stats.syntax, repair: r.stats.repair, degraded: r.stats.degraded, totalLines: r.stats.totalLines } });

window.ctxprune = {
  async lexical() { return pick(await prune(SOURCE, { query, ratio: 2, fileName: 'limiter.py' })); },
  async neural() { return pick(await prune(SOURCE, { query, ratio: 2, fileName: 'limiter.py', scorer: await resolveScorer('neural') })); },
  async worker() {
    const client = createPruner();
    try {
      const r = await client.prune(SOURCE, { query, ratio: 2, fileName: 'limiter.py', engine: 'wasm' });
      return { ...pick(r), engine: r.engine };
    } finally { client.dispose(); }
  },
  async rebased(base) {
    configure({ assets: { assetBase: base } });
    return pick(await prune(GO, { query: 'retryAfter', ratio: 1.5, fileName: 'main.go' }));
  },
};
document.getElementById('out').textContent = 'ready';
`;

test.describe('embedding the packed package in a Vite app', () => {
  test.beforeAll(async () => {
    test.setTimeout(600_000);
    if (!existsSync(join(core, 'dist/integrations/browser.js')) || !existsSync(join(core, 'dist/assets/models/ctxprune-lamr.onnx'))) {
      run('npm', ['run', 'build', '-w', '@ctxprune/core'], repo);
    }
    dir = mkdtempSync(join(tmpdir(), 'ctxprune-embed-'));
    run('npm', ['pack', core, '--ignore-scripts', '--pack-destination', dir], repo);
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    expect(tgz).toBeTruthy();
    const app = join(dir, 'app');
    cpSync(join(repo, 'e2e/embed/app'), app, { recursive: true });
    writeFileSync(join(app, 'main.js'), MAIN_JS);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify(
        {
          name: 'ctxprune-embed-scratch',
          private: true,
          type: 'module',
          dependencies: { '@ctxprune/core': `file:../${tgz}` },
        },
        null,
        2,
      ),
    );
    // From the local npm cache when it has everything, else the registry.
    try {
      run('npm', ['install', '--offline', '--ignore-scripts'], app);
    } catch {
      run('npm', ['install', '--prefer-offline', '--ignore-scripts'], app);
    }
    run(process.execPath, [viteBin, 'build'], app);
    // A second copy of the package's assets at another URL, for the one-call re-pointing.
    cpSync(join(app, 'node_modules/@ctxprune/core/dist/assets'), join(app, 'dist/elsewhere'), { recursive: true });
    preview = spawn(process.execPath, [viteBin, 'preview', '--port', String(PORT), '--strictPort'], { cwd: app, stdio: 'ignore' });
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(BASE)).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 150) throw new Error('vite preview did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  test.afterAll(() => {
    preview?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('prunes a file on the page, in the worker, and with assets re-pointed in one call', async ({ page }) => {
    test.setTimeout(180_000);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(BASE);
    await expect(page.locator('#out')).toHaveText('ready');

    type Out = {
      text: string;
      keptLines: number[];
      stats: { scorer: string; backend: string; language: string; syntax: string; repair: string; totalLines: number };
      engine?: { scorer: string; note: string | null };
    };
    const lexical = await page.evaluate(() => (window as unknown as { ctxprune: { lexical(): Promise<Out> } }).ctxprune.lexical());
    expect(lexical.stats.language).toBe('python');
    expect(lexical.stats.syntax).toBe('tree-sitter');
    expect(lexical.stats.scorer).toMatch(/lexical/);
    expect(lexical.text).toContain('def parse_retry_after(value):');
    expect(lexical.keptLines.length).toBeLessThan(lexical.stats.totalLines);
    expect(requests.some((p) => /\/assets\/tree-sitter-python-[\w-]+\.wasm$/.test(p))).toBe(true);
    expect(requests.some((p) => /\/assets\/web-tree-sitter-[\w-]+\.wasm$/.test(p))).toBe(true);

    // The default model, found without configuration, on onnxruntime-web's WASM backend.
    const neural = await page.evaluate(() => (window as unknown as { ctxprune: { neural(): Promise<Out> } }).ctxprune.neural());
    expect(neural.stats.scorer).toMatch(/neural/);
    expect(neural.stats.syntax).toBe('tree-sitter');
    expect(neural.keptLines.length).toBeGreaterThan(0);
    expect(requests.some((p) => /\/assets\/ctxprune-lamr-[\w-]+\.onnx$/.test(p))).toBe(true);

    // The worker shipped with the package, bundled by Vite.
    const worker = await page.evaluate(() => (window as unknown as { ctxprune: { worker(): Promise<Out> } }).ctxprune.worker());
    expect(worker.stats.syntax).toBe('tree-sitter');
    expect(worker.engine?.scorer).toMatch(/neural/);
    expect(worker.text).toContain('parse_retry_after');
    expect(requests.some((p) => /\/assets\/prune\.worker-[\w-]+\.js$/.test(p))).toBe(true);

    // One configure() call points every asset at another base.
    const rebased = await page.evaluate(() => (window as unknown as { ctxprune: { rebased(b: string): Promise<Out> } }).ctxprune.rebased('/elsewhere/'));
    expect(rebased.stats.language).toBe('go');
    expect(rebased.stats.syntax).toBe('tree-sitter');
    expect(requests).toContain('/elsewhere/grammars/tree-sitter-go.wasm');
    expect(errors).toEqual([]);
  });
});
