/**
 * The pack_context tool: the context for a task from the root (or a directory under it) in one
 * token budget — the ranked files, each pruned to its share with original line numbers, and a
 * signature map with what is left. Fail-open: a failure answers with a one-line note.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { PackJobOptions, PackJobResult } from './pool.js';

export interface PackToolContext {
  /** Resolve a path under the root (a refusal is an error result). */
  where(p: string): Promise<{ real: string; rel: string; refused?: undefined } | { refused: CallToolResult }>;
  /** packDirectory with the server's scorer: in a worker thread of the pool when the server isolates its calls. */
  pack(options: PackJobOptions): Promise<PackJobResult>;
  limits: { maxFiles: number; maxFileBytes: number; maxOutputChars: number };
}

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const oneLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 240);

export function registerPackTool(server: McpServer, ctx: PackToolContext): void {
  server.registerTool(
    'pack_context',
    {
      title: 'The context for a task, from the repository, in one token budget',
      description:
        'Rank the source files under the root (or under `path`) for `task`, give the budget to the files by marginal value, ' +
        'prune each to its share (kept lines verbatim, original line numbers in a gutter) and add a map of signatures ' +
        '(definitions the kept lines use, next-ranked files) with what is left. Tests are left out unless includeTests. ' +
        'Each file has a header with kept/total lines and the elided ranges; read those with read_pruned.',
      inputSchema: {
        task: z.string().min(1).max(20_000).describe('The task, issue or traceback'),
        tokens: z.number().int().min(50).max(200_000).optional().describe('Token budget for the whole pack, o200k_base (default 8000)'),
        path: z.string().max(4096).optional().describe('Directory under the root (default: the root)'),
        lineNumbers: z.boolean().optional().describe('Original line numbers in a gutter (default true)'),
        includeTests: z.boolean().optional().describe('Keep test files in the pool (default false)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ task, tokens, path, lineNumbers, includeTests }) => {
      const w = await ctx.where(path ?? '.');
      if (w.refused) return w.refused;
      const budget = tokens ?? 8000;
      try {
        const r = await ctx.pack({
          root: w.real,
          task,
          tokens: budget,
          lineNumbers: lineNumbers ?? true,
          includeTests: includeTests ?? false,
          read: { maxFiles: ctx.limits.maxFiles, maxFileBytes: ctx.limits.maxFileBytes, maxLinks: 1 },
        });
        const where = w.rel === '.' ? 'the root' : w.rel;
        const head =
          `[ctxprune: pack of ${where} for the task: ${r.tokens}/${r.budget} tokens, ${r.files.length} file${r.files.length === 1 ? '' : 's'}, ` +
          `${r.map.length} signatures; ${r.stats.poolFiles} files ranked (${r.stats.excludedFiles} tests/binary left out); scorer ${r.stats.scorer}` +
          `${r.stats.degraded.length ? `; ${r.stats.degraded.map((d) => d.message).join('; ')}` : ''}; paths are relative to ${where}]`;
        const body = r.text || '(nothing fits the budget)';
        const out = `${head}\n${body}`;
        return text(
          out.length <= ctx.limits.maxOutputChars
            ? out
            : `${out.slice(0, ctx.limits.maxOutputChars)}\n[ctxprune: output cut at ${ctx.limits.maxOutputChars} characters]`,
        );
      } catch (e) {
        return text(`[ctxprune: pack failed (${oneLine(e)}); try locate_files and read_pruned]`);
      }
    },
  );
}
