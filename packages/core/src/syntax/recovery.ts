/**
 * Error recovery by rewriting: a parse with errors is retried on its language's recovery shims
 * (GrammarTable.recover; shims-preprocessor.ts), and a rewrite is kept only when the reparse has
 * fewer ERROR and MISSING nodes. A file that parses is never rewritten, and a rewrite that does not
 * help is dropped, so recovery can only make a tree better. Pure over the parse function it is given.
 */
import type { Tree } from 'web-tree-sitter';
import type { RecoveryShim } from './shims-preprocessor.js';
import { errorRows } from './validity.js';

/** Rows tried one by one per round, when the rewrite of all at once did not help (each try is a parse). */
export const MAX_ROW_TRIES = 8;
/**
 * Reparses one recovery may spend, all shims together: a broken 4,400-line C++ header parses in
 * ~60 ms here, and recovery typically takes two to four more; this bounds the worst case.
 */
export const MAX_RECOVERY_PARSES = 8;
/**
 * Characters all the reparses of one recovery may read together: a 1 MB file that no rewrite
 * repairs gets one reparse (~1 s on this machine), not eight; 125 KB and less get all eight.
 */
export const MAX_RECOVERY_CHARS = 1_000_000;

/** Every row of `text`, for a shim's `everywhere` try. */
function everyRow(text: string): number[] {
  return Array.from({ length: text.split('\n').length }, (_, r) => r);
}

/** The reparses a text of this length may spend. */
export function recoveryParses(length: number): number {
  return Math.min(MAX_RECOVERY_PARSES, Math.floor(MAX_RECOVERY_CHARS / Math.max(1, length)));
}

/**
 * The best tree of `tree` (the parse of `text`) and the parses of its rewrites. Takes ownership of
 * `tree`: it is returned, or deleted when a better one replaces it.
 */
export async function recoverParse(tree: Tree, text: string, shims: readonly RecoveryShim[], parseText: (text: string) => Promise<Tree>): Promise<Tree> {
  let best = tree;
  let input = text;
  let rows = errorRows(best);
  let parses = 0;
  const maxParses = recoveryParses(text.length);
  /** Parse `candidate`; keep it when it has fewer errors. */
  const attempt = async (candidate: string): Promise<boolean> => {
    if (candidate === input || parses >= maxParses) return false;
    parses++;
    const next = await parseText(candidate);
    const nextRows = errorRows(next);
    if (nextRows.length >= rows.length) {
      next.delete();
      return false;
    }
    best.delete();
    best = next;
    input = candidate;
    rows = nextRows;
    return true;
  };
  try {
    for (const shim of shims) {
      for (let round = 0; round < shim.rounds && rows.length > 0; round++) {
        let improved = await attempt(shim.rewrite(input, rows));
        if (!improved && shim.perRow) {
          for (const row of [...new Set(rows)].slice(0, MAX_ROW_TRIES)) {
            if (rows.length === 0) break;
            if (await attempt(shim.rewrite(input, [row]))) improved = true;
          }
        }
        if (!improved) break;
      }
      if (shim.everywhere && rows.length > 0) await attempt(shim.rewrite(input, everyRow(input), true));
    }
  } catch (e) {
    best.delete();
    throw e;
  }
  return best;
}
