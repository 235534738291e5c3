/** @ctxprune/mcp: ctxprune as a local Model Context Protocol server over stdio. */
import { defaultStateDir } from '@ctxprune/core/node';
import { createCtxpruneServer, type CtxpruneServerOptions } from './server.js';
import { LineStdioServerTransport } from './transport.js';

export { createCtxpruneServer, DEFAULT_LIMITS, SERVER_NAME, SERVER_VERSION } from './server.js';
export { makeMatcher } from './matcher.js';
export type { CtxpruneServerOptions, ServerLimits } from './server.js';
export { resolveInside, PathRefused } from './paths.js';
export { LineStdioServerTransport, DEFAULT_MAX_MESSAGE_BYTES } from './transport.js';

/** The stdio server's options: the state directory defaults to core's defaultStateDir(process.env). */
export type StdioServerOptions = Omit<CtxpruneServerOptions, 'stateDir'> & { stateDir?: string };

/**
 * Serve over stdin/stdout until stdin closes. stdout carries the protocol only: console.log and
 * friends are sent to stderr while the server runs. This is the program's edge: the environment
 * variables it honours (CTXPRUNE_STATE_DIR, XDG_STATE_HOME, CTXPRUNE_MCP_MAX_MESSAGE_BYTES) are read here.
 */
export async function runStdioServer(options: StdioServerOptions): Promise<void> {
  const toErr = (...a: unknown[]) => console.error(...a);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
  // prune and compact in worker threads: no request keeps the server from answering the next.
  const server = createCtxpruneServer({ isolate: true, ...options, stateDir: options.stateDir ?? defaultStateDir(process.env) });
  // Bad or oversized messages are answered and logged; they never close the transport.
  server.server.onerror = (e) => console.error(e instanceof Error ? e.message : String(e));
  // CTXPRUNE_MCP_MAX_MESSAGE_BYTES: the per-message limit (default 64 MiB), for tests and odd clients.
  const max = Number(process.env.CTXPRUNE_MCP_MAX_MESSAGE_BYTES);
  const transport = new LineStdioServerTransport(process.stdin, process.stdout, Number.isInteger(max) && max > 0 ? max : undefined);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
