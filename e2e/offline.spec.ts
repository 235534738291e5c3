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
