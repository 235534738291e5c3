import { expect, type Page } from '@playwright/test';
import { crossOrigin, nextTabResult, nudge, openTab, recordRequests, shot, tabSeq, tabView, test } from './helpers';

/** The cards tab's panel (data-state, data-result-seq, data-selected). */
const view = (page: Page) => tabView(page, 'cards');
const seqOf = (page: Page) => tabSeq(page, 'cards');
const selected = async (page: Page) => ((await view(page).getAttribute('data-selected')) ?? '').split(',').filter(Boolean);
const nextCards = (page: Page, prev: number) => nextTabResult(page, 'cards', prev);
const openCards = (page: Page, search?: string) => openTab(page, 'cards', search);

const TASK_TEST = 'symbol:tests/test_invoice.py#test_percentage_discount_before_tax_matches_ledger';
const FAILURE = 'failure:per-line-rounding';
const TOTAL = 'symbol:ledger/invoice.py#Invoice.total';

test('the cards tab shows the sample task, its cards with their scores, and the audit', async ({ page }, info) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openCards(page);

  await expect(page.getByRole('tab', { name: 'Context cards' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Context cards' })).toBeVisible();
  await expect(page.getByLabel('Task: what the agent is about to do')).toHaveValue(/Invoice\.total is one cent off/);

  // The reference packer with 600 tokens: the failing test, the failed attempt, Invoice.total first.
  const ids = await selected(page);
  expect(ids.slice(0, 3)).toEqual([TASK_TEST, FAILURE, TOTAL]);
  // The unit cap follows the budget (one per 60 tokens): 600 tokens take up to 10 units, and the
  // units fill the budget rather than stopping at five (#21: was 5 units, 313-336 of 600 tokens).
  expect(ids.length).toBeLessThanOrEqual(10);
  expect(ids.length).toBeGreaterThan(5);

  // Each selected unit's row shows the four components, cost and score.
  const row = page.locator(`[data-testid="unit-row"][data-unit-id="${TOTAL}"]`);
  await expect(row).toHaveAttribute('data-decision', 'selected');
  const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
  expect(cells.slice(1, 7).every((c) => /^\d\.\d\d$/.test(c))).toBe(true);
  expect(Number(cells[6])).toBeGreaterThan(0.3);
  // Candidates that did not make it say why.
  await expect(page.locator('[data-testid="unit-row"][data-decision="over_budget"]').first()).toBeVisible();

  // Cards rendered as prompt text, and the audit with its rates.
  const text = await page.getByTestId('cards-text').innerText();
  expect(text).toContain('tests/test_invoice.py');
  expect(text).toMatch(/^do: (Inspect|Check|Use) /m);
  await expect(page.getByTestId('audit-verdict')).toHaveText('PASS');
  await expect(page.getByTestId('audit-rates')).toContainText('required fields 1.00');
  await expect(page.getByTestId('audit-rates')).toContainText('actionable hints 1.00');
  const tokens = (await page.getByTestId('cards-tokens').innerText()).split('/').map((s) => Number(s.trim()));
  expect(tokens[0]).toBeGreaterThan(600 * 0.9);
  expect(tokens[0]).toBeLessThanOrEqual(600);
  await shot(page, info);
  expect(errors).toEqual([]);
});

test('selector, budget and mode change the selected cards', async ({ page }, info) => {
  await openCards(page);
  const reference = await selected(page);

  // MIG: relevance − redundancy over the whole budget, no five-unit cap.
  let seq = await seqOf(page);
  await page.getByText('MIG', { exact: true }).click();
  await nextCards(page, seq);
  const mig = await selected(page);
  expect(mig).not.toEqual(reference);
  expect(mig).toEqual(expect.arrayContaining([FAILURE, TASK_TEST, TOTAL]));
  expect(mig.length).toBeGreaterThanOrEqual(5);
  await expect(page.getByTestId('audit-verdict')).toHaveText(/^(PASS|WARN|FAIL)$/);

  // A smaller budget keeps fewer of them (keyboard on the slider: 600 → 300 tokens).
  seq = await seqOf(page);
  await nudge(page, 'cards-budget', -6);
  await expect(page.getByTestId('cards-budget-value')).toHaveText('300 tok');
  await nextCards(page, seq);
  const small = await selected(page);
  expect(small.length).toBeLessThan(mig.length);
  expect(small).toContain(FAILURE);
  expect(small).not.toContain('symbol:ledger/money.py#Money.rounded');
  const used = Number((await page.getByTestId('cards-tokens').innerText()).split('/')[0]);
  expect(used).toBeLessThanOrEqual(300);

  // Raw mode renders units, not cards: the audit has nothing to check.
  seq = await seqOf(page);
  await page.getByTestId('cards-mode').selectOption('raw');
  await nextCards(page, seq);
  const raw = await selected(page);
  await expect(page.getByTestId('audit-verdict')).toHaveText('WARN');
  await expect(page.getByTestId('audit-reasons')).toContainText('no cards');
  // A raw unit's title is its own (a note's title), not its type twice ('# failure failure', #21).
  await expect(page.getByTestId('cards-text')).toContainText('# failure Per-line rounding attempt failed');
  await expect(page.getByTestId('cards-text')).not.toContainText('# failure failure');

  // The state is in the URL and comes back on reload.
  await expect.poll(() => new URL(page.url()).searchParams.get('mode')).toBe('raw');
  const url = new URL(page.url());
  expect(url.searchParams.get('tab')).toBe('cards');
  expect(url.searchParams.get('selector')).toBe('mig');
  expect(url.searchParams.get('budget')).toBe('300');
  await page.reload();
  await nextCards(page, 0);
  await expect(page.getByTestId('cards-budget-value')).toHaveText('300 tok');
  await expect(page.getByTestId('selector-mig')).toBeChecked();
  expect(await selected(page)).toEqual(raw);
  await shot(page, info);
});

test('the unit cap: empty follows the budget, a number caps the cards, and it is in the link (#21)', async ({ page }, info) => {
  await openCards(page);
  const input = page.getByTestId('cards-max-units');
  await expect(input).toHaveValue('');
  await expect(input).toHaveAttribute('placeholder', 'auto (10)');
  const uncapped = await selected(page);
  expect(uncapped.length).toBeGreaterThan(3);

  let seq = await seqOf(page);
  await input.fill('3');
  await nextCards(page, seq);
  const capped = await selected(page);
  expect(capped).toEqual(uncapped.slice(0, 3));
  await expect(page.locator('[data-testid="unit-row"][data-decision="max_units"]').first()).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('units')).toBe('3');
  await page.reload();
  await nextCards(page, 0);
  await expect(page.getByTestId('cards-max-units')).toHaveValue('3');
  expect(await selected(page)).toEqual(capped);

  // A larger budget raises the automatic cap; clearing the box goes back to it.
  seq = await seqOf(page);
  await page.getByTestId('cards-max-units').fill('');
  await nextCards(page, seq);
  expect(await selected(page)).toEqual(uncapped);
  await expect.poll(() => new URL(page.url()).searchParams.get('units')).toBeNull();
  seq = await seqOf(page);
  await nudge(page, 'cards-budget', 6);
  await expect(page.getByTestId('cards-budget-value')).toHaveText('900 tok');
  await nextCards(page, seq);
  await expect(page.getByTestId('cards-max-units')).toHaveAttribute('placeholder', 'auto (15)');
  expect((await selected(page)).length).toBeGreaterThan(uncapped.length);
  await shot(page, info);
});

test('a changed task changes the cards; typing quickly shows only the last result', async ({ page }, info) => {
  await openCards(page);
  const seq = await seqOf(page);
  const task = page.getByTestId('cards-task');
  await task.fill('');
  await task.pressSequentially('export the invoice rows to csv with a semicolon delimiter', { delay: 10 });
  await nextCards(page, seq);
  await page.waitForTimeout(600);
  await expect(view(page)).toHaveAttribute('data-state', 'done');
  const ids = await selected(page);
  expect(ids.some((id) => id.includes('ledger/export.py'))).toBe(true);
  expect(ids).not.toContain(TASK_TEST);
  await shot(page, info);
});

test('tabs are keyboard accessible and named in the URL', async ({ page }, info) => {
  await openCards(page);
  const tabs = page.getByRole('tablist', { name: 'Playground views' });
  await expect(tabs.getByRole('tab')).toHaveText(['Line pruning', 'Context cards', 'History compaction', 'Repository pack']);
  await page.getByRole('tab', { name: 'Context cards' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'History compaction' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'History compaction' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'History compaction' })).toBeVisible();
  await expect(page.getByRole('tabpanel', { name: 'Context cards' })).toBeHidden();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('compaction');
  await page.keyboard.press('Home');
  await expect(page.getByRole('tab', { name: 'Line pruning' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.monaco-diff-editor')).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBeNull();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Repository pack' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'History compaction' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Context cards' })).toHaveAttribute('aria-selected', 'true');
  // Only the selected tab is in the Tab order.
  await expect(page.getByRole('tab', { name: 'Context cards' })).toHaveAttribute('tabindex', '0');
  await expect(page.getByRole('tab', { name: 'Line pruning' })).toHaveAttribute('tabindex', '-1');
  await expect(view(page)).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('cards');
  await shot(page, info);
});

test('the cards tab makes no cross-origin request', async ({ page, context, baseURL }, info) => {
  const urls = recordRequests(page, context);
  await openCards(page);
  const seq = await seqOf(page);
  await page.getByTestId('selector-mig').check({ force: true });
  await nextCards(page, seq);
  await page.waitForTimeout(300);
  const foreign = crossOrigin(urls, baseURL!);
  expect(foreign, `cross-origin requests:\n${foreign.join('\n')}`).toEqual([]);
  // The work ran in the app's own worker, loaded from this origin.
  expect([...urls].some((u) => /workbench\.worker/.test(u))).toBe(true);
  await shot(page, info);
});
