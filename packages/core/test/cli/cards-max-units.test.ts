/** `ctxprune cards --max-units` (#21): the unit cap from the command line. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

let repo: string;
beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'ctxprune-cards-'));
  const body = Array.from(
    { length: 12 },
    (_, i) => `def rate_${i}(x):\n    """Rate number ${i} for the invoice total."""\n    total = x * ${i}\n    return round(total, 2)\n`,
  ).join('\n');
  await writeFile(join(repo, 'rates.py'), body);
});
afterAll(() => rm(repo, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  let code: number;
  try {
    code = await main(args, { out: (s: string) => out.push(s), err: (s: string) => err.push(s) });
  } catch (e) {
    code = -1;
    err.push(String(e));
  }
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('ctxprune cards --max-units', { timeout: 60_000 }, () => {
  const task = ['cards', '--task', 'the invoice total rounds rate_3 and rate_7 wrongly', '--tokens', '1500', '--mode', 'pre-budget'];
  it('caps the units; without it the cap follows the budget', async () => {
    const capped = await run([...task, '--repo', repo, '--max-units', '2', '--json']);
    expect(capped.code).toBe(0);
    expect(JSON.parse(capped.out).items.length).toBeLessThanOrEqual(2);
    const free = await run([...task, '--repo', repo, '--json']);
    expect(free.code).toBe(0);
    expect(JSON.parse(free.out).items.length).toBeGreaterThan(5);
  });
  it('refuses a cap below 1', async () => {
    const r = await run([...task, '--repo', repo, '--max-units', '0']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('--max-units must be a whole number');
  });
});
