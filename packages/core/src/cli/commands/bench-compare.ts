/**
 * `ctxprune bench compare BEFORE.jsonl AFTER.jsonl`: two `ctxprune bench --out` files of the same
 * cases (the build before a change and after it), compared case by case (bench/compare.ts).
 */
import { readFile } from 'node:fs/promises';
import { compareOutcomes, formatComparison, type OutcomeRecord } from '../../bench/compare.js';
import { CtxpruneError } from '../../errors.js';
import { boolFlag, parseArgs } from '../args.js';
import type { Command } from '../main.js';

const usage = 'ctxprune bench compare BEFORE.jsonl AFTER.jsonl [--json]   (files written by ctxprune bench --cases … --ratio R --out FILE)';

/** The records of one `--out` file; a line that is not one is an error naming the file and line. */
export async function readOutcomes(path: string): Promise<OutcomeRecord[]> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (e) {
    throw new CtxpruneError('INVALID_OPTION', `cannot read ${path}: ${(e as Error).message}`);
  }
  const out: OutcomeRecord[] = [];
  raw.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: Partial<OutcomeRecord>;
    try {
      o = JSON.parse(line) as Partial<OutcomeRecord>;
    } catch {
      throw new CtxpruneError('INVALID_OPTION', `${path}:${i + 1}: not valid JSON`);
    }
    if (typeof o !== 'object' || o === null || typeof o.id !== 'string' || !Number.isFinite(o.ratio) || !Number.isFinite(o.recall)) {
      throw new CtxpruneError('INVALID_OPTION', `${path}:${i + 1}: not a line of ctxprune bench --out (needs id, ratio and recall)`);
    }
    out.push(o as OutcomeRecord);
  });
  return out;
}

export const command: Command = {
  summary: 'two ctxprune bench --out files of the same cases, compared case by case',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, ['json'], []);
    const [before, after] = args.positionals;
    if (before === undefined || after === undefined || args.positionals.length > 2) throw new CtxpruneError('INVALID_OPTION', `usage: ${usage}`);
    const comparison = compareOutcomes(await readOutcomes(before), await readOutcomes(after));
    if (comparison.rows.length === 0) throw new CtxpruneError('INVALID_OPTION', `${before} and ${after} share no case (same id and ratio)`);
    io.out(
      boolFlag(args, 'json') ? JSON.stringify(comparison, null, 1) : `${before} → ${after}, paired by case id and ratio\n\n${formatComparison(comparison)}`,
    );
    return 0;
  },
};
