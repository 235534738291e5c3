/**
 * Which tab is shown, and the state of the cards and compaction tabs, in the URL (query string).
 * The link reproduces the tab that is open: `?tab=cards&task=…&budget=…&selector=…&mode=…`,
 * `?tab=compaction&strategy=…&budget=…&goal=…`; the line-pruning tab keeps its own parameters
 * (urlState.ts) and needs no `tab`.
 */
import type { CompactionStrategy, CompressionMode, Selector } from '@ctxprune/core';
import type { CardsParams, CompactParams } from './workbench/types';

export type TabId = 'pruning' | 'cards' | 'compaction' | 'pack';
export const TABS: { id: TabId; label: string }[] = [
  { id: 'pruning', label: 'Line pruning' },
  { id: 'cards', label: 'Context cards' },
  { id: 'compaction', label: 'History compaction' },
  { id: 'pack', label: 'Repository pack' },
];

export const SELECTORS: readonly Selector[] = ['reference', 'mig'];
export const MODES: readonly CompressionMode[] = ['post-selection', 'pre-budget', 'raw'];
/** The four strategies, in the order of COMPACTION_STRATEGIES (kept here so this module stays type-only on the core). */
export const STRATEGIES: readonly CompactionStrategy[] = ['reactive', 'task_aware', 'mig', 'task_aware_mig'];

export const CARDS_BUDGET = { min: 100, max: 2000, step: 50, initial: 600 } as const;
export const COMPACT_BUDGET = { min: 300, step: 50, initial: 1500 } as const;

export function readTab(search: string): TabId {
  const t = new URLSearchParams(search).get('tab');
  return TABS.some((x) => x.id === t) ? (t as TabId) : 'pruning';
}

const int = (v: string | null, min: number, max: number): number | undefined => {
  const n = Math.round(Number(v));
  return v !== null && v.trim() !== '' && Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : undefined;
};

export function readCardsState(search: string, defaults: CardsParams): CardsParams {
  const p = new URLSearchParams(search);
  if (p.get('tab') !== 'cards') return defaults;
  const sel = p.get('selector') as Selector | null;
  const mode = p.get('mode') as CompressionMode | null;
  return {
    task: p.get('task') ?? defaults.task,
    budget: int(p.get('budget'), CARDS_BUDGET.min, CARDS_BUDGET.max) ?? defaults.budget,
    selector: sel && SELECTORS.includes(sel) ? sel : defaults.selector,
    mode: mode && MODES.includes(mode) ? mode : defaults.mode,
    ...((u) => (u !== undefined ? { maxUnits: u } : {}))(int(p.get('units'), 1, 100)),
  };
}

export function writeCardsState(s: CardsParams): string {
  const p = new URLSearchParams({ tab: 'cards', task: s.task, budget: String(s.budget), selector: s.selector, mode: s.mode });
  if (s.maxUnits !== undefined) p.set('units', String(s.maxUnits));
  return '?' + p.toString();
}

export function readCompactState(search: string, defaults: CompactParams, maxBudget: number): CompactParams {
  const p = new URLSearchParams(search);
  if (p.get('tab') !== 'compaction') return defaults;
  const st = p.get('strategy') as CompactionStrategy | null;
  return {
    strategy: st && STRATEGIES.includes(st) ? st : defaults.strategy,
    budget: int(p.get('budget'), COMPACT_BUDGET.min, maxBudget) ?? defaults.budget,
    goal: p.get('goal') ?? defaults.goal,
  };
}

export function writeCompactState(s: CompactParams): string {
  const p = new URLSearchParams({ tab: 'compaction', strategy: s.strategy, budget: String(s.budget) });
  if (s.goal.trim()) p.set('goal', s.goal);
  return '?' + p.toString();
}
