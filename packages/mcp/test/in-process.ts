/** An MCP client connected to a server created in this process (no stdio, no build needed). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createCtxpruneServer, type CtxpruneServerOptions } from '../src/server.js';

export async function connectInProcess(options: CtxpruneServerOptions): Promise<Client> {
  const server = createCtxpruneServer(options);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(b);
  return client;
}
