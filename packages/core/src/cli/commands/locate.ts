/** `ctxprune locate`: rank each SWE-bench instance's repository files for its issue (BM25 → rerank top 50). */
import { writeFile } from 'node:fs/promises';
import { CtxpruneError } from '../../errors.js';
import { documentScoreFromScorer } from '../../locate/document-score.js';
import { parseInstances, runLocate } from '../../bench/locate.js';
import { resolveScorer } from '../../scorers/registry.js';
import { boolFlag, numberFlag, parseArgs, stringFlag } from '../args.js';
import { readBoundedText } from '../input.js';
import type { Command } from '../main.js';

const usage =
  'ctxprune locate --instances INSTANCES.jsonl --pools DIR [--out R.jsonl] [--k 10] [--rerank-top 50] [--scorer lexical|neural|auto] [--bm25-only] [--quiet]';

export const command: Command = {
  summary: 'rank repository files for SWE-bench issues (BM25 + rerank); prints hit@1 and MRR@k',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, ['bm25-only', 'quiet'], ['instances', 'pools', 'out', 'k', 'rerank-top', 'scorer']);
    const instPath = stringFlag(args, 'instances');
    const pools = stringFlag(args, 'pools');
    if (!instPath || !pools) throw new CtxpruneError('INVALID_OPTION', `--instances and --pools are required\nusage: ${usage}`);
    const k = numberFlag(args, 'k') ?? 10;
    const rerankTop = numberFlag(args, 'rerank-top') ?? 50;
    if (!Number.isInteger(k) || k < 1) throw new CtxpruneError('INVALID_OPTION', '--k must be a positive integer');
    if (!Number.isInteger(rerankTop) || rerankTop < 1) throw new CtxpruneError('INVALID_OPTION', '--rerank-top must be a positive integer');
    const text = await readBoundedText(instPath, 256 << 20);
    const instances = parseInstances(text);
    const scorerName = stringFlag(args, 'scorer');
    // Without --scorer the document score is the lexical rubric scorer's.
    const documentScore = scorerName ? documentScoreFromScorer(await resolveScorer(scorerName)) : undefined;
    const lines: string[] = [];
    const quiet = boolFlag(args, 'quiet');
    const r = await runLocate(instances, pools, {
      k,
      rerankTop,
      bm25Only: boolFlag(args, 'bm25-only'),
      ...(documentScore ? { documentScore } : {}),
      onResult: (x) => {
        lines.push(JSON.stringify({ instance_id: x.instance_id, ranked: x.ranked }));
        if (!quiet) io.out(`${x.instance_id}: ${x.ranked[0] ?? '-'}${x.rr !== undefined ? `  rr=${x.rr.toFixed(2)}` : ''}  ${x.ms.toFixed(0)} ms`);
      },
    });
    const out = stringFlag(args, 'out');
    if (out) await writeFile(out, lines.join('\n') + (lines.length ? '\n' : ''));
    for (const id of r.missingTrees) io.err(`no tree for ${id} under ${pools}`);
    io.out(
      `instances ${r.instances} (scored ${r.scored}): hit@1 ${r.hit1.toFixed(3)}  MRR@${k} ${r.mrr.toFixed(3)}  ${r.msPerInstance.toFixed(0)} ms/instance (max ${r.msMax.toFixed(0)})`,
    );
    return r.missingTrees.length && r.instances === 0 ? 1 : 0;
  },
};
