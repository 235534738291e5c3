import { expect } from '@playwright/test';
import { openPlayground, originalEditor, shot, test } from './helpers';

const LAYERS = ['semantic', 'dependency', 'gate', 'keep'] as const;

test('each heatmap layer renders on the original side, with a legend and hovers', async ({ page }, info) => {
  await openPlayground(page);
  const orig = originalEditor(page);

  for (const layer of LAYERS) {
    await page.locator(`label:has([data-testid="layer-${layer}"])`).click();
    await expect(page.getByTestId(`layer-${layer}`)).toBeChecked();
    await expect.poll(() => orig.locator(`[class*="hm-${layer}-"]`).count()).toBeGreaterThan(5);
    // Other layers' classes are gone.
    for (const other of LAYERS.filter((l) => l !== layer)) {
      expect(await orig.locator(`[class*="hm-${other}-"]`).count()).toBe(0);
    }
    if (layer === 'keep') {
      // Kept and pruned lines differ in their keep marginal: the legend spans the file's range.
      // (Which buckets the lines on screen fall in depends on the model, so the range is checked.)
      const nums = (await page.getByTestId('legend').locator('.num').allTextContents()).map(Number);
      expect(nums.length, 'keep range shown').toBe(2);
      expect(nums[1] - nums[0], 'keep range').toBeGreaterThan(0.1);
    }
    await expect(page.getByTestId('legend')).toBeVisible();
    await shot(page, info, layer);
  }

  // Kept lines carry a reason marker; pruned lines are dimmed.
  const kept = orig.locator('.keep-mark:not(.keep-none)');
  await expect.poll(() => kept.count()).toBeGreaterThan(0);
  expect(await orig.locator('.pruned-text').count()).toBeGreaterThan(0);

  // The plain diff view turns the heatmap off.
  await page.locator('label:has([data-testid="layer-off"])').click();
  await expect.poll(() => orig.locator('[class*="hm-"]').count()).toBe(0);

  // Hovering a kept line explains it, with its scores.
  await page.locator('label:has([data-testid="layer-keep"])').click();
  const marker = kept.first();
  const box = await marker.boundingBox();
  expect(box).not.toBeNull();
  const hover = page.locator('.monaco-hover:visible');
  // Monaco shows a hover after the mouse rests on a line; on a busy machine one move can be
  // missed, so move onto the line again until the hover shows.
  await expect(async () => {
    await page.mouse.move(box!.x + 60, box!.y + box!.height / 2);
    await page.mouse.move(box!.x + 90, box!.y + box!.height / 2, { steps: 4 });
    await expect(hover).toContainText(/Line \d+ — kept/, { timeout: 4_000 });
  }).toPass({ timeout: 45_000 });
  await expect(hover).toContainText('semantic');
  await expect(hover).toContainText('dependency');
  await shot(page, info);
});
