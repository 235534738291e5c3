/**
 * A sliced parse (what prune does, with `pause()` between slices) must not depend on how fast the
 * machine is: where tree-sitter halts changes the tree it builds for a file with syntax errors, so
 * slices are cut by a count of progress callbacks, never by time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countErrors, parse } from '../../src/syntax/index.js';

// TypeScript read as Python: error recovery all the way down, and long enough for many slices.
const BROKEN = Array.from(
  { length: 1500 },
  (_, i) => `interface Row${i}<T> { id: T; tags?: string[] }\nconst f${i} = (a: number): string => \`\${a}\` as const;\n`,
).join('');

async function slicedTree(): Promise<{ tree: string; errors: number; pauses: number }> {
  let pauses = 0;
  const tree = await parse('python', BROKEN, async () => {
    pauses++;
  });
  try {
    return { tree: tree.rootNode.toString(), errors: countErrors(tree), pauses };
  } finally {
    tree.delete();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sliced parse', () => {
  it('builds the same tree on a slow machine as on a fast one', async () => {
    const fast = await slicedTree();
    expect(fast.errors).toBeGreaterThan(0);
    expect(fast.pauses).toBeGreaterThan(3);
    // A machine 1,000× slower, as far as any clock can tell: 50 ms pass between two reads of it.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 50));
    const slow = await slicedTree();
    expect(slow.pauses).toBe(fast.pauses);
    expect(slow.tree).toBe(fast.tree);
  });

  it('builds the same tree as one uninterrupted parse of a valid file', async () => {
    const valid = Array.from({ length: 1500 }, (_, i) => `def f${i}(a, b=${i}):\n    return [a, b, "${i}"]\n`).join('');
    const whole = await parse('python', valid);
    const sliced = await parse('python', valid, async () => {});
    try {
      expect(countErrors(sliced)).toBe(0);
      expect(sliced.rootNode.toString()).toBe(whole.rootNode.toString());
    } finally {
      whole.delete();
      sliced.delete();
    }
  });
});
