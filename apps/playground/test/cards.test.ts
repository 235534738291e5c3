/**
 * Cards on the playground's ledger sample (#21): the budget is filled rather than capped at five
 * units, the cap is an option, and titles and triggers read like a person wrote them.
 */
import { describe, expect, it } from 'vitest';
// Internals of the core's card builder (not public API), by path.
import { renderRawUnit } from '../../../packages/core/src/cards/assemble.ts';
import { firstDocLine, sharedTaskWords, unitHeading } from '../../../packages/core/src/cards/memory-cards.ts';
import type { ContextUnit } from '../../../packages/core/src/cards/types.ts';
import { LEDGER_TASK } from '../src/samples/ledgerRepo';
import { runCards } from '../src/workbench/compute';

describe('cards fill the budget', { timeout: 60_000 }, () => {
  it('600 tokens: more than five units when more fit, never over the budget', async () => {
    const v = await runCards({ task: LEDGER_TASK, budget: 600, selector: 'reference', mode: 'pre-budget' });
    expect(v.tokens).toBeLessThanOrEqual(600);
    expect(v.items.length).toBeGreaterThan(5);
    // What stopped the pack is the budget, not a fixed cap.
    expect(v.rows.some((r) => r.decision === 'max_units')).toBe(false);
    expect(v.tokens).toBeGreaterThan(600 * 0.8);
  });
  it('post-selection (the default mode) fills the budget too: cards cost less than the raw text they were packed at', async () => {
    for (const budget of [600, 1500]) {
      const v = await runCards({ task: LEDGER_TASK, budget, selector: 'reference', mode: 'post-selection' });
      expect(v.tokens).toBeLessThanOrEqual(budget);
      // Was 5 units and 336 of 600 tokens, 10 units and 620 of 1,500.
      expect(v.tokens).toBeGreaterThan(budget * 0.9);
      expect(v.items.length).toBeGreaterThan(5);
    }
  });
  it('the cap is an option', async () => {
    const v = await runCards({ task: LEDGER_TASK, budget: 600, selector: 'reference', mode: 'pre-budget', maxUnits: 3 });
    expect(v.items.length).toBe(3);
    expect(v.rows.filter((r) => r.decision === 'max_units').length).toBeGreaterThan(0);
  });
});

describe('cards read like a person wrote them', { timeout: 60_000 }, () => {
  it('titles: a symbol\'s name and its first doc line; no "failure failure"', async () => {
    const v = await runCards({ task: LEDGER_TASK, budget: 1500, selector: 'reference', mode: 'post-selection' });
    expect(v.text).not.toMatch(/# (\w+) \1\b/);
    expect(v.text).not.toMatch(/\[(\w+)\] \1\b/);
    for (const i of v.items.filter((x) => x.card)) {
      const header = i.text.split('\n')[0];
      expect(header).toMatch(/^\[\w+\] \S/);
      const when = i.text.split('\n')[1];
      expect(when).toMatch(/^when: When (the task mentions|working on) /);
      // The task's words as written (e.g. Invoice.total), never lowercase stems it does not contain.
      const words = when.replace(/^when: When the task mentions /, '').split(/, | and /);
      if (when.includes('mentions')) for (const w of words) expect(LEDGER_TASK).toContain(w);
    }
  });
  it('helpers', () => {
    const sym: ContextUnit = {
      id: 'symbol:a.py#Invoice.total',
      type: 'symbol',
      source: 'a.py',
      title: 'Invoice.total',
      tokens: 10,
      confidence: 1,
      span: { startLine: 3, endLine: 6 },
      content: 'def total(self):\n    """Sum of the lines, in cents, rounded once.\n\n    More.\n    """\n    return sum(self.lines)',
    };
    expect(firstDocLine(sym.content)).toBe('Sum of the lines, in cents, rounded once.');
    expect(firstDocLine('/**\n * Parse a header.\n */\nfunction f() {}')).toBe('Parse a header.');
    expect(firstDocLine('// Keeps the cache warm.\nfunction g() {}')).toBe('Keeps the cache warm.');
    expect(unitHeading(sym)).toBe('Invoice.total: Sum of the lines, in cents, rounded once.');
    const failure: ContextUnit = {
      id: 'failure:0',
      type: 'failure',
      source: 'failure',
      tokens: 5,
      confidence: 1,
      content: 'Rounding each line failed the ledger test. It drifted.',
    };
    expect(unitHeading(failure)).toBe('Rounding each line failed the ledger test.');
    expect(renderRawUnit(failure).split('\n')[0]).toBe('# failure Rounding each line failed the ledger test.');
    expect(
      sharedTaskWords(
        { query: 'url_for raises BuildError for a url with a dot' },
        { ...sym, content: 'def url_for(endpoint):\n    raise BuildError(endpoint)' },
      ),
    ).toEqual(['url_for', 'BuildError']);
  });
});
