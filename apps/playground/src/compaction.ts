/**
 * The compaction tab's run: compact() of the sample transcript in the pruning worker, which holds
 * the model that cuts the tool outputs (as `ctxprune compact` and the MCP server cut them), shaped
 * for the view. A newer request supersedes an older one in the worker's client too.
 */
import { isAbortError, type WorkerCompactResult } from '@ctxprune/core/worker';
import { getPruner } from './pruner';
import { TRANSCRIPT } from './samples/transcript';
import { useLatestRun, type RunReply, type RunState } from './useLatestRun';
import type { CompactParams, CompactView, MessageRow } from './workbench/types';

/** The worker's result as the tab shows it (pure). */
export function toCompactView(params: CompactParams, r: WorkerCompactResult): CompactView {
  const d = r.dump;
  const out = new Map(r.messages.map((m) => [m.id, m.content]));
  const messages: MessageRow[] = d.messages.map((m) => ({
    id: m.id,
    role: m.role,
    toolName: m.toolName ?? null,
    status: m.status,
    protectedBy: m.protectedBy ?? null,
    tokensBefore: m.tokensBefore,
    tokensAfter: m.tokensAfter,
    key: m.key ?? null,
    prunedBy: m.prunedBy ?? null,
    blocks: d.blocks
      .filter((b) => b.messageId === m.id)
      .map((b) => ({
        id: b.id,
        lines: b.lines,
        tokens: b.tokens,
        relevance: b.relevance,
        redundancy: b.redundancy,
        mig: b.mig,
        group: b.group,
        selected: b.selected,
      })),
    content: out.get(m.id) ?? null,
  }));
  const store: CompactView['store'] = {};
  for (const [k, e] of Object.entries(r.store)) store[k] = { messageId: e.messageId, content: e.content };
  return {
    kind: 'compact',
    params,
    tokenizer: d.tokenizer,
    cutBy: r.engine.scorer,
    backend: r.engine.backend,
    engineNote: r.engine.note,
    tokensBefore: r.tokensBefore,
    tokensAfter: r.tokensAfter,
    budget: r.budget,
    overBudget: r.overBudget,
    degraded: r.degraded.map((x) => x.message),
    goal: d.goal,
    goalSource: d.goalSource,
    relevanceBackend: d.relevanceBackend,
    groups: d.groups,
    messages,
    kept: r.kept,
    pruned: r.pruned,
    evicted: r.evicted,
    store,
  };
}

async function compactSample(params: CompactParams): Promise<RunReply<CompactView>> {
  const goal = params.goal.trim();
  const t0 = performance.now();
  try {
    const r = await getPruner().compact(TRANSCRIPT, { strategy: params.strategy, tokens: params.budget, engine: 'auto', ...(goal ? { goal } : {}) });
    return { ok: true, view: toCompactView(params, r), ms: performance.now() - t0 };
  } catch (e) {
    if (isAbortError(e)) return { ok: false, superseded: true };
    const x = e as { message?: string; code?: string };
    return { ok: false, error: { message: x?.message ?? String(e), ...(x?.code ? { code: x.code } : {}) } };
  }
}

/** Only the budget moved: the worker's cache holds the transcript's cuts (CompactOptions.preparations). */
const budgetOnly = (a: CompactParams, b: CompactParams) => a.strategy === b.strategy && a.goal === b.goal;

export const useCompaction = (params: CompactParams, enabled: boolean): RunState<CompactView> => useLatestRun(params, enabled, compactSample, budgetOnly);
