import { describe, expect, it } from 'vitest';
import { prunedLineLabels } from '../src/lineNumbers';

describe('pruned-side line numbers', () => {
  it('labels kept lines with their original numbers and markers with nothing', () => {
    // Kept 1, 4, 5, 9 of 12: 1, marker(2–3), 4, 5, marker(6–8), 9, marker(10–12).
    expect(prunedLineLabels([1, 4, 5, 9], 12)).toEqual(['1', '', '4', '5', '', '9', '']);
  });
  it('starts with a marker when line 1 is elided and ends without one when the last line is kept', () => {
    expect(prunedLineLabels([3, 4], 4)).toEqual(['', '3', '4']);
  });
  it('everything kept: the identity; nothing kept: no labels (the text is empty)', () => {
    expect(prunedLineLabels([1, 2, 3], 3)).toEqual(['1', '2', '3']);
    expect(prunedLineLabels([], 3)).toEqual([]);
  });
});
