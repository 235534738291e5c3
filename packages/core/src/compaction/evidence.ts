/**
 * Which message deserves the budget. By default (`documentScorer: 'bm25'`) the task-aware
 * strategies rate each message as a whole by BM25 of the goal; with a line scorer named instead,
 * by that scorer's document score with the goal as the query ('auto': the model where it loads,
 * as locate_files reranks files). On the validation transcripts (`ctxprune bench compaction
 * --transcripts val`, 54) the read that holds the fix scores first of the five reads in 42 by
 * the model's document score, 33 by BM25; on the 48 of `--transcripts wide`, 26 and 25. Opt-in:
 * it loads the model (seconds) on the first compaction. Loaded lazily.
 */
import type { DocumentScoreFn } from '../locate/document-score.js';
import type { CompactOptions } from './types.js';

/** The document score the task-aware strategies rate whole messages with, or null for BM25. */
export async function documentEvidence(scorer: CompactOptions['documentScorer']): Promise<DocumentScoreFn | null> {
  if (scorer === undefined || scorer === 'bm25') return null;
  const [{ documentScoreFromScorer }, { resolveScorer }] = await Promise.all([import('../locate/document-score.js'), import('../scorers/registry.js')]);
  // A scorer that does not load (an unknown name, 'neural' without its model) leaves BM25.
  const loaded = typeof scorer === 'string' ? await resolveScorer(scorer).catch(() => null) : scorer;
  return loaded ? documentScoreFromScorer(loaded) : null;
}
