/** @ctxprune/mcp: ctxprune as a local Model Context Protocol server over stdio. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCtxpruneServer, type CtxpruneServerOptions } from './server.js';

export { createCtxpruneServer, DEFAULT_LIMITS, makeMatcher, SERVER_NAME, SERVER_VERSION } from './server.js';
export type { CtxpruneServerOptions, ServerLimits } from './server.js';
export { resolveInside, PathRefused } from './paths.js';

/**
 * Serve over stdin/stdout until stdin closes. stdout carries the protocol only: console.log and
 * friends are sent to stderr while the server runs.
 */
export async function runStdioServer(options: CtxpruneServerOptions): Promise<void> {
  const toErr = (...a: unknown[]) => console.error(...a);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
  const server = createCtxpruneServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
