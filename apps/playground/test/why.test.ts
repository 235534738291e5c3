/** The hover's reasons (#21) and the heatmap's per-layer scale. */
import { describe, expect, it } from 'vitest';
import type { LineInfo } from '@ctxprune/core';
import { hoverMarkdown, layerScale } from '../src/heatmap';
import { definedNames, keptFor } from '../src/why';

const CODE = [
  'import random', //                       1 dependency
  'import time', //                         2 pruned
  '', //                                    3
  'class Fetcher:', //                      4 repair (header)
  '    def backoff(self, attempt):', //     5 repair (header)
  '        x = 1', //                       6 pruned
  '        return random.uniform(0, 1)', // 7 evidence
  '', //                                    8
  'function f() {', //                      9 repair
  '  return g();', //                       10 evidence
  '}', //                                   11 repair (closer)
];
const info = (line: number, reason: LineInfo['reason'], extra: Partial<LineInfo> = {}): LineInfo => ({
  line,
  kept: reason !== null,
  reason,
  semantic: 0.1,
  dependency: 0.2,
  gate: 0.9,
  keep: 0.09,
  ...extra,
});
const LINES: LineInfo[] = [
  info(1, 'dependency'),
  info(2, null),
  info(3, null),
  info(4, 'repair'),
  info(5, 'repair'),
  info(6, null),
  info(7, 'evidence'),
  info(8, null),
  info(9, 'repair'),
  info(10, 'evidence'),
  info(11, 'repair'),
];

describe('why a line is kept', () => {
  it('names what a line defines', () => {
    expect(definedNames('from typing import Callable, Optional as Opt')).toEqual(['Callable', 'Opt']);
    expect(definedNames('import numpy as np')).toEqual(['np']);
    expect(definedNames("import { a, b as c } from './x';")).toEqual(['a', 'c']);
    expect(definedNames('export async function load(x) {')).toEqual(['load']);
    expect(definedNames('const MAX = 3;')).toEqual(['MAX']);
    expect(definedNames('x = 1')).toEqual([]);
  });
  it('says which line a repair or dependency line was kept for', () => {
    const why = keptFor(LINES, CODE);
    expect(why.get(1)).toBe('dependency of line 7 (it uses `random`)');
    expect(why.get(4)).toBe('repair for line 5: the header of the block it is in, so the pruned code still parses');
    expect(why.get(5)).toBe('repair for line 7: the header of the block it is in, so the pruned code still parses');
    expect(why.get(9)).toBe('repair for line 10: the header of the block it is in, so the pruned code still parses');
    expect(why.get(11)).toBe('repair for line 10: closes the block it is in, so the pruned code still parses');
    expect(why.has(7)).toBe(false);
  });
  it('an import no kept line uses is outline, not something the kept code needs', () => {
    // At 8x the lexical scorer keeps `import time` for its own score; nothing kept uses it.
    const lines = LINES.map((l) => (l.line === 2 ? info(2, 'dependency') : l));
    expect(keptFor(lines, CODE).get(2)).toBe('dependency: outline (imports and definitions score on their own); no kept line uses `time`');
  });
  it('the hover says why before the numbers', () => {
    const md = hoverMarkdown(LINES[3], keptFor(LINES, CODE).get(4));
    expect(md.startsWith('**Line 4 — kept: repair for line 5')).toBe(true);
    expect(md.indexOf('repair for line 5')).toBeLessThan(md.indexOf('0.09'));
    expect(md).toContain('Kept by the repair whatever its own scores');
  });
});

describe('layer scales', () => {
  it('the gate spans its own range, as every layer does', () => {
    const lines = [0.88, 0.93, 0.996].map((g, i) => info(i + 1, null, { gate: g }));
    expect(layerScale(lines, 'gate')).toEqual({ min: 0.88, max: 0.996, relative: true });
    const flat = [0.5, 0.505].map((g, i) => info(i + 1, null, { gate: g }));
    expect(layerScale(flat, 'gate')).toEqual({ min: 0, max: 1, relative: false });
  });
});
