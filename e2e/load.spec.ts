import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { nextResult, openPlayground, pasteIntoOriginal, resultSeq, shot, tokensAfter, tokensBefore, visibleText, test } from './helpers';

/** The visible lines (at least five non-blank ones) are lines of the sample, in the sample's order. */
function expectStretchOf(visible: string, sample: string): void {
  const source = readFileSync(new URL(`../apps/playground/src/samples/${sample}`, import.meta.url), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  const shown = visible
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  expect(shown.length).toBeGreaterThanOrEqual(5);
  let at = 0;
  for (const line of shown) {
    const i = source.indexOf(line, at);
    expect([line, i >= 0]).toEqual([line, true]);
    at = i + 1;
  }
}

test('the page loads, prunes the default sample and labels its controls', async ({ page }, info) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openPlayground(page);

  await expect(page).toHaveTitle(/ctxprune playground/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('ctxprune');
  // Every control is reachable by its accessible name.
  for (const name of ['Sample code', 'Language', 'Query: what the agent is trying to do', 'Compression ratio', 'Scorer and backend']) {
    await expect(page.getByLabel(name, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Open file…' })).toBeVisible();

  const before = await tokensBefore(page);
  const after = await tokensAfter(page);
  expect(before).toBeGreaterThan(500);
  expect(after).toBeGreaterThan(0);
  expect(after).toBeLessThan(before);
  // What ran is shown: the neural scorer when the model is bundled, else the lexical one.
  await expect(page.getByTestId('engine-ran')).toHaveText(/^(neural · (js|wasm|webgpu)|lexical.* · cpu)$/);
  await expect(page.getByTestId('language')).toContainText('Auto-detect (Python)');
  // The panes scroll to the kept evidence (#21), so the original pane shows some stretch of the sample.
  expectStretchOf(await visibleText(page, 'original'), 'fetcher.py');
  expect((await visibleText(page, 'modified')).length).toBeGreaterThan(20);
  // Cross-origin isolated (COOP/COEP from vite preview), so WASM may use threads.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await shot(page, info);
  expect(errors).toEqual([]);
});

test('the view state round-trips through the URL', async ({ page }, info) => {
  await openPlayground(page, '?sample=typescript-sessions&q=evict%20session&ratio=8&layer=semantic');
  await expect(page.getByTestId('query')).toHaveValue('evict session');
  await expect(page.getByTestId('ratio-value')).toHaveText('8×');
  await expect(page.getByTestId('layer-semantic')).toBeChecked();
  await expect(page.getByTestId('language')).toContainText('Auto-detect (TypeScript)');
  expectStretchOf(await visibleText(page, 'original'), 'sessionStore.ts');
  await page.getByTestId('query').fill('touch refreshes idle timer');
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('touch refreshes idle timer');
  expect(new URL(page.url()).searchParams.get('sample')).toBe('typescript-sessions');
  await shot(page, info);
});

test('pasting other code over a sample re-detects the language from the content', async ({ page }, info) => {
  await openPlayground(page);
  await expect(page.getByTestId('language')).toContainText('Auto-detect (Python)');
  const seq = await resultSeq(page);
  const ts = [
    "import { readFile } from 'node:fs/promises';",
    '',
    'export interface Config { name: string; retries: number }',
    '',
    'export async function loadConfig(path: string): Promise<Config> {',
    "  const raw = JSON.parse(await readFile(path, 'utf8')) as Partial<Config>;",
    "  return { name: raw.name ?? 'default', retries: raw.retries ?? 3 };",
    '}',
    '',
  ].join('\n');
  await pasteIntoOriginal(page, ts);
  await nextResult(page, seq);
  await expect(page.getByTestId('language')).toContainText('Auto-detect (TypeScript)');
  await shot(page, info);
});

test('keyboard: Tab walks the controls into and out of the editors without typing into the code', async ({ page }, info) => {
  await openPlayground(page);
  const before = await tokensBefore(page);
  const seq = await resultSeq(page);
  await page.getByTestId('query').focus();
  const path: string[] = [];
  for (let i = 0; i < 14; i++) {
    await page.keyboard.press('Tab');
    path.push(
      await page.evaluate(() => {
        const e = document.activeElement as HTMLElement | null;
        if (!e) return '';
        if (e.closest('.editor.original')) return 'editor:original';
        if (e.closest('.editor.modified')) return 'editor:modified';
        return e.getAttribute('aria-label') ?? e.textContent?.trim() ?? e.tagName;
      }),
    );
  }
  expect(path).toContain('Compression ratio');
  expect(path).toContain('Scorer and backend');
  const inEditor = path.indexOf('editor:original');
  expect(inEditor).toBeGreaterThan(0);
  // Tab leaves the editor instead of inserting a tab character.
  expect(path[inEditor + 1]).not.toBe('editor:original');
  await page.waitForTimeout(600);
  expect(await resultSeq(page)).toBe(seq);
  expect(await tokensBefore(page)).toBe(before);
  await shot(page, info);
});
