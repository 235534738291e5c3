import { expect, test } from '@playwright/test';
import { keptLines, nextResult, openPlayground, resultSeq, shot } from './helpers';

/**
 * The WebGPU and WASM engine settings must keep the same lines. Today both fall back to the
 * lexical scorer (no model is bundled), so the lines are identical by construction and the test
 * records which backend actually ran; once the neural model lands it compares the two backends.
 */
test('WebGPU and WASM engine settings keep the same lines', async ({ page }, info) => {
  await openPlayground(page, '?sample=python-fetcher&ratio=4');
  const hasGpu = await page.evaluate(async () => {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    return !!gpu && !!(await gpu.requestAdapter().catch(() => null));
  });
  info.annotations.push({ type: 'webgpu-adapter', description: String(hasGpu) });

  const runs: Record<string, { kept: string; backend: string; scorer: string; note: string }> = {};
  for (const engine of ['webgpu', 'wasm'] as const) {
    const seq = await resultSeq(page);
    await page.getByTestId('engine').selectOption(engine);
    await nextResult(page, seq);
    const stats = page.getByTestId('stats');
    runs[engine] = {
      kept: await keptLines(page),
      backend: (await stats.getAttribute('data-backend')) ?? '',
      scorer: (await stats.getAttribute('data-scorer')) ?? '',
      note: (await page.getByTestId('notes').innerText().catch(() => '')) ?? '',
    };
    info.annotations.push({
      type: `engine:${engine}`,
      description: `scorer=${runs[engine].scorer} backend=${runs[engine].backend}`,
    });
    await shot(page, info, engine);
  }

  expect(runs.webgpu.kept.length).toBeGreaterThan(0);
  expect(runs.webgpu.kept).toBe(runs.wasm.kept);
  // What ran is shown honestly: a fallback says so.
  for (const r of Object.values(runs)) {
    if (r.scorer === 'lexical') expect(r.note).toMatch(/not available|lexical/);
  }
  await shot(page, info);
});
