import { useState } from 'react';
import { AUDIT_THRESHOLDS, defaultMaxUnits } from '@ctxprune/core';
import { LEDGER_FILES, LEDGER_MEMORIES, LEDGER_RULES, LEDGER_TASK } from './samples/ledgerRepo';
import { CARDS_BUDGET, MODES, SELECTORS, readCardsState, writeCardsState } from './tabState';
import { BudgetSlider, Notes, Segmented, TaskField, useUrlState } from './labForm';
import { useCards } from './workbench/client';
import type { CardsParams, UnitRow } from './workbench/types';

const DEFAULTS: CardsParams = { task: LEDGER_TASK, budget: CARDS_BUDGET.initial, selector: 'reference', mode: 'post-selection' };

const f2 = (x: number | null) => (x === null ? '–' : x.toFixed(2));
const MODE_LABELS: Record<CardsParams['mode'], string> = {
  'post-selection': 'Post-selection (pick on raw cost, render cards)',
  'pre-budget': 'Pre-budget (pack card costs)',
  raw: 'Raw units (no cards)',
};
const DECISION_LABELS: Record<UnitRow['decision'], string> = {
  selected: 'selected',
  below_min_score: 'below min score',
  over_budget: 'over budget',
  redundant: 'redundant',
  conflict: 'conflict',
  max_units: 'max units',
};

/** "Context cards" tab: CICL retrieval, utility scores, budgeted assembly and the card audit on a sample repository. */
export function CardsView({ active }: { active: boolean }) {
  const [params, setParams] = useState<CardsParams>(() => readCardsState(window.location.search, DEFAULTS));
  const run = useCards(params, true);
  const v = run.view;
  const busy = run.status === 'running' || run.status === 'starting';
  const set = (patch: Partial<CardsParams>) => setParams((p) => ({ ...p, ...patch }));

  useUrlState(params, active, writeCardsState);

  const a = v?.audit;
  const T = AUDIT_THRESHOLDS;
  const rates = a
    ? [
        { k: 'required fields', v: a.requiredFieldRate, ok: a.requiredFieldRate >= T.requiredFieldRate, t: `≥ ${T.requiredFieldRate}` },
        { k: 'actionable hints', v: a.actionableHintRate, ok: a.actionableHintRate >= T.actionableHintRate, t: `≥ ${T.actionableHintRate}` },
        { k: 'compression success', v: a.compressionSuccessRate, ok: a.compressionSuccessRate >= T.compressionSuccessRate, t: `≥ ${T.compressionSuccessRate}` },
        { k: 'placeholders', v: a.placeholderRate, ok: a.placeholderRate <= T.placeholderRate, t: `≤ ${T.placeholderRate}` },
        { k: 'mean compression', v: a.meanCompressionRatio, ok: a.meanCompressionRatio < T.meanCompressionRatio, t: `< ${T.meanCompressionRatio}` },
      ]
    : [];

  return (
    <div
      className="lab"
      data-testid="cards-view"
      data-state={run.status}
      data-result-seq={run.seq}
      data-selected={v ? v.items.map((i) => i.unitId).join(',') : ''}
    >
      <section className="controls" aria-label="Task and budget for context cards">
        <TaskField
          value={params.task}
          onChange={(task) => set({ task })}
          testId="cards-task"
          placeholder="What is the agent about to do? e.g. “fix the rounding in Invoice.total”"
        />
        <div className="row">
          <BudgetSlider value={params.budget} range={CARDS_BUDGET} onChange={(budget) => set({ budget })} label="Card budget in tokens" testId="cards-budget" />
          <Segmented
            legend="Selector"
            name="cards-selector"
            options={SELECTORS}
            value={params.selector}
            onChange={(selector) => set({ selector })}
            label={(s) => (s === 'mig' ? 'MIG' : 'Reference')}
            title={(s) =>
              s === 'mig'
                ? 'MIG: relevance − redundancy, group allocation, then greedy'
                : 'Reference packer: score thresholds, redundancy and conflicts, up to the unit cap'
            }
            testIdPrefix="selector"
          />
          <label className="field">
            <span>Compression</span>
            <select
              value={params.mode}
              onChange={(e) => set({ mode: e.target.value as CardsParams['mode'] })}
              aria-label="Compression mode"
              data-testid="cards-mode"
            >
              {MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
          <label className="field budget">
            <span>Max units</span>
            <input
              type="number"
              min={1}
              max={100}
              step={1}
              value={params.maxUnits ?? ''}
              placeholder={params.selector === 'mig' ? 'no cap' : `auto (${defaultMaxUnits(params.budget)})`}
              onChange={(e) => {
                const n = Math.floor(Number(e.target.value));
                setParams((p) => {
                  const { maxUnits: _, ...rest } = p;
                  return e.target.value.trim() === '' || !(n >= 1) ? rest : { ...rest, maxUnits: Math.min(100, n) };
                });
              }}
              aria-label="Most units to take (empty: the reference packer takes one per 60 tokens of budget, at least 5; MIG has no cap)"
              data-testid="cards-max-units"
            />
          </label>
          <button type="button" className="btn ghost" onClick={() => setParams(DEFAULTS)}>
            Reset
          </button>
        </div>
      </section>

      <section className={`stats${busy ? ' busy' : ''}`} aria-label="Audit and selection" aria-live="polite" aria-busy={busy}>
        {!v && run.status !== 'error' && (
          <div className="stat wide">
            <span className="spinner" aria-hidden="true" /> Building the context graph (tokenizer loads once)…
          </div>
        )}
        {a && (
          <>
            <div className="stat">
              <span className="k">Audit</span>
              <span className={`verdict ${a.verdict.toLowerCase()}`} data-testid="audit-verdict">
                {a.verdict}
              </span>
            </div>
            <ul className="rates" aria-label="Audit rates" data-testid="audit-rates">
              {rates.map((r) => (
                <li key={r.k} className={r.ok ? 'ok' : 'bad'} title={`threshold ${r.t}`}>
                  <span className="k">{r.k}</span> <b>{r.v.toFixed(2)}</b> <small>{r.t}</small>
                </li>
              ))}
            </ul>
            <div className="stat">
              <span className="k">Tokens</span>
              <span className="v small" data-testid="cards-tokens">
                {v.tokens} / {v.params.budget}
              </span>
            </div>
            <div className="stat">
              <span className="k">Selected</span>
              <span className="v small">
                {v.items.length} of {v.rows.length} <span className="u">({a.cards} cards)</span>
              </span>
            </div>
            <div className="stat">
              <span className="k">Graph</span>
              <span className="v small">
                {v.graph.units} units · {v.graph.edges} edges
              </span>
            </div>
            <Notes items={a.reasons} testId="audit-reasons" />
          </>
        )}
      </section>

      <main className="lab-panes">
        <section className="lab-pane" aria-labelledby="units-heading">
          <h2 id="units-heading" className="lab-title">
            Candidates <small>utility s = 0.34·shift + 0.26·necessity + 0.28·uplift − 0.22·risk − 0.08·cost</small>
          </h2>
          <div className="table-wrap">
            {busy && <div className="progress" role="progressbar" aria-label="Selecting context" />}
            <table className="units" data-testid="units-table">
              <thead>
                <tr>
                  <th scope="col">Unit</th>
                  <th scope="col" title="Retrieval route">
                    via
                  </th>
                  <th scope="col" title="action shift">
                    shift
                  </th>
                  <th scope="col" title="necessity">
                    need
                  </th>
                  <th scope="col" title="expected outcome uplift">
                    uplift
                  </th>
                  <th scope="col" title="negative-transfer risk">
                    risk
                  </th>
                  <th scope="col" title="min(1, tokens/1000 + 0.2·risk)">
                    cost
                  </th>
                  <th scope="col" title="utility (stale penalty / expansion applied)">
                    score
                  </th>
                  <th scope="col" title="tokens it costs in this mode">
                    tok
                  </th>
                  <th scope="col">decision</th>
                </tr>
              </thead>
              <tbody>
                {v?.rows.map((r) => (
                  <tr key={r.id} className={r.selected ? 'sel' : ''} data-testid="unit-row" data-unit-id={r.id} data-decision={r.decision}>
                    <th scope="row" title={r.id}>
                      <span className={`chip t-${r.type}`}>{r.type}</span> {r.title ?? r.source}
                      {r.stale && <span className="chip stale">stale</span>}
                    </th>
                    <td title={r.expandedFrom ? `expanded from ${r.expandedFrom}` : undefined}>{r.via}</td>
                    <td>{f2(r.action_shift)}</td>
                    <td>{f2(r.necessity)}</td>
                    <td>{f2(r.expected_outcome_uplift)}</td>
                    <td>{f2(r.negative_transfer_risk)}</td>
                    <td>{f2(r.cost)}</td>
                    <td className="score">{f2(r.score)}</td>
                    <td>{r.packCost}</td>
                    <td className={`dec d-${r.decision}`}>
                      {r.selected ? 'selected' : r.decision === 'selected' ? 'dropped (budget)' : DECISION_LABELS[r.decision]}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section className="lab-pane" aria-labelledby="cards-heading">
          <h2 id="cards-heading" className="lab-title">
            Selected context <small>as the prompt gets it</small>
          </h2>
          <pre className="prompt" data-testid="cards-text" tabIndex={0} aria-label="Selected context, rendered as text">
            {v ? v.text || '(nothing selected)' : ''}
          </pre>
          <details className="sample-info">
            <summary>
              Sample repository: ledger — {Object.keys(LEDGER_FILES).length} files, {LEDGER_MEMORIES.length} memories, {LEDGER_RULES.length} rules
            </summary>
            <ul>
              {Object.entries(LEDGER_FILES).map(([p, t]) => (
                <li key={p}>
                  <code>{p}</code> <small>{t.split('\n').length} lines</small>
                </li>
              ))}
              {LEDGER_MEMORIES.map((m) => (
                <li key={m.id}>
                  <code>{m.id}</code> {m.stale ? <span className="chip stale">stale</span> : null} <small>{m.content}</small>
                </li>
              ))}
              {LEDGER_RULES.map((r, i) => (
                <li key={r}>
                  <code>rule:{LEDGER_MEMORIES.length + i}</code> <small>{r}</small>
                </li>
              ))}
            </ul>
          </details>
        </section>
      </main>
      {run.status === 'error' && run.error && (
        <div className="error-card" role="alert" data-testid="cards-error">
          <strong>Context selection failed</strong>
          <p>{run.error.message}</p>
        </div>
      )}
    </div>
  );
}
