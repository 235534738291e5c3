/**
 * Adapter from the line pruner (prune/pipeline.ts) to compaction's `pruneText` hook. Loaded
 * lazily: the pipeline pulls in syntax and scoring, which plain compaction does not need.
 */
import type { TokenCounter } from '../text/tokens.js';
import type { PruneTextFn } from './types.js';

export interface LinePrunerOptions {
  tokenCounter?: TokenCounter;
}

export function linePruner(opts: LinePrunerOptions = {}): PruneTextFn {
  return async (text, query, tokens) => {
    const { prune } = await import('../prune/pipeline.js');
    const r = await prune(text, { query, tokens: Math.max(1, Math.floor(tokens)), ...(opts.tokenCounter ? { tokenCounter: opts.tokenCounter } : {}) });
    return { text: r.text, keptLines: r.keptLines };
  };
}
