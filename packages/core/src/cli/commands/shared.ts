import type { PruneAblation } from '../../prune/types.js';
import { resolveElision } from '../../prune/validate.js';
import type { ElisionStyle } from '../../text/elision.js';
import { boolFlag, type ParsedArgs, stringFlag } from '../args.js';

export const ABLATION_FLAGS = ['no-repair', 'no-dependency', 'single-head', 'no-gate'] as const;

export function ablationFromArgs(args: ParsedArgs): PruneAblation {
  return {
    noRepair: boolFlag(args, 'no-repair'),
    noDependency: boolFlag(args, 'no-dependency'),
    singleHead: boolFlag(args, 'single-head'),
    noGate: boolFlag(args, 'no-gate'),
  };
}

/** `--elision bare|indented|compact|verbose`, checked like the library option; undefined = the default. */
export function elisionFromArgs(args: ParsedArgs): ElisionStyle | undefined {
  const v = stringFlag(args, 'elision');
  return v === undefined ? undefined : resolveElision(v);
}

/** The mirrors folder of the benchmarks built from repositories: --mirror, else $CTXPRUNE_MIRROR, else data/mirror (as training/paths.py). */
export function mirrorDirFromArgs(args: ParsedArgs): string {
  return stringFlag(args, 'mirror') ?? (process.env.CTXPRUNE_MIRROR || 'data/mirror');
}
