/** read_pruned says when a file is not valid UTF-8 (#16 item 12): its invalid bytes were read as U+FFFD. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startInMemoryServer } from './harness.js';

const PY = [
  'import os',
  '',
  'def size(path):',
  '    return os.path.getsize(path)',
  '',
  ...Array.from({ length: 30 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`),
].join('\n');

let root: string;
let client: Client;
async function read(path: string): Promise<string> {
  const r = (await client.callTool({ name: 'read_pruned', arguments: { path, focus: 'file size', ratio: 4 } })) as { content: { text: string }[] };
  return r.content.map((c) => c.text).join('\n');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxprune-mcp-utf8-'));
  await writeFile(join(root, 'good.py'), PY);
  await writeFile(join(root, 'bad.py'), Buffer.concat([Buffer.from(PY), Buffer.from([0x23, 0x20, 0xc3, 0x28, 0x0a])]));
  client = (await startInMemoryServer({ root, scorer: 'lexical' })).client;
}, 60_000);

afterAll(async () => {
  await client.close();
  await rm(root, { recursive: true, force: true });
});

describe('read_pruned and invalid UTF-8', () => {
  it('notes it in the header of a pruned read', async () => {
    const bad = await read('bad.py');
    expect(bad.split('\n')[0]).toContain('[ctxprune: bad.py is not valid UTF-8: invalid bytes read as U+FFFD, so those lines differ from the file]');
    const good = await read('good.py');
    expect(good).not.toContain('not valid UTF-8');
  }, 60_000);
});
