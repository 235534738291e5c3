/**
 * The MCP server over a real stdio round trip: the SDK's own Client spawns
 * `node packages/core/bin/ctxprune.js mcp --root <fixture>` (needs `npm run build`).
 */
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repo, startStdioServer, type McpTestServer } from './harness.js';

const LIMITER = `import time
from email.utils import parsedate_to_datetime


class RateLimiter:
    """Token bucket with Retry-After support."""

    def __init__(self, rate, burst):
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.updated = time.monotonic()

    def refill(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def acquire(self):
        self.refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def describe(self):
        return f"RateLimiter(rate={self.rate}, burst={self.burst})"

    def log_state(self, logger):
        logger.info("tokens=%s", self.tokens)
        logger.info("rate=%s", self.rate)
        logger.info("burst=%s", self.burst)


def parse_retry_after(value):
    """Seconds to wait from a Retry-After header (seconds or an HTTP date)."""
    try:
        seconds = float(value)
    except ValueError:
        when = parsedate_to_datetime(value)
        seconds = when.timestamp() - time.time()
    return seconds


def format_rate(rate):
    return f"{rate:.2f}/s"
`;

const CLIENT_TS = `import { parseRetryAfter } from './retry';

export async function fetchWithRetry(url: string, tries = 3): Promise<Response> {
  for (let i = 0; i < tries; i++) {
    const res = await fetch(url);
    if (res.status !== 429) return res;
    const wait = parseRetryAfter(res.headers.get('Retry-After'));
    await new Promise((r) => setTimeout(r, wait * 1000));
  }
  throw new Error('too many retries');
}
`;

let root: string;
let outside: string;
let server: McpTestServer;
let client: Client;
const call = (name: string, args: Record<string, unknown>) => server.call(name, args);

type Text = { type: string; text: string };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ctxprune-mcp-root-'));
  outside = await mkdtemp(join(tmpdir(), 'ctxprune-mcp-outside-'));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src/limiter.py'), LIMITER);
  await writeFile(join(root, 'src/client.ts'), CLIENT_TS);
  await writeFile(join(root, 'README.md'), '# demo\nRetry-After handling lives in src/limiter.py\n');
  const blob = Buffer.alloc(3000);
  for (let i = 0; i < blob.length; i++) blob[i] = (i * 37) % 256;
  await writeFile(join(root, 'src/blob.py'), blob);
  await writeFile(join(outside, 'secret.txt'), 'TOP-SECRET-CONTENT\n');
  await symlink(join(outside, 'secret.txt'), join(root, 'src/escape.py'));
  await symlink(outside, join(root, 'linkdir'));

  server = await startStdioServer(root);
  client = server.client;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('ctxprune mcp over stdio', { timeout: 60_000 }, () => {
  it('lists the tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(['compact_history', 'locate_files', 'pack_context', 'read_overflow', 'read_pruned', 'search_pruned']);
    const read = tools.find((t) => t.name === 'read_pruned')!;
    expect(Object.keys(read.inputSchema.properties ?? {}).sort()).toEqual([
      'endLine',
      'focus',
      'language',
      'lineNumbers',
      'path',
      'ratio',
      'startLine',
      'tokens',
    ]);
    expect(read.inputSchema.required).toEqual(expect.arrayContaining(['path', 'focus']));
  });

  it('read_pruned prunes for the focus and says what was elided and how to read it', async () => {
    const r = await call('read_pruned', { path: 'src/limiter.py', focus: 'Retry-After parsing of an HTTP date', ratio: 3 });
    expect(r.isError).toBe(false);
    // The file ends with a newline, and so does its pruned read (#21), after a kept line or a marker.
    expect(r.text.endsWith('\n')).toBe(true);
    const [header, ...body] = r.text.slice(0, -1).split('\n');
    expect(header).toMatch(/^src\/limiter\.py: \[ctxprune: kept \d+\/46 lines/);
    expect(header).toMatch(/elided \d+ lines: \d+/);
    expect(header).toMatch(/read_pruned \{"path": "src\/limiter\.py", "focus": "", "startLine": \d+, "endLine": \d+\}/);
    expect(header).toMatch(/scorer (neural|lexical)/);
    expect(body.join('\n')).toContain('def parse_retry_after(value):');
    expect(body.length).toBeLessThan(46);
    // Every kept line is verbatim, behind its original line number.
    for (const l of body) {
      const [, num, line] = /^ *(\d*)\t(.*)$/.exec(l)!;
      if (num) expect(line).toBe(LIMITER.split('\n')[Number(num) - 1]);
      else expect(line).toMatch(/^\s*# …$/);
    }
  });

  it('read_pruned with an empty focus returns the whole file', async () => {
    const r = await call('read_pruned', { path: 'src/limiter.py', focus: '' });
    expect(r.text).toBe(LIMITER);
  });

  it('refuses paths outside the root: .., absolute, symlinked file and directory', async () => {
    for (const path of ['../secret.txt', 'src/../../x', join(outside, 'secret.txt'), 'src/escape.py', 'linkdir/secret.txt']) {
      const r = await call('read_pruned', { path, focus: 'secret' });
      expect(r.isError, path).toBe(true);
      expect(r.text, path).toMatch(/refused/);
      expect(r.text, path).not.toContain('TOP-SECRET');
    }
    const s = await call('search_pruned', { pattern: 'SECRET', focus: 'x', path: '../' });
    expect(s.isError).toBe(true);
    const s2 = await call('search_pruned', { pattern: 'TOP-SECRET', focus: 'x' });
    expect(s2.text).not.toContain('TOP-SECRET-CONTENT');
    expect(s2.text).toMatch(/0 hits/);
    const l = await call('locate_files', { focus: 'secret', path: 'linkdir' });
    expect(l.isError).toBe(true);
  });

  it('a binary file is refused with a one-line note (no raw bytes), with or without a focus', async () => {
    for (const focus of ['anything', '']) {
      const r = await call('read_pruned', { path: 'src/blob.py', focus });
      expect(r.isError).toBe(true);
      expect(r.text).toBe('[ctxprune: src/blob.py looks binary (NUL byte at offset 0 of 3000 bytes): not shown]');
    }
  });

  it('search_pruned finds regex and literal hits and shows pruned context with line numbers', async () => {
    const r = await call('search_pruned', { pattern: 'parse_?[rR]etry_?[aA]fter\\(', focus: 'how Retry-After is parsed', tokens: 400 });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^\[ctxprune: \d+ hits for regex/);
    expect(r.text).toContain('== src/limiter.py');
    expect(r.text).toContain('== src/client.ts');
    expect(r.text).toMatch(/\s+35> def parse_retry_after\(value\):/);
    expect(r.text).toMatch(/… lines \d+-\d+ elided/);
    const lit = await call('search_pruned', { pattern: 'min(self.burst', focus: 'refill', path: 'src' });
    expect(lit.text).toMatch(/1 hit for literal/);
    expect(lit.text).toMatch(/16> /);
  });

  it('locate_files ranks the relevant file first', async () => {
    const r = await call('locate_files', { focus: 'RateLimiter.refill drops tokens when the burst is exceeded', k: 2 });
    expect(r.isError).toBe(false);
    const lines = r.text.split('\n');
    expect(lines[0]).toMatch(/^\[ctxprune: 2 of \d+ files, best first/);
    expect(lines[1]).toMatch(/^1\. src\/limiter\.py/);
    expect(lines).toHaveLength(3);
  });

  it('compact_history runs compact()', async () => {
    const big = Array.from({ length: 200 }, (_, i) => `line ${i} of a long tool output about unrelated logging`).join('\n');
    const messages = [
      { id: 's', role: 'system', content: 'You are a coding agent.' },
      { id: 'u1', role: 'user', content: 'Fix the Retry-After parsing in limiter.py' },
      { id: 'a1', role: 'assistant', content: 'Reading the logs.' },
      { id: 't1', role: 'tool', toolName: 'bash', content: big },
      { id: 'a2', role: 'assistant', content: 'Now the parser.' },
      { id: 't2', role: 'tool', toolName: 'read', content: LIMITER },
      { id: 'a3', role: 'assistant', content: 'Found it.' },
    ];
    const r = await call('compact_history', { messages, strategy: 'reactive', tokens: 900 });
    expect(r.isError).toBe(false);
    const [head, ...json] = r.text.split('\n');
    expect(head).toMatch(/^\[ctxprune: reactive, \d+ → \d+ tokens \(budget 900\)/);
    const out = JSON.parse(json.join('\n'));
    expect(out.evicted).toContain('t1');
    expect(out.messages.length).toBeGreaterThan(0);
  });

  it('validates inputs: a bad strategy and an overlong pattern are schema errors', async () => {
    const bad = await call('compact_history', { messages: [{ id: 'a', role: 'user', content: 'x' }], strategy: 'nope', tokens: 10 });
    expect(bad.isError).toBe(true);
    const long = await call('search_pruned', { pattern: 'x'.repeat(501), focus: 'x' });
    expect(long.isError).toBe(true);
    expect(long.text).not.toContain('TOP-SECRET');
  });

  it('a missing file is reported in one line', async () => {
    const r = await call('read_pruned', { path: 'src/nope.py', focus: 'x' });
    expect(r.text).toMatch(/no such file/);
    expect(server.stderr()).toContain('ctxprune mcp: serving');
  });
});

describe('README: agent integrations', () => {
  it('the MCP client configuration in the README starts a working server', async () => {
    const md = await readFile(join(repo, 'README.md'), 'utf8');
    const block = /```json\n([\s\S]*?)```/.exec(md)![1];
    const cfg = JSON.parse(block.replaceAll('/path/to/ctxprune', repo).replaceAll('/path/to/your/repo', root)) as {
      mcpServers: { ctxprune: { command: string; args: string[] } };
    };
    const { command, args } = cfg.mcpServers.ctxprune;
    const c = new Client({ name: 'docs-config', version: '0.0.0' });
    await c.connect(new StdioClientTransport({ command: command === 'node' ? process.execPath : command, args, stderr: 'ignore' }));
    try {
      expect((await c.listTools()).tools).toHaveLength(6);
      const r = (await c.callTool({ name: 'read_pruned', arguments: { path: 'src/limiter.py', focus: 'refill' } })) as { content: Text[] };
      expect(r.content[0].text).toMatch(/^src\/limiter\.py: \[ctxprune: kept/);
    } finally {
      await c.close();
    }
  }, 60_000);
});
