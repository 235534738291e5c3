import { expect } from '@playwright/test';
import { nextResult, openPlayground, pasteIntoOriginal, resultSeq, shot, test } from './helpers';

test('empty input shows its message', async ({ page }, info) => {
  await openPlayground(page);
  const seq = await resultSeq(page);
  // Clearing the editor is retried until a run starts: under load the click can land before Monaco
  // takes focus, and then nothing is selected or deleted (seen once in a clean-clone CI run). On an
  // already empty editor a retry changes nothing.
  await expect(async () => {
    await pasteIntoOriginal(page, '');
    await page.keyboard.press('Delete');
    expect(await resultSeq(page)).toBeGreaterThan(seq);
  }).toPass({ intervals: [1_000, 2_000, 5_000], timeout: 60_000 });
  await nextResult(page, seq);
  const err = page.getByTestId('error');
  await expect(err).toBeVisible();
  await expect(err).toContainText('Nothing to prune');
  await expect(err).toContainText(/empty/i);
  await expect(err).toHaveAttribute('role', 'alert');
  await shot(page, info);
});

test('binary content shows its message, and good input recovers', async ({ page }, info) => {
  await openPlayground(page);
  let seq = await resultSeq(page);
  // Open a "file" with NUL bytes through the file picker.
  const bytes = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x41, 0x42, 0x0a, 0x00, 0xff]);
  await page.getByTestId('file-input').setInputFiles({ name: 'a.out', mimeType: 'application/octet-stream', buffer: bytes });
  await nextResult(page, seq);
  const err = page.getByTestId('error');
  await expect(err).toContainText('binary');
  await expect(err).toContainText(/NUL byte/);
  await shot(page, info);

  // Choosing a sample clears the error.
  seq = await resultSeq(page);
  await page.getByLabel('Sample code', { exact: true }).selectOption('python-fetcher');
  await nextResult(page, seq);
  await expect(err).toHaveCount(0);
  await expect(page.getByTestId('tokens-after')).toBeVisible();
});

test('a local source file opens, with its language detected from the name', async ({ page }, info) => {
  await openPlayground(page);
  const seq = await resultSeq(page);
  const src = 'package main\n\nimport "fmt"\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tfmt.Println(add(1, 2))\n}\n';
  await page.getByTestId('file-input').setInputFiles({ name: 'main.go', mimeType: 'text/plain', buffer: Buffer.from(src) });
  await nextResult(page, seq);
  await expect(page.getByTestId('language')).toContainText('Auto-detect (Go)');
  await expect(page.getByLabel('Sample code', { exact: true })).toContainText('main.go');
  await expect(page.getByTestId('error')).toHaveCount(0);
  await shot(page, info);
});
