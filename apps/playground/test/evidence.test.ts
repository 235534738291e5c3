/** Where the panes scroll when a result arrives. */
import { describe, expect, it } from 'vitest';
import type { LineInfo } from '@ctxprune/core';
import { bestEvidenceLine } from '../src/evidence';

const line = (n: number, kept: boolean, reason: LineInfo['reason'] = null, semantic = 0): LineInfo => ({
  line: n,
  kept,
  reason: kept ? (reason ?? 'repair') : null,
  semantic,
  dependency: 0,
  gate: 0.5,
  keep: kept ? 1 : 0,
});

describe('bestEvidenceLine', () => {
  it('the first line of the kept run whose evidence weighs most, not the first evidence line', () => {
    const lines = [
      line(1, true, 'evidence', 0.4), // a module docstring
      line(2, false),
      line(3, true, 'repair'), // def header
      line(4, true, 'evidence', 0.3),
      line(5, true, 'evidence', 0.3),
      line(6, false),
    ];
    expect(bestEvidenceLine(lines)).toBe(3);
  });

  it('on equal weight the earlier run', () => {
    expect(bestEvidenceLine([line(1, true, 'evidence', 0.5), line(2, false), line(3, true, 'evidence', 0.5)])).toBe(1);
  });

  it('a kept run with no evidence still counts (weight 0) when it is all there is', () => {
    expect(bestEvidenceLine([line(1, false), line(2, true, 'dependency'), line(3, false)])).toBe(2);
  });

  it('0 when nothing is kept', () => {
    expect(bestEvidenceLine([line(1, false), line(2, false)])).toBe(0);
    expect(bestEvidenceLine([])).toBe(0);
  });
});
