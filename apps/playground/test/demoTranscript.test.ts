/**
 * The playground's demo transcript (src/samples/transcript.ts; Vite-only imports, so tested here): `tool-money` holds
 * Money.rounded, exactly what the goal asks and the read with the highest MIG; the per-group
 * allocation used to evict it while a directory listing (MIG 0.32) stayed. Cut with `scorer: 'auto'`,
 * as the playground's compaction tab cuts (in the pruning worker, with the model).
 */
import { describe, expect, it } from 'vitest';
import { compact } from '@ctxprune/core';
import { TRANSCRIPT } from '../src/samples/transcript';

describe('playground demo transcript', { timeout: 120_000 }, () => {
  it('task_aware_mig at the default budget (1500) keeps Money.rounded; the best block is not starved', async () => {
    const r = await compact(TRANSCRIPT, { strategy: 'task_aware_mig', tokens: 1500, scorer: 'auto' });
    expect(r.tokensAfter).toBeLessThanOrEqual(1500);
    const money = r.dump.messages.find((m) => m.id === 'tool-money')!;
    expect(money.status).not.toBe('evicted');
    expect(r.messages.find((m) => m.id === 'tool-money')!.content).toContain('def rounded(self) -> "Money":');
    // No block left out while a block of lower MIG from another message was taken and dropping
    // the lower ones would have made room (the allocation never starves the best).
    // The goal asks to fix Invoice.total: ledger/invoice.py stays, cut to its lines for the goal.
    expect(r.dump.messages.find((m) => m.id === 'tool-invoice')!.status).toBe('pruned');
    expect(r.messages.find((m) => m.id === 'tool-invoice')!.content).toContain('def total(self)');
    const blocks = r.dump.blocks.filter((b) => b.mig !== null);
    const best = blocks.reduce((a, b) => (b.mig! > a.mig! ? b : a));
    expect(best.selected).toBe(true);
  });

  it('at every budget from 600 to 2400 the budget holds and tool-money outlives the directory listing', async () => {
    for (let tokens = 600; tokens <= 2400; tokens += 300) {
      const r = await compact(TRANSCRIPT, { strategy: 'task_aware_mig', tokens, scorer: 'auto' });
      expect(r.tokensAfter, `${tokens}`).toBeLessThanOrEqual(tokens);
      const st = Object.fromEntries(r.dump.messages.map((m) => [m.id, m.status]));
      if (st['tool-ls'] !== 'evicted') expect(st['tool-money'], `${tokens}`).not.toBe('evicted');
    }
  });
});
