/**
 * Error recovery by rewriting: a parse with errors is retried on its language's recovery shims
 * (GrammarTable.recover; shims-preprocessor.ts), and a rewrite is kept only when the reparse has
 * fewer ERROR and MISSING nodes (alone, or with the later shims' rewrites on top of it: see
 * recoverParse). A file that parses is never rewritten, and a rewrite that does not help is dropped,
 * so recovery can only make a tree better. Pure over the parse function it is given.
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

/** Where a recovery stands: the best tree so far (null: not parsed here), its text and its error rows. */
interface Recovered {
  tree: Tree | null;
  input: string;
  rows: number[];
}

/**
 * The best tree of `tree` (the parse of `text`) and the parses of its rewrites. Takes ownership of
 * `tree`: it is returned, or deleted when a better one replaces it.
 *
 * Each shim is judged alone first. A shim whose rewrite was dropped (it left no fewer errors) can
 * still be what the later shims need: flattening a header's `#if`s may leave as many errors as
 * before, its macros hiding the gain, and blanking those macros may repair only what the `#if`s do
 * not break. So when errors remain, the later shims are tried again on that dropped rewrite, and the
 * combination is kept when it ends with fewer errors than the shims alone did. Every reparse, the
 * combinations' too, counts against the same budget (recoveryParses), so this never makes recovery
 * slower than its bound, and it never keeps a tree with more errors than before.
 */
export async function recoverParse(tree: Tree, text: string, shims: readonly RecoveryShim[], parseText: (text: string) => Promise<Tree>): Promise<Tree> {
  let parses = 0;
  const maxParses = recoveryParses(text.length);
  const main: Recovered = { tree, input: text, rows: errorRows(tree) };
  /** The whole rewrite of each shim that kept nothing: the shim's index, its text and its error rows. */
  const dropped: { shim: number; input: string; rows: number[] }[] = [];
  /** Parse `candidate`; keep it in `at` when it has fewer errors. `tried` hears of the reparse either way. */
  const attempt = async (at: Recovered, candidate: string, tried?: (rows: number[]) => void): Promise<boolean> => {
    if (candidate === at.input || parses >= maxParses) return false;
    parses++;
    const next = await parseText(candidate);
    const nextRows = errorRows(next);
    tried?.(nextRows);
    if (nextRows.length >= at.rows.length) {
      next.delete();
      return false;
    }
    at.tree?.delete();
    at.tree = next;
    at.input = candidate;
    at.rows = nextRows;
    return true;
  };
  /** Shims `from` on of `at`; `record`: note the dropped ones. */
  const run = async (at: Recovered, from: number, record: boolean): Promise<void> => {
    for (let i = from; i < shims.length; i++) {
      const shim = shims[i];
      let kept = false;
      for (let round = 0; round < shim.rounds && at.rows.length > 0; round++) {
        const candidate = shim.rewrite(at.input, at.rows);
        let improved = await attempt(at, candidate, record && round === 0 ? (rows) => dropped.push({ shim: i, input: candidate, rows }) : undefined);
        if (!improved && shim.perRow) {
          for (const row of [...new Set(at.rows)].slice(0, MAX_ROW_TRIES)) {
            if (at.rows.length === 0) break;
            if (await attempt(at, shim.rewrite(at.input, [row]))) improved = true;
          }
        }
        kept ||= improved;
        if (!improved) break;
      }
      if (shim.everywhere && at.rows.length > 0) kept = (await attempt(at, shim.rewrite(at.input, everyRow(at.input), true))) || kept;
      if (kept && dropped.at(-1)?.shim === i) dropped.pop();
    }
  };
  try {
    await run(main, 0, true);
    for (const d of dropped) {
      if (main.rows.length === 0 || parses >= maxParses) break;
      if (d.shim === shims.length - 1) continue;
      const combined: Recovered = { tree: null, input: d.input, rows: d.rows };
      try {
        await run(combined, d.shim + 1, false);
      } catch (e) {
        combined.tree?.delete();
        throw e;
      }
      if (combined.tree && combined.rows.length < main.rows.length) {
        main.tree!.delete();
        Object.assign(main, combined);
      } else {
        combined.tree?.delete();
      }
    }
  } catch (e) {
    main.tree!.delete();
    throw e;
  }
  return main.tree!;
}
