/**
 * The cards tab's work, as a plain function over the sample (run in the workbench worker;
 * unit-tested directly). Everything comes from @ctxprune/core; this only shapes the result.
 */
import { assembleContext, buildContextGraph, loadDefaultTokenCounter, type ContextGraph, type TokenCounter } from '@ctxprune/core';
import { LEDGER_FILES, LEDGER_MEMORIES, LEDGER_RULES } from '../samples/ledgerRepo';
import type { CardsParams, CardsView, UnitRow } from './types';

let graph: Promise<ContextGraph> | null = null;

/** The sample's graph, built once (files → classes and symbols, memories, rules, edges). */
function ledgerGraph(counter: TokenCounter): Promise<ContextGraph> {
  graph ??= buildContextGraph({ files: LEDGER_FILES, memories: LEDGER_MEMORIES, rules: LEDGER_RULES, counter, instanceId: 'ledger' });
  return graph;
}

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

export async function runCards(params: CardsParams, counter?: TokenCounter): Promise<CardsView> {
  const c = counter ?? (await loadDefaultTokenCounter());
  const g = await ledgerGraph(c);
  const res = await assembleContext({ id: 'playground', query: params.task }, g, {
    budget: params.budget,
    selector: params.selector,
    mode: params.mode,
    counter: c,
    ...(params.maxUnits !== undefined ? { maxUnits: params.maxUnits } : {}),
  });
  const scored = new Map(res.candidates.map((s) => [s.unit.id, s]));
  const inText = new Set(res.items.map((i) => i.unit.id));
  const rows: UnitRow[] = res.decisions.map((d) => {
    const s = scored.get(d.id);
    const u = s?.unit ?? g.get(d.id)!;
    return {
      id: d.id,
      type: u.type,
      source: u.source,
      title: u.title ?? (u.type === 'file' || u.type === 'symbol' || u.type === 'class' ? null : clip(u.content, 80)),
      tokens: u.tokens,
      stale: !!u.stale,
      via: s ? s.via : 'expansion',
      retrieval: s ? r4(s.retrieval) : null,
      action_shift: s ? r4(s.utility.action_shift) : null,
      necessity: s ? r4(s.utility.necessity) : null,
      expected_outcome_uplift: s ? r4(s.utility.expected_outcome_uplift) : null,
      negative_transfer_risk: s ? r4(s.utility.negative_transfer_risk) : null,
      cost: s ? r4(s.utility.cost) : null,
      score: r4(d.score),
      packCost: d.cost,
      decision: d.decision,
      selected: inText.has(d.id),
      expandedFrom: d.expandedFrom ?? null,
    };
  });
  // Selected first (in prompt order), then the rest by score.
  const order = new Map(res.items.map((i, k) => [i.unit.id, k]));
  rows.sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9) || b.score - a.score || (a.id < b.id ? -1 : 1));
  return {
    kind: 'cards',
    params,
    tokenizer: c.name,
    graph: { units: g.units.length, edges: g.edges.length, files: Object.keys(LEDGER_FILES).length },
    rows,
    items: res.items.map((i) => ({ unitId: i.unit.id, score: r4(i.score), tokens: i.tokens, text: i.text, card: !!i.card })),
    text: res.text,
    tokens: res.tokens,
    audit: res.audit,
  };
}
