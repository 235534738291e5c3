import type { LineInfo } from '@ctxprune/core';

/**
 * The line the panes scroll to when a result arrives: the first line of the kept run whose
 * evidence weighs most (the sum of its evidence lines' semantic scores). Not simply the first
 * evidence line: a module docstring at line 1 can be evidence too, but is not what the reader
 * came for. 0 when nothing is kept.
 */
export function bestEvidenceLine(lines: readonly LineInfo[]): number {
  let start = 0;
  let bestWeight = -1;
  for (let i = 0; i < lines.length;) {
    if (!lines[i].kept) {
      i++;
      continue;
    }
    let j = i;
    let weight = 0;
    for (; j < lines.length && lines[j].kept; j++) if (lines[j].reason === 'evidence') weight += lines[j].semantic;
    if (weight > bestWeight) {
      bestWeight = weight;
      start = lines[i].line;
    }
    i = j;
  }
  return start;
}
