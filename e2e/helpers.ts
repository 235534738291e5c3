import { expect, test as base, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every spec's `test` (#21: no page error anywhere): a test fails when its page throws an uncaught
 * error or logs a console error (onnxruntime's warnings, which it sends to console.error unless
 * its log level is set, included), whatever else it checks. `pageErrors` is the list so far.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console.error: ${m.text().slice(0, 300)}${m.location().url ? ` (${m.location().url})` : ''}`);
      });
      await use(errors);
      expect(errors, 'page errors and console errors').toEqual([]);
    },
    { auto: true },
  ],
});

/** Take the console errors a test caused on purpose out of `pageErrors` (at least one must be there). */
export async function expectConsoleError(pageErrors: string[], re: RegExp): Promise<void> {
  // The console event can arrive after the failure the page saw.
  await expect.poll(() => pageErrors.some((e) => re.test(e)), { message: `a console error matching ${re}` }).toBe(true);
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !re.test(e)));
}

const SHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** One screenshot per test (plus named extras), under e2e/screenshots/ (gitignored). */
export async function shot(page: Page, info: TestInfo, name?: string): Promise<string> {
  mkdirSync(SHOT_DIR, { recursive: true });
  const slug = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  const file = join(SHOT_DIR, `${info.project.name}--${slug(info.title)}${name ? '--' + slug(name) : ''}.png`);
  await page.screenshot({ path: file });
  return file;
}

export const app = (page: Page) => page.locator('.app');

export async function resultSeq(page: Page): Promise<number> {
  return Number((await app(page).getAttribute('data-result-seq')) ?? '0');
}

/** Wait until a result (or an error) newer than `prev` is shown and nothing is running. */
export async function nextResult(page: Page, prev: number): Promise<void> {
  await expect.poll(() => resultSeq(page), { timeout: 60_000 }).toBeGreaterThan(prev);
  await expect(app(page)).toHaveAttribute('data-state', /^(done|error)$/, { timeout: 60_000 });
  // ...and the diff editor has aligned the new pruned text (its diff is computed asynchronously).
  const seq = String(await resultSeq(page));
  await expect(page.getByTestId('diff')).toHaveAttribute('data-diff-for', seq, { timeout: 30_000 });
}

/** Open the playground and wait for the first result. */
export async function openPlayground(page: Page, search = ''): Promise<void> {
  await page.goto('/' + search);
  await expect(page.locator('.monaco-diff-editor')).toBeVisible({ timeout: 60_000 });
  await nextResult(page, 0);
}

export const originalEditor = (page: Page) => page.locator('.monaco-diff-editor .editor.original');
export const modifiedEditor = (page: Page) => page.locator('.monaco-diff-editor .editor.modified');

/** Visible text of one side of the diff (Monaco renders visible lines only). */
export async function visibleText(page: Page, side: 'original' | 'modified'): Promise<string> {
  const ed = side === 'original' ? originalEditor(page) : modifiedEditor(page);
  return (await ed.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}

/**
 * Paste text into the original editor the way a user does: focus it, select all, and deliver a
 * paste event carrying the text (a synthetic ClipboardEvent, so no OS clipboard is involved).
 */
export async function pasteIntoOriginal(page: Page, text: string): Promise<void> {
  await originalEditor(page).locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.evaluate((t) => {
    const target = document.activeElement ?? document.body;
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

export const tokensAfter = async (page: Page) => Number((await page.getByTestId('tokens-after').innerText()).replace(/[^0-9]/g, ''));
export const tokensBefore = async (page: Page) => Number((await page.getByTestId('tokens-before').innerText()).replace(/[^0-9]/g, ''));
export const keptLines = async (page: Page) => (await page.getByTestId('stats').getAttribute('data-kept-lines')) ?? '';
/** Length of the pruned text now on the right-hand side. */
export const outputChars = async (page: Page) => Number((await page.getByTestId('stats').getAttribute('data-output-chars')) ?? '0');

/** A workbench tab's panel (cards, compaction): data-state, data-result-seq and its error box. */
export const tabView = (page: Page, name: 'cards' | 'compaction') => page.getByTestId(`${name}-view`);
export const tabSeq = async (page: Page, name: 'cards' | 'compaction') => Number((await tabView(page, name).getAttribute('data-result-seq')) ?? '0');

/** Wait until the tab shows a result newer than `prev` and nothing is running. */
export async function nextTabResult(page: Page, name: 'cards' | 'compaction', prev: number): Promise<void> {
  await expect.poll(() => tabSeq(page, name), { timeout: 60_000 }).toBeGreaterThan(prev);
  await expect(tabView(page, name)).toHaveAttribute('data-state', /^(done|error)$/, { timeout: 60_000 });
  await expect(page.getByTestId(`${name}-error`)).toHaveCount(0);
}

export async function openTab(page: Page, name: 'cards' | 'compaction', search = `?tab=${name}`): Promise<void> {
  await page.goto('/' + search);
  await expect(tabView(page, name)).toBeVisible({ timeout: 60_000 });
  await nextTabResult(page, name, 0);
}

/** Move a range input by `steps` (negative: down) with the keyboard, as a user would. */
export async function nudge(page: Page, testId: string, steps: number): Promise<void> {
  await page.getByTestId(testId).focus();
  for (let i = 0; i < Math.abs(steps); i++) await page.keyboard.press(steps < 0 ? 'ArrowLeft' : 'ArrowRight');
}

/** Record every URL the page, its context and its workers request (to check they stay same-origin). */
export function recordRequests(page: Page, context: BrowserContext): Set<string> {
  const urls = new Set<string>();
  context.on('request', (r) => urls.add(r.url()));
  page.on('request', (r) => urls.add(r.url()));
  page.on('worker', (w) => urls.add(w.url()));
  return urls;
}

/** The recorded URLs that left `baseURL`'s origin (data: and blob: URLs stay in the page). */
export function crossOrigin(urls: Set<string>, baseURL: string): string[] {
  const origin = new URL(baseURL).origin;
  return [...urls].filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
}
