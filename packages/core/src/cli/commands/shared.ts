import type { PruneAblation } from '../../prune/types.js';
import { boolFlag, type ParsedArgs } from '../args.js';

export const ABLATION_FLAGS = ['no-repair', 'no-dependency', 'single-head', 'no-gate'] as const;

export function ablationFromArgs(args: ParsedArgs): PruneAblation {
  return {
    noRepair: boolFlag(args, 'no-repair'),
    noDependency: boolFlag(args, 'no-dependency'),
    singleHead: boolFlag(args, 'single-head'),
    noGate: boolFlag(args, 'no-gate'),
  };
}
