/**
 * `result.lines`: per line, whether it is kept and why, with each rubric's marginal, computed only
 * when a caller reads it.
 */
import { rubricMarginals, type RubricEmissions } from '../crf/rubrics.js';
import { REASON_NAMES, Reason } from './reasons.js';
import type { LineInfo, PruneResult } from './types.js';

export function explainLines(rubrics: RubricEmissions, fused: Float64Array, bias: number, keep: Uint8Array, reason: Uint8Array, total: number): LineInfo[] {
  const K = rubrics.heads.length;
  const margins = rubricMarginals(rubrics, fused, bias);
  const out = new Array<LineInfo>(total);
  for (let t = 0; t < total; t++) {
    const kept = keep[t] === 1;
    out[t] = {
      line: t + 1,
      kept,
      reason: kept ? REASON_NAMES[reason[t] || Reason.Repair] : null,
      semantic: margins.heads[0][t],
      dependency: margins.heads[1]?.[t] ?? 0,
      gate: rubrics.gate[K * t],
      keep: margins.fused[t],
    };
  }
  return out;
}

/**
 * `result.lines` as a property computed on its first read (then an ordinary data property, in
 * the same place among the keys): JSON.stringify, spreads and structured clones read it like any
 * other; a caller that never reads it does not pay for it.
 */
export function lazyLines(result: PruneResult, build: () => LineInfo[]): void {
  let make: (() => LineInfo[]) | null = build;
  const settle = (value: LineInfo[]) => {
    make = null;
    Object.defineProperty(result, 'lines', { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(result, 'lines', {
    enumerable: true,
    configurable: true,
    get: () => settle(make ? make() : []),
    set: (value: LineInfo[]) => settle(value),
  });
}
