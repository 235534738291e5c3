import { useState } from 'react';
import { TRANSCRIPT } from './samples/transcript';
import { COMPACT_BUDGET, STRATEGIES, readCompactState, writeCompactState } from './tabState';
import { BudgetSlider, Notes, Segmented, useUrlState } from './labForm';
import { useCompaction } from './compaction';
import type { CompactParams, MessageRow } from './workbench/types';

const DEFAULTS: CompactParams = { strategy: 'task_aware_mig', budget: COMPACT_BUDGET.initial, goal: '' };
/** Upper end of the budget slider before the first result says how long the transcript is. */
const FALLBACK_MAX = 3000;

const STRATEGY_INFO: Record<CompactParams['strategy'], { label: string; title: string }> = {
  reactive: { label: 'Reactive', title: 'Baseline: evict the oldest tool outputs first' },
  task_aware: { label: 'Task-aware', title: 'Blocks scored against the goal; least relevant pruned first' },
  mig: { label: 'MIG', title: 'Relevance to the recent context − redundancy; coarse group allocation, then greedy' },
  task_aware_mig: { label: 'Task-aware + MIG', title: 'Relevance to the goal − redundancy; coarse group allocation, then greedy' },
};

const f2 = (x: number | null) => (x === null ? '–' : x.toFixed(2));
const who = (m: { role: string; toolName: string | null }) => (m.toolName ? `tool · ${m.toolName}` : m.role);

/** "History compaction" tab: a sample agent transcript fitted into a token budget by one of the four strategies. */
export function CompactionView({ active }: { active: boolean }) {
  const [params, setParams] = useState<CompactParams>(() => readCompactState(window.location.search, DEFAULTS, 100_000));
  const [opened, setOpened] = useState<string | null>(null);
  const run = useCompaction(params, true);
  const v = run.view;
  const busy = run.status === 'running' || run.status === 'starting';
  const set = (patch: Partial<CompactParams>) => setParams((p) => ({ ...p, ...patch }));
  const max = v?.tokensBefore ?? FALLBACK_MAX;

  useUrlState(params, active, writeCompactState);

  // A key from an older result may no longer be in the store: close it then.
  const overflow = opened && v?.store[opened] ? { key: opened, ...v.store[opened] } : null;

  return (
    <div
      className="lab"
      data-testid="compaction-view"
      data-state={run.status}
      data-result-seq={run.seq}
      data-kept={v ? v.kept.join(',') : ''}
      data-pruned={v ? v.pruned.join(',') : ''}
      data-evicted={v ? v.evicted.join(',') : ''}
    >
      <section className="controls" aria-label="Strategy and budget for history compaction">
        <div className="row">
          <Segmented
            legend="Strategy"
            name="compaction-strategy"
            options={STRATEGIES}
            value={params.strategy}
            onChange={(strategy) => set({ strategy })}
            label={(s) => STRATEGY_INFO[s].label}
            title={(s) => STRATEGY_INFO[s].title}
            testIdPrefix="strategy"
          />
          <BudgetSlider
            value={params.budget}
            shown={Math.min(params.budget, max)}
            range={{ min: COMPACT_BUDGET.min, max, step: COMPACT_BUDGET.step }}
            onChange={(budget) => set({ budget })}
            label="Token budget for the transcript"
            testId="compaction-budget"
          />
          <label className="field grow">
            <span>Goal</span>
            <input
              type="search"
              value={params.goal}
              onChange={(e) => set({ goal: e.target.value })}
              placeholder="Optional — empty: the latest user message (task-aware strategies)"
              aria-label="Goal for task-aware strategies (empty: the latest user message)"
              data-testid="compaction-goal"
            />
          </label>
        </div>
      </section>

      <section className={`stats${busy ? ' busy' : ''}`} aria-label="Compaction result" aria-live="polite" aria-busy={busy}>
        {!v && run.status !== 'error' && (
          <div className="stat wide">
            <span className="spinner" aria-hidden="true" /> Compacting the transcript (the tokenizer and the model load once)…
          </div>
        )}
        {v && (
          <>
            <div className="stat">
              <span className="k">Tokens</span>
              <span className="v" data-testid="cmp-tokens">
                <span data-testid="cmp-tokens-before">{v.tokensBefore}</span> →{' '}
                <span className="accent" data-testid="cmp-tokens-after">
                  {v.tokensAfter}
                </span>
              </span>
              <span className="u">
                budget {v.budget}
                {v.overBudget ? ' · over budget' : ''}
              </span>
            </div>
            <div className="stat">
              <span className="k">Messages</span>
              <span className="v small">
                <span className="st kept">{v.messages.filter((m) => m.status === 'kept' || m.status === 'protected').length} kept</span>{' '}
                <span className="st pruned">{v.pruned.length} pruned</span> <span className="st evicted">{v.evicted.length} evicted</span>
              </span>
            </div>
            <div className="stat">
              <span className="k">Cut by</span>
              <span className="v small" data-testid="cut-by" data-backend={v.backend} title={v.engineNote ?? undefined}>
                {v.cutBy}
                {v.backend !== 'cpu' ? ` · ${v.backend}` : ''}
              </span>
            </div>
            <div className="stat goal">
              <span className="k">Goal used {v.goalSource ? `(${v.goalSource.replace('_', ' ')})` : ''}</span>
              <span className="goal-text" data-testid="goal-used" title={v.goal ?? undefined}>
                {v.goal ?? (params.strategy === 'reactive' ? 'none — reactive evicts oldest tool outputs first' : 'none')}
              </span>
            </div>
            <Notes items={v.engineNote ? [v.engineNote, ...v.degraded] : v.degraded} />
          </>
        )}
      </section>

      <main className="lab-panes">
        <section className="lab-pane" aria-labelledby="blocks-heading">
          <h2 id="blocks-heading" className="lab-title">
            Messages and blocks <small>relevance · redundancy · MIG per block</small>
          </h2>
          <div className="table-wrap">
            {busy && <div className="progress" role="progressbar" aria-label="Compacting" />}
            <ol className="msgs" data-testid="messages">
              {v?.messages.map((m) => (
                <MessageItem key={m.id} m={m} opened={opened} onOpen={setOpened} />
              ))}
            </ol>
          </div>
        </section>
        <section className="lab-pane" aria-labelledby="out-heading">
          {overflow ? (
            <>
              <h2 id="out-heading" className="lab-title">
                read_overflow <code>{overflow.key}</code> <small>original of {overflow.messageId}</small>
                <button type="button" className="btn ghost small close" onClick={() => setOpened(null)} aria-label="Back to the compacted messages">
                  ✕
                </button>
              </h2>
              <pre className="prompt" data-testid="overflow" tabIndex={0} aria-label={`Original content of ${overflow.messageId}`}>
                {overflow.content}
              </pre>
            </>
          ) : (
            <>
              <h2 id="out-heading" className="lab-title">
                Compacted messages <small>{TRANSCRIPT.length} in the sample transcript · click a key to retrieve an original</small>
              </h2>
              <div className="prompt transcript" data-testid="compacted" tabIndex={0} aria-label="Compacted messages">
                {v?.messages.map((m) =>
                  m.content === null ? null : (
                    <div key={m.id} className={`turn r-${m.role} s-${m.status}`}>
                      <div className="turn-head">
                        {who(m)} <small>{m.id}</small>
                      </div>
                      <pre>{m.content}</pre>
                    </div>
                  ),
                )}
              </div>
            </>
          )}
        </section>
      </main>
      {run.status === 'error' && run.error && (
        <div className="error-card" role="alert" data-testid="compaction-error">
          <strong>Compaction failed</strong>
          <p>{run.error.message}</p>
        </div>
      )}
    </div>
  );
}

function MessageItem({ m, opened, onOpen }: { m: MessageRow; opened: string | null; onOpen: (k: string | null) => void }) {
  const status = m.status === 'protected' ? `kept · ${m.protectedBy}` : m.status === 'pruned' && m.prunedBy ? `pruned · ${m.prunedBy}` : m.status;
  return (
    <li className={`msg s-${m.status}`} data-testid="msg-row" data-id={m.id} data-status={m.status}>
      <div className="msg-head">
        <span className={`badge s-${m.status}`}>{status}</span>
        <b className="msg-id">{m.id}</b>
        <span className="muted">{who(m)}</span>
        <span className="msg-tok">
          {m.tokensBefore}
          {m.tokensAfter !== m.tokensBefore ? ` → ${m.tokensAfter}` : ''} tok
        </span>
        {m.key && (
          <button
            type="button"
            className={`key${opened === m.key ? ' on' : ''}`}
            onClick={() => onOpen(opened === m.key ? null : m.key)}
            aria-pressed={opened === m.key}
            aria-label={`read_overflow ${m.key}: show the original of ${m.id}`}
            data-testid={`key-${m.id}`}
          >
            {m.key}
          </button>
        )}
      </div>
      {m.blocks.length > 0 && (
        <ul className="blocks">
          {m.blocks.map((b) => (
            <li key={b.id} className={b.selected ? 'in' : 'out'} data-testid="block-row" data-block-id={b.id}>
              <span className="bid">#{b.id.split('#')[1]}</span>
              <span className="muted">
                L{b.lines[0]}–{b.lines[1]}
              </span>
              <span>rel {f2(b.relevance)}</span>
              <span>red {f2(b.redundancy)}</span>
              <span>MIG {f2(b.mig)}</span>
              <span className="muted">{b.tokens} tok</span>
              <span className="mark">{b.selected ? 'kept' : 'dropped'}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
