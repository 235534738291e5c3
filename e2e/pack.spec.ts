import { expect, type Page } from '@playwright/test';
import { test } from './helpers';

/** The "Repository pack" tab (#19): packContext over the ledger sample in a worker, a budget slider. */
const view = (page: Page) => page.getByTestId('pack-view');
const seq = async (page: Page) => Number((await view(page).getAttribute('data-result-seq')) ?? 0);
async function next(page: Page, prev: number): Promise<void> {
  await expect.poll(() => seq(page), { timeout: 60_000 }).toBeGreaterThan(prev);
  await expect(view(page)).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
}
const tokensOf = async (page: Page) => {
  const m = /^(\d+) \/ (\d+) tokens/.exec(await page.getByTestId('pack-summary').innerText());
  return m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
};

test('packs the sample repository for its task within the budget; the slider changes the pack', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?tab=pack');
  await expect(page.getByRole('tab', { name: 'Repository pack' })).toHaveAttribute('aria-selected', 'true');
  await next(page, 0);
  const files = page.getByTestId('pack-file');
  await expect(files.first()).toHaveAttribute('data-path', 'ledger/invoice.py');
  const text = await page.getByTestId('pack-text').innerText();
  expect(text.startsWith('### ledger/invoice.py (')).toBe(true);
  expect(text).not.toContain('tests/test_invoice.py');
  // Line numbers: a gutter number then a tab before kept lines.
  expect(text).toMatch(/\n +\d+\t/);
  const [used, budget] = await tokensOf(page);
  expect(budget).toBe(1200);
  expect(used).toBeLessThanOrEqual(1200);

  // Down to the minimum: fewer tokens, still within the budget.
  const before = await seq(page);
  await page.getByTestId('pack-budget').fill('100');
  await next(page, before);
  const [small, b2] = await tokensOf(page);
  expect(b2).toBe(100);
  expect(small).toBeLessThanOrEqual(100);
  // The link reproduces the tab.
  await expect.poll(() => new URL(page.url()).searchParams.get('budget')).toBe('100');
  expect(new URL(page.url()).searchParams.get('tab')).toBe('pack');
  expect(errors).toEqual([]);
});
