import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { QUEUE_PY } from './fixtures';
import {
  keptLines,
  modifiedEditor,
  outputChars,
  nextResult,
  openPlayground,
  pasteIntoOriginal,
  resultSeq,
  shot,
  tokensAfter,
  tokensBefore,
  visibleText,
  test,
} from './helpers';

test('paste code, type a query, move the slider: the pruned side and token counts follow', async ({ page }, info) => {
  await openPlayground(page);

  // Paste our own code over the sample.
  let seq = await resultSeq(page);
  await pasteIntoOriginal(page, QUEUE_PY);
  await nextResult(page, seq);
  expect(await visibleText(page, 'original')).toContain('JobQueue');
  await expect(page.getByLabel('Sample code', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Sample code', { exact: true })).not.toContainText('fetcher.py');
  const before = await tokensBefore(page);
  expect(before).toBeGreaterThan(300);

  // A query about the retry path, at 2×.
  seq = await resultSeq(page);
  await page.getByTestId('query').fill('failed jobs are retried with exponential backoff delay');
  await nextResult(page, seq);
  seq = await resultSeq(page);
  await page.getByTestId('ratio').fill('2');
  await nextResult(page, seq);
  await expect(page.getByTestId('ratio-value')).toHaveText('2×');
  const after2 = await tokensAfter(page);
  const kept2 = await keptLines(page);
  const out2 = await outputChars(page);
  expect(after2).toBeGreaterThan(0);
  expect(after2).toBeLessThanOrEqual(Math.ceil(before / 2) + 5);
  // The retry lines the query asks about are kept.
  const src = QUEUE_PY.split('\n');
  const keptText = kept2
    .split(',')
    .map((n) => src[Number(n) - 1])
    .join('\n');
  expect(keptText).toMatch(/attempts/);
  expect(keptText).toMatch(/delay/);
  await shot(page, info, 'ratio-2');

  // No compression: everything is kept.
  seq = await resultSeq(page);
  await page.getByTestId('ratio').fill('1');
  await nextResult(page, seq);
  await expect(page.getByTestId('ratio-value')).toHaveText('1×');
  expect(await tokensAfter(page)).toBeGreaterThan(after2);
  expect(await keptLines(page)).not.toBe(kept2);
  expect(await outputChars(page)).toBeGreaterThan(out2);

  // Keyboard: jump the slider to 16×; less is kept and the pruned side shrinks.
  seq = await resultSeq(page);
  await page.getByTestId('ratio').focus();
  await page.keyboard.press('End');
  await nextResult(page, seq);
  await expect(page.getByTestId('ratio-value')).toHaveText('16×');
  expect(await tokensAfter(page)).toBeLessThan(after2);
  expect(await outputChars(page)).toBeLessThan(out2);
  expect(await tokensBefore(page)).toBe(before);

  // An absolute token budget overrides the ratio.
  seq = await resultSeq(page);
  await page.getByTestId('tokens').fill('120');
  await nextResult(page, seq);
  await expect(page.getByTestId('ratio-value')).toHaveText('budget');
  expect(await tokensAfter(page)).toBeLessThanOrEqual(120);
  await shot(page, info);
});

test('stale results never overwrite newer ones', async ({ page }, info) => {
  await openPlayground(page);
  const seq = await resultSeq(page);
  const query = page.getByTestId('query');
  // Type quickly: each keystroke supersedes the previous request.
  await query.fill('');
  await query.pressSequentially('token bucket rate refill', { delay: 15 });
  await nextResult(page, seq);
  // Wait out any trailing debounce, then check the shown result matches the final query.
  await page.waitForTimeout(600);
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'done');
  const shown = await keptLines(page);
  // Re-running the same inputs (Ctrl+Enter) yields the same kept lines: what is shown is the latest.
  const s2 = await resultSeq(page);
  await query.press('Control+Enter');
  await nextResult(page, s2);
  expect(await keptLines(page)).toBe(shown);
  const src = readFileSync(new URL('../apps/playground/src/samples/fetcher.py', import.meta.url), 'utf8').split('\n');
  const keptText = shown
    .split(',')
    .map((n) => src[Number(n) - 1])
    .join('\n');
  expect(keptText).toMatch(/TokenBucket|take|rate/);
  await shot(page, info);
});

test('a long run can be cancelled, and the next change runs again', async ({ page }, info) => {
  await openPlayground(page);
  // A large input (the fixture repeated, ~13k lines) so that the run lasts long enough to cancel.
  const big = Array.from({ length: 200 }, (_, i) => QUEUE_PY.replace(/JobQueue/g, `JobQueue${i}`)).join('\n\n');
  await pasteIntoOriginal(page, big);
  const cancel = page.getByTestId('cancel');
  await expect(cancel).toBeVisible({ timeout: 10_000 });
  await cancel.click();
  await expect(page.locator('.app')).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('stats')).toContainText(/Cancelled/);
  // The previous result no longer matches the input: marked out of date, its heatmap hidden.
  await expect(page.getByTestId('out-of-date')).toBeVisible();
  expect(await page.locator('.editor.original [class*="hm-"]').count()).toBe(0);
  await shot(page, info);

  // Any change runs again.
  const seq = await resultSeq(page);
  await page.getByTestId('query').fill('retry failed jobs');
  await nextResult(page, seq);
  expect(await tokensBefore(page)).toBeGreaterThan(50_000);
  await expect(page.getByTestId('out-of-date')).toHaveCount(0);
});

test('the marker style picker: bare `# …` by default, line ranges on request, kept in the link', async ({ page }, info) => {
  await openPlayground(page);
  const markers = (text: string) =>
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^(#|\/\/) …/.test(l));
  // The view reveals the first evidence line, which may sit in a run with no marker on screen:
  // read the pruned side from its top, where the file's head is kept or marked (scrolled again
  // on each try: a new result reveals its evidence once its diff is laid out).
  const markersFromTop = async () => {
    let found: string[] = [];
    await expect
      .poll(async () => {
        await modifiedEditor(page).locator('.view-lines').click();
        await page.keyboard.press('ControlOrMeta+Home');
        found = markers(await visibleText(page, 'modified'));
        return found.length;
      })
      .toBeGreaterThan(0);
    return found;
  };
  // The pruned side's gutter numbers the kept lines as in the original; markers get none (read
  // where the view opens, at the first evidence line: at the top, a marker faces the elided head).
  const kept = new Set((await keptLines(page)).split(',').map(Number));
  const gutter = (await modifiedEditor(page).locator('.line-numbers').allInnerTexts()).map((t) => t.trim());
  const numbered = gutter.filter((t) => t !== '').map(Number);
  expect(numbered.length).toBeGreaterThan(0);
  for (const n of numbered) expect(kept.has(n)).toBe(true);
  expect(Math.max(...numbered)).toBeGreaterThan(gutter.length);
  const bare = await markersFromTop();
  for (const m of bare) expect(m).toMatch(/^(#|\/\/) …$/);

  const seq = await resultSeq(page);
  await page.getByTestId('elision').selectOption('compact');
  await nextResult(page, seq);
  const ranged = await markersFromTop();
  for (const m of ranged) expect(m).toMatch(/^(#|\/\/) … lines? \d+(–\d+)?$/);
  await expect.poll(() => page.url()).toContain('markers=compact');
  await shot(page, info);
});
