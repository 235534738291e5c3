/**
 * buildUseEdges resolves each identifier through the definitions of its name by binary search
 * over their rows per scope (it looped over every definition of the name: quadratic on a file
 * whose classes all define `__init__` and `run`, ~1 s of a 1 MB prune). Checked here against
 * that loop, kept as the reference, on random files.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildUseEdges } from '../../src/syntax/lexical.js';

/** The resolution as it was: every definition of the name, in row order. */
function reference(lines: string[], definedNames: Map<number, string[]>, defScope: Map<number, number>, parent: Int32Array, cap = 16) {
  const n = lines.length;
  const rows = [...definedNames.keys()].sort((a, b) => a - b);
  const byName = new Map<string, number[]>();
  for (const row of rows) for (const name of new Set(definedNames.get(row))) byName.set(name, [...(byName.get(name) ?? []), row]);
  const scopeOf = (d: number) => (d < n ? (defScope.get(d) ?? -1) : undefined);
  const offsets = [0];
  const targets: number[] = [];
  for (let i = 0; i < n; i++) {
    const chain = [-1];
    for (let p = parent[i], guard = 0; p >= 0 && guard < 256; p = parent[p], guard++) chain.push(p);
    const seen = new Set<string>();
    const picked: number[] = [];
    for (const m of lines[i].matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
      const cands = byName.get(m[0]);
      if (!cands || seen.has(m[0])) continue;
      seen.add(m[0]);
      let before = -1,
        after = -1,
        any = -1;
      for (const d of cands) {
        if (d === i) continue;
        if (chain.includes(scopeOf(d)!)) {
          if (d < i) before = d;
          else if (after < 0) after = d;
        }
        if (any < 0 || Math.abs(d - i) < Math.abs(any - i)) any = d;
      }
      const t = before >= 0 ? before : after >= 0 ? after : any;
      if (t >= 0 && !picked.includes(t)) {
        picked.push(t);
        if (picked.length >= cap) break;
      }
    }
    picked.sort((a, b) => a - b);
    targets.push(...picked);
    offsets.push(targets.length);
  }
  return { offsets, targets };
}

const NAMES = ['run', 'value', 'init', 'x', 'y'];

const fileArb = fc.integer({ min: 1, max: 60 }).chain((n) =>
  fc.record({
    lines: fc.array(fc.array(fc.constantFrom(...NAMES, '(', ' ', '.', '1'), { maxLength: 8 }), { minLength: n, maxLength: n }),
    // Each line's parent: an earlier line or none (a tree, as the analyzers build).
    parents: fc.array(fc.integer({ min: -1, max: n - 1 }), { minLength: n, maxLength: n }),
    defs: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.subarray(NAMES, { minLength: 1 }), fc.integer({ min: -1, max: n - 1 })), { maxLength: 60 }),
  }),
);

describe('buildUseEdges', () => {
  it('resolves every use as the loop over all definitions did (random files)', () => {
    fc.assert(
      fc.property(fileArb, ({ lines: parts, parents, defs }) => {
        const lines = parts.map((p) => p.join(''));
        const n = lines.length;
        const parent = Int32Array.from(parents, (p, i) => (p < i ? p : -1));
        const definedNames = new Map<number, string[]>();
        const defScope = new Map<number, number>();
        for (const [row, names, scope] of defs) {
          definedNames.set(row, names);
          defScope.set(row, scope < row ? scope : -1);
        }
        const got = buildUseEdges(lines, () => false, definedNames, defScope, parent, 'python', 3);
        const want = reference(lines, definedNames, defScope, parent, 3);
        expect(Array.from(got.useOffsets)).toEqual(want.offsets);
        expect(Array.from(got.useTargets)).toEqual(want.targets);
        void n;
      }),
      { seed: 16, numRuns: 500 },
    );
  });
});
