/**
 * Nothing lost, end to end: compact_history's placeholders name keys that read_overflow answers
 * with the original, byte for byte, in a server started as configured (`ctxprune mcp`, the SDK's
 * client over stdio; needs `npm run build`), the store under CTXPRUNE_STATE_DIR.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startStdioServer, type McpTestServer } from './harness.js';

let root: string;
let state: string;
let server: McpTestServer;
let client: Client;
const call = (name: string, args: Record<string, unknown>) => server.call(name, args);

// Non-ASCII, tabs, CRLF and a missing final newline: the original must come back exactly.
const HANDLERS = Array.from({ length: 80 }, (_, i) =>
  i === 40
    ? 'def parse_retry_after(value):\r\n\treturn float(value)  # « Retry-After » in seconds'
    : `def handler_${i}(request):\n    return render(request, "page_${i}.html")`,
).join('\n');
const LOG = Array.from({ length: 60 }, (_, i) => `tests/test_views.py::test_page_${i} PASSED`).join('\n') + '\n';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxprune-ovf-root-'));
  state = await mkdtemp(join(tmpdir(), 'ctxprune-ovf-state-'));
  server = await startStdioServer(root, { args: ['--scorer', 'lexical'], env: { CTXPRUNE_STATE_DIR: state } });
  client = server.client;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
  await rm(state, { recursive: true, force: true });
});

describe('read_overflow over stdio', { timeout: 60_000 }, () => {
  it('is listed next to compact_history', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['compact_history', 'read_overflow']));
    expect(tools.find((t) => t.name === 'read_overflow')!.inputSchema.required).toEqual(['key']);
  });

  it('follows every placeholder of a compact_history result back to its original, byte for byte', async () => {
    const messages = [
      { id: 'sys', role: 'system', content: 'You are a coding agent.' },
      { id: 'u1', role: 'user', content: 'Retry-After with a negative value is returned as is: fix parse_retry_after.' },
      { id: 'a1', role: 'assistant', content: 'Reading the handlers.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"app/handlers.py"}' }] },
      { id: 't1', role: 'tool', toolName: 'read_file', toolCallId: 'c1', content: HANDLERS },
      { id: 'a2', role: 'assistant', content: 'Running the tests.', toolCalls: [{ id: 'c2', name: 'run_tests', arguments: '{}' }] },
      { id: 't2', role: 'tool', toolName: 'run_tests', toolCallId: 'c2', content: LOG },
      { id: 'a3', role: 'assistant', content: 'Now fixing it.' },
    ];
    const r = await call('compact_history', { messages, strategy: 'task_aware_mig', tokens: 400 });
    expect(r.isError).toBe(false);
    expect(r.text.split('\n')[0]).toMatch(/originals: read_overflow KEY\]$/);
    const body = JSON.parse(r.text.slice(r.text.indexOf('\n') + 1)) as { messages: { id: string; content: string }[]; pruned: string[]; evicted: string[] };
    const touched = [...body.pruned, ...body.evicted];
    expect(touched.length).toBeGreaterThan(0);
    let followed = 0;
    for (const id of touched) {
      const out = body.messages.find((m) => m.id === id)!.content;
      const key = /read_overflow (ovf_[0-9a-f]{8}(?:_\d+)?)/.exec(out)![1];
      const back = await call('read_overflow', { key });
      expect(back.isError).toBe(false);
      expect(back.text).toBe(messages.find((m) => m.id === id)!.content);
      followed++;
    }
    expect(followed).toBe(touched.length);
    expect((await readdir(state)).filter((n) => n.endsWith('.txt')).length).toBeGreaterThanOrEqual(touched.length);
  });

  it('an unknown key and a key that is not a key are errors the agent can read', async () => {
    const unknown = await call('read_overflow', { key: 'ovf_00000000' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/no entry for ovf_00000000/);
    const bad = await call('read_overflow', { key: '../../etc/passwd' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/not an overflow key/);
  });
});
