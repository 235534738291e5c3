/**
 * `ctxprune mcp --root DIR`: a Model Context Protocol server over stdio (read_pruned,
 * search_pruned, locate_files, compact_history). The server lives in @ctxprune/mcp, loaded through
 * a variable specifier so that the core package does not depend on the MCP SDK.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CtxpruneError } from '../../errors.js';
import { parseArgs, stringFlag } from '../args.js';
import type { Command } from '../main.js';

const usage = 'ctxprune mcp [--root DIR] [--scorer auto|neural|lexical]   (stdio; DIR defaults to the current directory)';

interface McpModule {
  runStdioServer(options: { root: string; scorer?: 'auto' | 'neural' | 'lexical' }): Promise<void>;
}

export const command: Command = {
  summary: 'serve read_pruned / search_pruned / locate_files / compact_history to an MCP client over stdio',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, [], ['root', 'scorer']);
    const root = resolve(stringFlag(args, 'root') ?? args.positionals[0] ?? process.cwd());
    const scorer = stringFlag(args, 'scorer') ?? 'auto';
    if (scorer !== 'auto' && scorer !== 'neural' && scorer !== 'lexical') {
      throw new CtxpruneError('INVALID_OPTION', `--scorer must be auto, neural or lexical\nusage: ${usage}`);
    }
    const st = await stat(root).catch(() => null);
    if (!st?.isDirectory()) throw new CtxpruneError('INVALID_OPTION', `--root ${root} is not a directory\nusage: ${usage}`);
    const spec = '@ctxprune/mcp';
    let mod: McpModule;
    try {
      mod = (await import(/* @vite-ignore */ spec)) as McpModule;
    } catch (e) {
      io.err(
        `ctxprune mcp: cannot load @ctxprune/mcp (${e instanceof Error ? e.message : String(e)}); install it next to @ctxprune/core: npm install @ctxprune/mcp`,
      );
      return 2;
    }
    io.err(`ctxprune mcp: serving ${root} over stdio (scorer ${scorer})`);
    await mod.runStdioServer({ root, scorer });
    return 0;
  },
};
