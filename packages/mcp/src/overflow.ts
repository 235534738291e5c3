/**
 * read_overflow: the tool every compaction placeholder names (`[tool output pruned; use
 * read_overflow ovf_… to retrieve]`). compact_history saves the originals of what it evicts or
 * cuts in an on-disk store that outlives the call (core's DiskOverflowStore in the state directory
 * the server is given: runStdioServer's default is $CTXPRUNE_STATE_DIR, $XDG_STATE_HOME/ctxprune/overflow
 * or ~/.local/state/ctxprune/overflow; entries kept 7 days, 256 MiB at most); read_overflow returns an
 * original byte for byte.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DiskOverflowStore, type OverflowStore } from '@ctxprune/core/node';

export interface OverflowTool {
  /** Save a compaction's originals; returns their keys (never throws: a store that cannot be written is said in the result). */
  save(store: OverflowStore): { keys: string[]; error?: string };
  readonly dir: string;
}

export function registerOverflowTool(server: McpServer, stateDir: string): OverflowTool {
  const disk = new DiskOverflowStore({ dir: stateDir });
  server.registerTool(
    'read_overflow',
    {
      title: 'Read the original of a compaction placeholder',
      description:
        'Return, byte for byte, the original message or tool output that compact_history evicted or cut, by the key ' +
        'its placeholder names ("use read_overflow ovf_… to retrieve"). Entries are kept 7 days.',
      inputSchema: { key: z.string().min(1).max(40).describe('The key from the placeholder, e.g. ovf_1a2b3c4d') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ key }) => {
      let text: string | undefined;
      try {
        text = disk.get(key.trim());
      } catch (e) {
        return { content: [{ type: 'text', text: `[ctxprune: ${e instanceof Error ? e.message : String(e)}]` }], isError: true };
      }
      if (text === undefined) {
        return { content: [{ type: 'text', text: `[ctxprune: no entry for ${key} (unknown, or expired after 7 days)]` }], isError: true };
      }
      return { content: [{ type: 'text', text }] };
    },
  );
  return {
    dir: disk.dir,
    save(store) {
      try {
        return { keys: disk.save(store) };
      } catch (e) {
        return { keys: [], error: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
