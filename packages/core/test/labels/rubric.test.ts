import { describe, expect, it } from 'vitest';
import { rubricLabels } from '../../src/labels/rubric.js';
import { analyze } from '../../src/syntax/index.js';

const code = [
  'import os', // 0
  'from util import helper', // 1
  '', // 2
  'class Store:', // 3
  '    def load(self, path):', // 4
  '        try:', // 5
  '            data = helper(path)', // 6
  '        except OSError:', // 7
  '            data = None', // 8
  '        return data', // 9
  '', // 10
  '    def other(self):', // 11
  '        return os.getcwd()', // 12
  '',
].join('\n');

describe('rubric-guided labels', () => {
  it('semantic = teacher lines; dependency = + headers, companions, used definitions', async () => {
    const st = await analyze(code, 'python');
    const mask = new Uint8Array(st.lineCount);
    mask[6] = 1;
    const l = rubricLabels(mask, 1, st);
    expect([...l.semantic].flatMap((v, i) => (v ? [i] : []))).toEqual([6]);
    const dep = [...l.dependency].flatMap((v, i) => (v ? [i] : []));
    for (const line of [1, 3, 4, 5, 6, 7]) expect(dep).toContain(line);
    for (const line of [0, 11, 12]) expect(dep).not.toContain(line);
  });

  it('a document score below the threshold yields no positive labels', async () => {
    const st = await analyze(code, 'python');
    const mask = new Uint8Array(st.lineCount);
    mask[6] = 1;
    const l = rubricLabels(mask, 0.2, st);
    expect(l.semantic.every((v) => v === 0)).toBe(true);
    expect(l.semanticScore[6]).toBeCloseTo(0.2);
    expect(l.dependencyScore[4]).toBeGreaterThan(0);
  });
});
