import { describe, expect, it } from 'vitest';
import { readCardsState, readCompactState, readTab, writeCardsState, writeCompactState } from '../src/tabState';
import type { CardsParams, CompactParams } from '../src/workbench/types';

const cards: CardsParams = { task: 'fix rounding', budget: 600, selector: 'reference', mode: 'post-selection' };
const comp: CompactParams = { strategy: 'task_aware_mig', budget: 1500, goal: '' };

describe('tab URL state', () => {
  it('defaults to the line-pruning tab and ignores unknown tabs', () => {
    expect(readTab('')).toBe('pruning');
    expect(readTab('?sample=python-fetcher')).toBe('pruning');
    expect(readTab('?tab=nope')).toBe('pruning');
    expect(readTab('?tab=cards')).toBe('cards');
    expect(readTab('?tab=compaction')).toBe('compaction');
  });

  it('round-trips the cards tab', () => {
    const s: CardsParams = { task: 'Invoice.total & tax?', budget: 350, selector: 'mig', mode: 'pre-budget' };
    expect(readCardsState(writeCardsState(s), cards)).toEqual(s);
  });

  it('clamps and validates cards parameters', () => {
    expect(readCardsState('?tab=cards&budget=99999&selector=x&mode=y', cards)).toEqual({ ...cards, budget: 2000 });
    expect(readCardsState('?tab=compaction&budget=300', cards)).toEqual(cards);
  });

  it('round-trips the compaction tab, the goal only when set', () => {
    const s: CompactParams = { strategy: 'reactive', budget: 900, goal: 'keep the failing test' };
    expect(readCompactState(writeCompactState(s), comp, 3000)).toEqual(s);
    expect(writeCompactState(comp)).not.toContain('goal');
    expect(readCompactState('?tab=compaction&strategy=bogus&budget=10', comp, 3000)).toEqual({ ...comp, budget: 300 });
  });
});
