/**
 * The playground's demo transcript (src/samples/transcript.ts; Vite-only imports, so tested here): `tool-money` holds
 * Money.rounded, exactly what the goal asks and the read with the highest MIG; the per-group
 * allocation used to evict it while a directory listing (MIG 0.32) stayed.
 */
import { describe, expect, it } from 'vitest';
import { compact } from '@ctxprune/core';
import { TRANSCRIPT } from '../src/samples/transcript';

describe('playground demo transcript', { timeout: 120_000 }, () => {
  it('task_aware_mig at the default budget (1500) keeps Money.rounded and the failing test; every read keeps its first cut', async () => {
    const r = await compact(TRANSCRIPT, { strategy: 'task_aware_mig', tokens: 1500 });
    expect(r.tokensAfter).toBeLessThanOrEqual(1500);
    const status = Object.fromEntries(r.dump.messages.map((m) => [m.id, m.status]));
    expect(r.messages.find((m) => m.id === 'tool-money')!.content).toContain('def rounded(self) -> "Money":');
    expect(status['tool-test-focused']).toBe('kept');
    // Expected evidence per token gives every read its first cut before it deepens one (compaction/gain.ts):
    // nothing is evicted; ledger/invoice.py (the goal names Invoice.total) stays cut to its eighth, which
    // holds subtotal's rounding loop (`def total` comes with the next cut, at 2400 tokens below).
    expect(r.evicted.filter((id) => id.startsWith('tool-'))).toEqual([]);
    expect(status['tool-invoice']).toBe('pruned');
    expect(r.messages.find((m) => m.id === 'tool-invoice')!.content).toContain('total = total + item.net().rounded()');
    // The packing's order: no block left out while one that adds less per token was taken and would have made room.
    const blocks = r.dump.blocks.filter((b) => b.gain !== null);
    expect(blocks.length).toBeGreaterThan(0);
    const density = (b: (typeof blocks)[number]) => b.gain! / b.tokens;
    const best = blocks.reduce((a, b) => (density(b) > density(a) ? b : a));
    expect(best.selected).toBe(true);
  });

  it('at 2400 tokens the invoice read keeps Invoice.total', async () => {
    const r = await compact(TRANSCRIPT, { strategy: 'task_aware_mig', tokens: 2400 });
    expect(r.messages.find((m) => m.id === 'tool-invoice')!.content).toContain('def total(self)');
  });

  it('at every budget from 600 to 2400 the budget holds and tool-money outlives the directory listing', async () => {
    for (let tokens = 600; tokens <= 2400; tokens += 300) {
      const r = await compact(TRANSCRIPT, { strategy: 'task_aware_mig', tokens });
      expect(r.tokensAfter, `${tokens}`).toBeLessThanOrEqual(tokens);
      const st = Object.fromEntries(r.dump.messages.map((m) => [m.id, m.status]));
      if (st['tool-ls'] !== 'evicted') expect(st['tool-money'], `${tokens}`).not.toBe('evicted');
    }
  });
});
