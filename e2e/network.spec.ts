import { expect } from '@playwright/test';
import { crossOrigin, nextResult, openPlayground, recordRequests, resultSeq, shot, test } from './helpers';

test('no request leaves the page origin', async ({ page, context, baseURL }, info) => {
  const urls = recordRequests(page, context);

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

  const foreign = crossOrigin(urls, baseURL!);
  expect(urls.size).toBeGreaterThan(3);
  expect(foreign, `cross-origin requests:\n${foreign.join('\n')}`).toEqual([]);
  // The grammars and tree-sitter came from this origin.
  expect([...urls].some((u) => /tree-sitter.*\.wasm/.test(u))).toBe(true);
  info.annotations.push({ type: 'requests', description: `${urls.size} requests, all same-origin` });
  await shot(page, info);
});
