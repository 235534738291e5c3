/**
 * One way for the MCP tests to start a server and call its tools: over stdio, exactly as a client
 * configures it (`node packages/core/bin/ctxprune.js mcp --root DIR`, the SDK's own client; needs
 * `npm run build`), or in this process over the SDK's in-memory transport (createCtxpruneServer).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createCtxpruneServer, type CtxpruneServerOptions } from '../src/server.js';

export const repo = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const bin = join(repo, 'packages/core/bin/ctxprune.js');

export interface ToolAnswer {
  /** The text parts, joined by newlines. */
  text: string;
  isError: boolean;
  /** Wall time of the call, ms. */
  ms: number;
}

export interface McpTestServer {
  client: Client;
  /** Call a tool (`timeout`: the SDK's request timeout, ms; default 60 s). */
  call(name: string, args: Record<string, unknown>, timeout?: number): Promise<ToolAnswer>;
  /** What the server wrote on stderr so far (stdio only). */
  stderr(): string;
  /** The stdio transport (null in memory), for tests that send raw messages. */
  transport: StdioClientTransport | null;
  close(): Promise<void>;
}

type Text = { type: string; text: string };

function wrap(client: Client, transport: StdioClientTransport | null, stderr: () => string): McpTestServer {
  return {
    client,
    transport,
    stderr,
    async call(name, args, timeout = 60_000) {
      const t0 = performance.now();
      const r = (await client.callTool({ name, arguments: args }, undefined, { timeout })) as { content: Text[]; isError?: boolean };
      return { text: r.content.map((c) => c.text).join('\n'), isError: r.isError === true, ms: performance.now() - t0 };
    },
    close: () => client.close(),
  };
}

/** `ctxprune mcp --root ROOT [ARGS…]` over stdio; `env` is added to the SDK's default environment. */
export async function startStdioServer(root: string, opts: { args?: string[]; env?: Record<string, string> } = {}): Promise<McpTestServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--root', root, ...(opts.args ?? [])],
    cwd: repo,
    env: { ...getDefaultEnvironment(), ...opts.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const client = new Client({ name: 'ctxprune-test', version: '0.0.0' });
  await client.connect(transport);
  return wrap(client, transport, () => stderr);
}

/** createCtxpruneServer(options) in this process, over the in-memory transport (the overflow store in a fresh temporary directory unless given). */
export async function startInMemoryServer(options: Omit<CtxpruneServerOptions, 'stateDir'> & { stateDir?: string }): Promise<McpTestServer> {
  const server = createCtxpruneServer({ ...options, stateDir: options.stateDir ?? mkdtempSync(join(tmpdir(), 'ctxprune-mcp-state-')) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'ctxprune-test', version: '0.0.0' });
  await client.connect(b);
  return wrap(client, null, () => '');
}
