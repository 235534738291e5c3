import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const SAMPLES = join(import.meta.dirname, '../fixtures/samples');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

describe('ctxprune prune --timings', () => {
  it('reports each start-up stage on stderr, and in --json as startup', async () => {
    const c = capture();
    const code = await main(
      ['prune', join(SAMPLES, 'server.go'), '--query', 'expired keys', '--ratio', '4', '--scorer', 'lexical', '--json', '--timings'],
      c.io,
    );
    expect(code).toBe(0);
    const r = JSON.parse(c.out.join(''));
    expect(Object.keys(r.startup)).toEqual(['node', 'read', 'scorer', 'tokenizer', 'grammar', 'loads', 'prune', 'total']);
    for (const v of Object.values(r.startup)) expect(v).toBeGreaterThanOrEqual(0);
    // The loads run side by side: together they take as long as the slowest one.
    expect(r.startup.loads).toBeGreaterThanOrEqual(Math.max(r.startup.scorer, r.startup.tokenizer, r.startup.grammar) - 0.2);
    expect(r.startup.total).toBeGreaterThanOrEqual(r.startup.loads + r.startup.prune - 0.2);
    expect(c.err.join('')).toMatch(
      /^timings \(ms\): node and modules [\d.]+, read [\d.]+, loads in parallel [\d.]+ \(scorer [\d.]+, tokenizer [\d.]+, grammar [\d.]+\), prune [\d.]+, total [\d.]+/m,
    );
  });

  it('without --timings the JSON has no startup field and stderr no timings line', async () => {
    const c = capture();
    expect(await main(['prune', join(SAMPLES, 'server.go'), '--query', 'expired keys', '--ratio', '4', '--scorer', 'lexical', '--json'], c.io)).toBe(0);
    expect(JSON.parse(c.out.join(''))).not.toHaveProperty('startup');
    expect(c.err.join('')).not.toMatch(/timings/);
  });

  it('an unknown scorer is refused before the file is read', async () => {
    const c = capture();
    expect(await main(['prune', '/nonexistent/file.py', '--query', 'q', '--ratio', '4', '--scorer', 'nope'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/unknown scorer "nope"/);
  });
});
