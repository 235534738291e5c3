/**
 * First-result time of the playground, as a new user meets it: cold (a fresh browser profile:
 * nothing cached, no service worker) and after a reload (assets cached), for the default engine
 * (Auto: the neural scorer for the default Python sample), with the bytes downloaded. Auto's first
 * result comes from the model on the JavaScript executor, onnxruntime's WASM loading behind it;
 * later results run on WASM and keep the same lines (asserted, with the time WASM took to take over).
 * The times are recorded (test annotations and e2e/screenshots/coldstart.json), never asserted:
 * they depend on the machine's load. What is asserted: a result arrives, the WASM path does not
 * download onnxruntime's WebGPU build, and the reload downloads none of the large assets again.
 */
import { expect, type BrowserContext, type Page, type Request } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { keptLines, nextResult, resultSeq, test } from './helpers';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Transfer {
  url: string;
  bytes: number;
  fromServiceWorker: boolean;
}

/** Every finished request of the context (page and its workers), with the body bytes it transferred. */
function recordTransfers(context: BrowserContext): Transfer[] {
  const out: Transfer[] = [];
  context.on('requestfinished', (r: Request) => {
    void (async () => {
      const res = await r.response().catch(() => null);
      const sizes = await r.sizes().catch(() => null);
      out.push({ url: r.url(), bytes: sizes ? sizes.responseBodySize : 0, fromServiceWorker: res?.fromServiceWorker() ?? false });
    })();
  });
  return out;
}

/**
 * ms from the document's navigation start to the first pruned result on screen: delivered (the
 * view's state) and its text visible, in the plain-text pane shown until Monaco is in (LightDiff)
 * or in Monaco's pruned side.
 */
async function firstResultMs(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => {
      const app = document.querySelector<HTMLElement>('.app');
      if (!app || Number(app.dataset.resultSeq ?? '0') < 1 || app.dataset.state !== 'done') return null;
      const pruned = app.querySelector<HTMLElement>('[data-testid="pruned-light"], .monaco-diff-editor .editor.modified .view-lines');
      if (!pruned || !pruned.checkVisibility() || pruned.innerText.trim() === '') return null;
      return performance.now();
    },
    null,
    { polling: 'raf', timeout: 90_000 },
  );
  return Math.round((await handle.jsonValue()) as number);
}

const mb = (b: number) => Math.round((b / 1e6) * 10) / 10;

test('first result: cold and after a reload (times recorded, not asserted)', async ({ browser }, info) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const transfers = recordTransfers(context);
  const page = await context.newPage();

  await page.goto('/');
  const coldMs = await firstResultMs(page);
  const coldTime = await page.getByTestId('timing').innerText();
  await expect(page.getByTestId('engine-ran')).toHaveText(/^neural · js$/);
  const jsKept = await keptLines(page);
  // Re-run until a result comes from onnxruntime (it loads after the first result), then compare.
  const ratio = page.getByTestId('ratio');
  const start = await ratio.inputValue();
  let wasmMs = -1;
  for (let i = 0; i < 30 && wasmMs < 0; i++) {
    for (const r of [String(Number(start) + 1), start]) {
      const seq = await resultSeq(page);
      await ratio.fill(r);
      await nextResult(page, seq);
    }
    if ((await page.getByTestId('engine-ran').innerText()) === 'neural · wasm') wasmMs = Math.round(await page.evaluate(() => performance.now()));
    else await page.waitForTimeout(500);
  }
  expect(wasmMs).toBeGreaterThan(0);
  expect(await keptLines(page)).toBe(jsKept);
  await page.waitForTimeout(1500); // let the service worker take over and late requests finish
  const cold = [...transfers];
  const coldBytes = cold.filter((t) => !t.fromServiceWorker).reduce((a, t) => a + t.bytes, 0);
  transfers.length = 0;

  await page.reload();
  const reloadMs = await firstResultMs(page);
  const reloadTime = await page.getByTestId('timing').innerText();
  // The diff editor (Monaco) loads after the first result is shown: when it is in.
  const editorIn = await page.waitForFunction(
    () => (document.querySelector<HTMLElement>('.monaco-diff-editor')?.checkVisibility() ? performance.now() : null),
    null,
    {
      polling: 'raf',
      timeout: 60_000,
    },
  );
  const reloadEditorMs = Math.round((await editorIn.jsonValue()) as number);
  await page.waitForTimeout(500);
  const network = transfers.filter((t) => !t.fromServiceWorker);
  const reloadBytes = network.reduce((a, t) => a + t.bytes, 0);

  const big = (ts: Transfer[]) =>
    ts.filter((t) => t.bytes > 1e6).map((t) => `${t.url.split('/').pop()} ${mb(t.bytes)} MB${t.fromServiceWorker ? ' (sw)' : ''}`);
  const report = {
    coldMs,
    wasmTakesOverMs: wasmMs,
    reloadMs,
    reloadEditorMs,
    coldDownloadMB: mb(coldBytes),
    reloadDownloadMB: mb(reloadBytes),
    coldTime,
    reloadTime,
    coldLarge: big(cold),
    reloadLargeFromNetwork: big(network),
  };
  info.annotations.push({ type: 'coldstart', description: JSON.stringify(report) });
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'coldstart.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(`coldstart ${JSON.stringify(report)}`);

  // The WASM path never fetches onnxruntime's WebGPU (JSEP) build.
  expect(cold.filter((t) => /\.jsep[.-]/.test(t.url)).map((t) => t.url)).toEqual([]);
  // A reload downloads no large asset again.
  expect(big(network)).toEqual([]);
  await context.close();
});
