/**
 * Moving the compaction tab's budget slider, as a user drags it: the worker keeps the sample
 * transcript's cuts across requests (CompactOptions.preparations), and a change of the budget alone
 * waits 30 ms, not the 250 ms meant for typing the goal. Each move's time, from the slider's input
 * event to the new result in the page, is recorded (test annotation and
 * e2e/screenshots/compaction-slider.json), never asserted: it depends on the machine's load. What
 * is asserted: back at the first budget, the messages kept, pruned and evicted are the first
 * result's.
 */
import { expect, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTab, tabView, test } from './helpers';

/** Sets the slider to `budget` as a drag does (an input event) and returns the ms until its result is in the page. */
async function moveAndTime(page: Page, budget: number): Promise<number> {
  return page.evaluate(
    (b) =>
      new Promise<number>((resolve, reject) => {
        const view = document.querySelector<HTMLElement>('[data-testid="compaction-view"]')!;
        const slider = document.querySelector<HTMLInputElement>('[data-testid="compaction-budget"]')!;
        const seq = Number(view.dataset.resultSeq ?? '0');
        const t0 = performance.now();
        // React tracks the input's value: set it through the prototype's setter, as a drag does.
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(slider, String(b));
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        const deadline = t0 + 30_000;
        const poll = () => {
          if (Number(view.dataset.resultSeq ?? '0') > seq && view.dataset.state === 'done') return resolve(performance.now() - t0);
          if (performance.now() > deadline) return reject(new Error(`no result for budget ${b}`));
          requestAnimationFrame(poll);
        };
        requestAnimationFrame(poll);
      }),
    budget,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const outcome = async (page: Page) => {
  const v = tabView(page, 'compaction');
  return { kept: await v.getAttribute('data-kept'), pruned: await v.getAttribute('data-pruned'), evicted: await v.getAttribute('data-evicted') };
};

test('the compaction budget slider: each move answered from the kept cuts (times recorded, not asserted)', async ({ page }, info) => {
  test.setTimeout(180_000);
  await openTab(page, 'compaction');
  await expect(page.getByTestId('compaction-budget-value')).toHaveText('1500 tok');
  const first = await outcome(page);

  // Auto cuts on the JavaScript executor until onnxruntime's WASM has loaded (new preparations,
  // another scorer): move until the cuts are WASM's, then back to 1,500 (a move needs a new value).
  for (let i = 0; i < 40 && (await page.getByTestId('cut-by').getAttribute('data-backend')) !== 'wasm'; i++) {
    await moveAndTime(page, i % 2 ? 1500 : 1400);
    await page.waitForTimeout(250);
  }
  await expect(page.getByTestId('cut-by')).toHaveAttribute('data-backend', 'wasm');
  await moveAndTime(page, 1450);
  await moveAndTime(page, 1500);
  const budgets = [1200, 1000, 800, 1100, 1300, 1700, 2000, 900, 1500];
  const moves: { budget: number; ms: number }[] = [];
  for (const b of budgets) {
    const ms = await moveAndTime(page, b);
    await expect(page.getByTestId('compaction-budget-value')).toHaveText(`${b} tok`);
    moves.push({ budget: b, ms: Math.round(ms) });
  }
  // Back at 1,500: the same messages kept, pruned and evicted as the first result.
  expect(await outcome(page)).toEqual(first);

  const report = { cutBy: await page.getByTestId('cut-by').innerText(), medianMs: median(moves.map((m) => m.ms)), moves };
  info.annotations.push({ type: 'compaction-slider', description: JSON.stringify(report) });
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'compaction-slider.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(`compaction slider ${JSON.stringify({ medianMs: report.medianMs, cutBy: report.cutBy })}`);
});
