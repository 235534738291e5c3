import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareOutcomes, formatComparison, type OutcomeRecord } from '../../src/bench/compare.js';
import { command, readOutcomes } from '../../src/cli/commands/bench-compare.js';
import type { CliIo } from '../../src/cli/main.js';

const quiet: CliIo = { out: () => undefined, err: () => undefined };

const rec = (id: string, recall: number, extra: Partial<OutcomeRecord> = {}): OutcomeRecord => ({
  id,
  ratio: 4,
  recall,
  language: 'python',
  kind: 'commit',
  ...extra,
});

describe('compareOutcomes', () => {
  it('pairs the cases by id and ratio and gives the paired mean, its standard error and the moves', () => {
    const before = [rec('a', 0.5, { keptLines: [1, 2] }), rec('b', 1, { keptLines: [3] }), rec('c', 0, { keptLines: [] }), rec('d', 0.5)];
    const after = [rec('a', 1, { keptLines: [1, 2, 5] }), rec('b', 1, { keptLines: [4] }), rec('c', 0.5, { keptLines: [9] }), rec('e', 1)];
    const c = compareOutcomes(before, after);
    expect(c.onlyBefore).toBe(1);
    expect(c.onlyAfter).toBe(1);
    const all = c.rows.find((r) => r.group === 'all')!;
    expect(all.cases).toBe(3);
    expect(all.before).toBeCloseTo(0.5, 12);
    expect(all.after).toBeCloseTo(2.5 / 3, 12);
    // differences 0.5, 0, 0.5: mean 1/3, sample variance 1/12, s.e. √(1/36) = 1/6
    expect(all.delta).toBeCloseTo(1 / 3, 12);
    expect(all.stderr).toBeCloseTo(1 / 6, 12);
    expect([all.up, all.down, all.changed]).toEqual([2, 0, 3]);
    expect(all.ranking).toBeUndefined();
  });

  it('groups by language, kind and both, ratio by ratio, and compares the ranking alone where both runs have it', () => {
    const before = [
      rec('a', 1, { rankingRecall: 1 }),
      rec('b', 1, { language: 'typescript', kind: 'description', rankingRecall: 0.5 }),
      rec('a', 0, { ratio: 8, rankingRecall: 0 }),
    ];
    const after = [
      rec('a', 0, { rankingRecall: 1 }),
      rec('b', 1, { language: 'typescript', kind: 'description', rankingRecall: 1 }),
      rec('a', 1, { ratio: 8, rankingRecall: 0 }),
    ];
    const rows = compareOutcomes(before, after).rows;
    expect(rows.map((r) => `${r.ratio} ${r.group} ${r.cases}`)).toEqual([
      '4 all 2',
      '4 python 1',
      '4 typescript 1',
      '4 commit 1',
      '4 description 1',
      '4 python commit 1',
      '4 typescript description 1',
      '8 all 1',
      '8 python 1',
      '8 commit 1',
      '8 python commit 1',
    ]);
    const all4 = rows[0];
    expect([all4.delta, all4.up, all4.down]).toEqual([-0.5, 0, 1]);
    expect(all4.ranking).toEqual({ delta: 0.25, stderr: 0.25, up: 1, down: 0 });
    expect(rows[7].delta).toBe(1);
    expect(rows[7].stderr).toBe(0);
  });

  it('formats a markdown table and says what went unpaired', () => {
    const text = formatComparison(compareOutcomes([rec('a', 0.25), rec('x', 1)], [rec('a', 0.75)]));
    expect(text.split('\n')[2]).toBe('| 4× | all | 1 | 0.2500 | 0.7500 | +0.5000 ± 0.0000 | 1 / 0 | 0 | – |');
    expect(text).toContain('unpaired: 1 case(s) only in the first run, 0 only in the second');
  });
});

describe('ctxprune bench compare', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctxprune-compare-'));
  const write = (name: string, lines: string[]) => {
    const p = join(dir, name);
    writeFileSync(p, lines.join('\n') + '\n');
    return p;
  };

  it('prints the comparison of two --out files', async () => {
    const a = write('a.jsonl', [JSON.stringify(rec('a', 0)), JSON.stringify(rec('b', 1))]);
    const b = write('b.jsonl', [JSON.stringify(rec('a', 1)), JSON.stringify(rec('b', 1))]);
    const out: string[] = [];
    const code = await command.run([a, b], { ...quiet, out: (s) => out.push(s) });
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('| 4× | all | 2 | 0.5000 | 1.0000 | +0.5000 ± 0.5000 | 1 / 0 | 0 | – |');
  });

  it('rejects a line that is not one of bench --out, and files that share no case, with typed errors', async () => {
    const bad = write('bad.jsonl', [JSON.stringify(rec('a', 0)), '{"id": "b", "ratio": 4}']);
    await expect(readOutcomes(bad)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: `${bad}:2: not a line of ctxprune bench --out (needs id, ratio and recall)`,
    });
    const notJson = write('nj.jsonl', ['{']);
    await expect(readOutcomes(notJson)).rejects.toMatchObject({ code: 'INVALID_OPTION', message: `${notJson}:1: not valid JSON` });
    await expect(readOutcomes(join(dir, 'missing.jsonl'))).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    const a = write('one.jsonl', [JSON.stringify(rec('a', 0))]);
    const b = write('two.jsonl', [JSON.stringify(rec('z', 0))]);
    await expect(command.run([a, b], quiet)).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(command.run([a], quiet)).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});
