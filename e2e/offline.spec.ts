import { expect } from '@playwright/test';
import { expectConsoleError, nextResult, openPlayground, shot, tokensAfter, test } from './helpers';

test('works offline once loaded', async ({ page, context, pageErrors }, info) => {
  await openPlayground(page);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  // Load once under the service worker, so that the page and its workers fill its cache.
  await page.reload();
  await nextResult(page, 0);
  const online = await tokensAfter(page);

  await context.setOffline(true);
  try {
    await page.reload();
    // Really offline: anything not cached fails.
    expect(
      await page.evaluate(() =>
        fetch(`./not-cached-${Date.now()}`).then(
          () => 'ok',
          () => 'failed',
        ),
      ),
    ).toBe('failed');
    // That failed fetch is the one console error this test expects.
    await expectConsoleError(pageErrors, /net::ERR_FAILED \(.*\/not-cached-\d+\)$/);
    await expect(page.locator('.monaco-diff-editor')).toBeVisible();
    await nextResult(page, 0);
    await expect(page.getByTestId('error')).toHaveCount(0);
    expect(await tokensAfter(page)).toBe(online);
    await expect(page.getByTestId('engine-ran')).toHaveText(/ · /);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await shot(page, info);
  } finally {
    await context.setOffline(false);
  }
});

test('works offline after a single visit', async ({ page, context }) => {
  // A first visit: the page and its pruning worker fetch their files before the service worker
  // controls them; once the first result is shown, the page hands their list to it to store.
  await openPlayground(page);
  const online = await tokensAfter(page);
  const stored = () =>
    page.evaluate(async () => {
      const keys = await (await caches.open('ctxprune-playground-v1')).keys();
      const names = keys.map((r) => new URL(r.url).pathname);
      return ['/', 'web-tree-sitter', 'tree-sitter-python', 'prune.worker', 'mount-'].filter(
        (n) => !names.some((p) => (n === '/' ? p === '/' : p.includes(n))),
      );
    });
  await expect.poll(stored, { message: 'files of the first visit not stored', timeout: 30_000 }).toEqual([]);

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.locator('.monaco-diff-editor')).toBeVisible();
    await nextResult(page, 0);
    await expect(page.getByTestId('error')).toHaveCount(0);
    expect(await tokensAfter(page)).toBe(online);
    await expect(page.getByTestId('engine-ran')).toHaveText(/ · /);
  } finally {
    await context.setOffline(false);
  }
});
