/** `ctxprune overflow KEY [--store DIR]`: the original a compaction placeholder names, byte for byte. */
import { CtxpruneError } from '../../errors.js';
import { DiskOverflowStore, defaultStateDir } from '../../compaction/disk-store.js';
import { parseArgs, stringFlag } from '../args.js';
import type { Command } from '../main.js';

const usage =
  'ctxprune overflow KEY [--store DIR]   (default store: $CTXPRUNE_STATE_DIR, $XDG_STATE_HOME/ctxprune/overflow or ~/.local/state/ctxprune/overflow)';

export const command: Command = {
  summary: 'print the original of a compaction placeholder (read_overflow KEY) from the overflow store',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, [], ['store']);
    const key = args.positionals[0];
    if (!key) throw new CtxpruneError('INVALID_OPTION', `KEY is required\nusage: ${usage}`);
    const dir = stringFlag(args, 'store') ?? defaultStateDir(process.env);
    const text = new DiskOverflowStore({ dir }).get(key);
    if (text === undefined) {
      io.err(`ctxprune overflow: no entry for ${key} in ${dir} (unknown or expired)`);
      return 1;
    }
    (io.raw ?? io.out)(text);
    return 0;
  },
};
