/**
 * `ctxprune bench compare BEFORE.jsonl AFTER.jsonl`: two `ctxprune bench --out` files of the same
 * cases (the build before a change and after it), compared case by case (bench/compare.ts).
 */
import { compareOutcomes, formatComparison, type OutcomeRecord } from '../../bench/compare.js';
import { readJsonLines } from '../../bench/jsonl.js';
import { CtxpruneError } from '../../errors.js';
import { boolFlag, parseArgs } from '../args.js';
import type { Command } from '../main.js';

const usage = 'ctxprune bench compare BEFORE.jsonl AFTER.jsonl [--json]   (files written by ctxprune bench --cases … --ratio R --out FILE)';

const isOutcome = (o: unknown): o is OutcomeRecord => {
  const r = o as Partial<OutcomeRecord> | null;
  return r !== null && typeof r === 'object' && typeof r.id === 'string' && Number.isFinite(r.ratio) && Number.isFinite(r.recall);
};

/** The records of one `--out` file; a line that is not one is an error naming the file and line. */
export function readOutcomes(path: string): Promise<OutcomeRecord[]> {
  return readJsonLines(path, isOutcome, 'not a line of ctxprune bench --out (needs id, ratio and recall)');
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
