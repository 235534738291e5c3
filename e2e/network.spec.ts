import { expect, test } from '@playwright/test';
import { nextResult, openPlayground, resultSeq, shot } from './helpers';

test('no request leaves the page origin', async ({ page, context, baseURL }, info) => {
  const urls = new Set<string>();
  context.on('request', (r) => urls.add(r.url()));
  page.on('request', (r) => urls.add(r.url()));
  page.on('worker', (w) => urls.add(w.url()));

  await openPlayground(page);
  // Exercise the other grammars and the tokenizer: switch sample, language and engine.
  let seq = await resultSeq(page);
  await page.getByLabel('Sample code', { exact: true }).selectOption('typescript-sessions');
  await nextResult(page, seq);
  seq = await resultSeq(page);
  await page.getByTestId('language').selectOption('tsx');
  await nextResult(page, seq);
  seq = await resultSeq(page);
  await page.getByTestId('engine').selectOption('wasm');
  await nextResult(page, seq);
  await page.waitForTimeout(500);

  const origin = new URL(baseURL!).origin;
  const foreign = [...urls].filter((u) => {
    if (u.startsWith('data:') || u.startsWith('blob:')) return false;
    return new URL(u).origin !== origin;
  });
  expect(urls.size).toBeGreaterThan(3);
  expect(foreign, `cross-origin requests:\n${foreign.join('\n')}`).toEqual([]);
  // The grammars and tree-sitter came from this origin.
  expect([...urls].some((u) => /tree-sitter.*\.wasm/.test(u))).toBe(true);
  info.annotations.push({ type: 'requests', description: `${urls.size} requests, all same-origin` });
  await shot(page, info);
});
