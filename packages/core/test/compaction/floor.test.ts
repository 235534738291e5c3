import { describe, expect, it } from 'vitest';
import { floorBest, type FloorUnit } from '../../src/compaction/floor.js';

// Message 1: the read rated best as a whole, whose first cut (100 tokens) was left out; message 2: a
// dense listing (two cuts taken); message 3: a distractor (one cut taken).
const units: FloorUnit[] = [
  { id: 'r#0', msg: 1, level: 0, tokens: 100 },
  { id: 'r#1', msg: 1, level: 1, tokens: 120, after: 'r#0' },
  { id: 'g#0', msg: 2, level: 0, tokens: 30 },
  { id: 'g#1', msg: 2, level: 1, tokens: 60, after: 'g#0' },
  { id: 'd#0', msg: 3, level: 0, tokens: 40 },
];
const docRel = new Map([
  [1, 1],
  [2, 0.7],
  [3, 0.2],
]);
const prio: Record<string, number> = { 'r#0': 0.75, 'r#1': 0.6, 'g#0': 0.8, 'g#1': 0.85, 'd#0': 0.1 };
const priority = (u: FloorUnit) => prio[u.id];

describe('compaction: the best message is never starved (floor.ts)', () => {
  it("takes the best message's first cut, dropping other messages' leaves lowest priority first", () => {
    const selected = ['g#0', 'g#1', 'd#0'];
    // 130 tokens free: 130 in use; the distractor (0.1) goes first, then the listing's last cut.
    expect(floorBest(units, selected, docRel, [1, 2, 3], priority, 130)).toBe('r#0');
    expect(selected.sort()).toEqual(['g#0', 'r#0']);
  });

  it('drops only what it must', () => {
    const selected = ['g#0', 'g#1', 'd#0'];
    expect(floorBest(units, selected, docRel, [1, 2, 3], priority, 200)).toBe('r#0');
    expect(selected.sort()).toEqual(['g#0', 'g#1', 'r#0']);
  });

  it('never drops a cut another taken cut extends', () => {
    const selected = ['g#0', 'g#1'];
    // 100 free: g#1 (a leaf) goes, then g#0 (a leaf once g#1 is out).
    expect(floorBest(units, selected, docRel, [1, 2, 3], priority, 100)).toBe('r#0');
    expect(selected).toEqual(['r#0']);
  });

  it('leaves the selection alone when the first cut cannot be made to fit', () => {
    const selected = ['g#0', 'd#0'];
    expect(floorBest(units, selected, docRel, [1, 2, 3], priority, 90)).toBeNull();
    expect(selected).toEqual(['g#0', 'd#0']);
  });

  it('does nothing when the best first cut is already in, or no message is rated above 0', () => {
    const selected = ['r#0', 'g#0'];
    expect(floorBest(units, selected, docRel, [1, 2, 3], priority, 130)).toBe('r#0');
    expect(selected).toEqual(['r#0', 'g#0']);
    const flat = new Map([
      [1, 0],
      [2, 0],
    ]);
    const other = ['g#0'];
    expect(floorBest(units, other, flat, [1, 2], priority, 130)).toBeNull();
    expect(other).toEqual(['g#0']);
  });

  it('only considers the candidate messages (e.g. not the protected ones)', () => {
    const selected = ['g#0', 'g#1'];
    expect(floorBest(units, selected, docRel, [2, 3], priority, 100)).toBe('g#0');
    expect(selected).toEqual(['g#0', 'g#1']);
  });
});

describe('compaction: floorBest ties', () => {
  it('of two messages rated alike (two copies of a read), the later one is the best: the newer copy MIG kept stays the only one', () => {
    const copies: FloorUnit[] = [
      { id: 'old#0', msg: 1, level: 0, tokens: 50 },
      { id: 'new#0', msg: 4, level: 0, tokens: 50 },
      { id: 'doc#0', msg: 6, level: 0, tokens: 20 },
    ];
    const selected = ['new#0', 'doc#0'];
    const rated = new Map([
      [1, 1],
      [4, 1],
      [6, 0.4],
    ]);
    expect(floorBest(copies, selected, rated, [1, 4, 6], () => 0.5, 70)).toBe('new#0');
    expect(selected).toEqual(['new#0', 'doc#0']);
  });
});
