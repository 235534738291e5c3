/**
 * The pruned side's gutter shows original line numbers (marker lines get none), so the `# …`
 * markers need not carry them. The mapping is the core's (text/elision.ts), from `keptLines`.
 */
import { outputOrigin } from '@ctxprune/core';

export function prunedLineLabels(keptLines: readonly number[], totalLines: number): string[] {
  return Array.from(outputOrigin(keptLines, totalLines), (o) => (o < 0 ? '' : String(o + 1)));
}
