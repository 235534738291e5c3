/** pack_context (#19) over the SDK's in-memory transport. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadDefaultTokenCounter } from '@ctxprune/core';
import { startInMemoryServer, type McpTestServer } from './harness.js';

const LIMITER = [
  'import time',
  '',
  '',
  ...Array.from({ length: 40 }, (_, i) => [`def helper_${i}(x):`, `    return x * ${i} + ${i}`, ''].join('\n')),
  'def parse_retry_after(value):',
  '    """Seconds to wait from a Retry-After header."""',
  '    seconds = float(value)',
  '    return seconds',
  '',
].join('\n');

let root: string;
let server: McpTestServer;
let client: Client;
const call = (args: Record<string, unknown>) => server.call('pack_context', args);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxprune-mcp-pack-'));
  await mkdir(join(root, 'src'));
  await mkdir(join(root, 'tests'));
  await writeFile(join(root, 'src/limiter.py'), LIMITER);
  await writeFile(join(root, 'src/clock.py'), 'import time\n\n\ndef now():\n    return time.time()\n');
  await writeFile(
    join(root, 'tests/test_limiter.py'),
    'from src.limiter import parse_retry_after\n\ndef test_negative():\n    assert parse_retry_after("-1") == 0\n',
  );
  server = await startInMemoryServer({ root, scorer: 'lexical' });
  client = server.client;
});
afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe('pack_context', { timeout: 60_000 }, () => {
  it('packs the ranked files with numbered lines within the budget, tests left out', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('pack_context');
    const r = await call({ task: 'parse_retry_after returns a negative number of seconds for a negative Retry-After', tokens: 300 });
    expect(r.isError).toBe(false);
    const [head, ...rest] = r.text.split('\n');
    expect(head).toMatch(/^\[ctxprune: pack of the root for the task: \d+\/300 tokens, \d+ files?/);
    expect(head).toMatch(/1 tests\/binary left out/);
    const body = rest.join('\n');
    expect(body.startsWith('### src/limiter.py (kept ')).toBe(true);
    expect(body).toMatch(/\n1\d\d\tdef parse_retry_after\(value\):\n1\d\d\t {4}"""Seconds to wait/);
    expect(body).not.toContain('tests/test_limiter.py');
    expect((await loadDefaultTokenCounter()).count(body)).toBeLessThanOrEqual(300);
  });

  it('refuses a path outside the root; a directory without source files packs nothing', async () => {
    expect((await call({ task: 'x', path: '../..' })).isError).toBe(true);
    await mkdir(join(root, 'empty'), { recursive: true });
    const r = await call({ task: 'anything', path: 'empty' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/no files in the pool[\s\S]*\(nothing fits the budget\)$/);
  });
});
