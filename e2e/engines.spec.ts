import { expect } from '@playwright/test';
import { keptLines, nextResult, openPlayground, resultSeq, shot, test } from './helpers';

/**
 * The WebGPU and WASM engine settings must keep the same lines. With the model bundled both run
 * the neural scorer (WebGPU here is SwiftShader, a software adapter: slow, but the real code
 * path); without it both fall back to the lexical scorer and say so. The backends that actually
 * ran are recorded as annotations.
 */
test('WebGPU and WASM engine settings keep the same lines', async ({ page }, info) => {
  test.setTimeout(240_000);
  await openPlayground(page, '?sample=python-fetcher&ratio=4&engine=lexical');
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
      note: (await page.getByTestId('notes').count()) ? await page.getByTestId('notes').innerText() : '',
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
    if (r.scorer.startsWith('lexical')) expect(r.note).toMatch(/not available|lexical/);
    else expect(r.scorer).toBe('neural');
  }
  expect(runs.wasm.backend).toMatch(/wasm|cpu/);
  if (runs.webgpu.scorer === 'neural') {
    // WebGPU ran on the adapter when there is one; without one the note says it fell back to WASM.
    if (hasGpu) expect(runs.webgpu.backend).toBe('webgpu');
    else expect(runs.webgpu.note).toMatch(/WebGPU unavailable/);
  }
  await shot(page, info);
});
