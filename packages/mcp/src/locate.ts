/**
 * locate_files' work — read the tree under a directory and rank its files for a task — apart from the
 * tool, so that it runs in a pool worker (pool.ts, core-worker.ts) like prune, compact and pack: on a
 * large tree indexing is seconds of synchronous work that must not hold the server's event loop.
 */
import { buildFileIndex, documentScoreFromScorer, locateFiles, type Scorer } from '@ctxprune/core';
import { readTree } from '@ctxprune/core/node';

export interface LocateJobOptions {
  /** The directory to read (resolved, inside the root). */
  real: string;
  /** Its path relative to the root ('.' for the root): the prefix of the paths reported. */
  rel: string;
  focus: string;
  maxFiles: number;
  maxFileBytes: number;
}

export interface LocateJobResult {
  /** Every file read, in path order. */
  paths: string[];
  /** Best first, with their scores; null when ranking failed (rankError says why). */
  ranked: string[] | null;
  scores: [string, number][];
  /** 'lexical' or the scorer that gave the document scores. */
  scorer: string;
  rankError?: string;
}

/** Read and rank. A tree that cannot be read throws; a ranking that fails comes back as rankError. */
export async function locateJob(o: LocateJobOptions, scorer: () => Promise<Scorer | 'lexical'>): Promise<LocateJobResult> {
  const tree = await readTree(o.real, { maxFiles: o.maxFiles, maxFileBytes: o.maxFileBytes, maxLinks: 1 });
  const files = new Map([...tree].map(([p, t]) => [o.rel === '.' ? p : `${o.rel}/${p}`, t]));
  const paths = [...files.keys()];
  if (!files.size) return { paths, ranked: [], scores: [], scorer: 'lexical' };
  try {
    const sc = await scorer();
    const documentScore = typeof sc === 'string' ? undefined : documentScoreFromScorer(sc);
    const r = await locateFiles(o.focus, buildFileIndex(files), documentScore ? { documentScore } : {});
    return { paths, ranked: r.ranked, scores: r.signals.map((s) => [s.path, s.score]), scorer: typeof sc === 'string' ? 'lexical' : sc.name };
  } catch (e) {
    return { paths, ranked: null, scores: [], scorer: 'lexical', rankError: e instanceof Error ? e.message : String(e) };
  }
}
