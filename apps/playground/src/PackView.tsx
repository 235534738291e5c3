import { useEffect, useRef, useState } from 'react';
import { workerInit } from './assets';
import { BudgetSlider, TaskField, useUrlState } from './labForm';
import { LEDGER_FILES, LEDGER_TASK } from './samples/ledgerRepo';
import { PACK_BUDGET, type PackParams, type PackReply, type PackView as View } from './pack/types';

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, (r: PackReply) => void>();
let assetsSent = false;

function send(params: PackParams): Promise<PackReply> {
  if (!worker) {
    worker = new Worker(new URL('./pack/pack.worker.ts', import.meta.url), { type: 'module', name: 'ctxprune-pack' });
    worker.onmessage = (e: MessageEvent<PackReply>) => {
      const cb = pending.get(e.data.id);
      pending.delete(e.data.id);
      cb?.(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      for (const [id, cb] of pending) cb({ id, ok: false, error: { message: e.message || 'the pack worker failed to start', code: 'WORKER_CRASHED' } });
      pending.clear();
      worker?.terminate();
      worker = null;
      assetsSent = false;
    };
  }
  const id = ++nextId;
  const assets = assetsSent ? undefined : workerInit().assets;
  assetsSent = true;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker!.postMessage({ id, params, ...(assets ? { assets } : {}) });
  });
}

/** `?tab=pack&budget=…&task=…`: the link reproduces the tab (budget clamped to the slider). */
function readState(search: string): PackParams {
  const p = new URLSearchParams(search);
  const d: PackParams = { task: LEDGER_TASK, budget: PACK_BUDGET.initial, lineNumbers: true };
  if (p.get('tab') !== 'pack') return d;
  const b = Math.round(Number(p.get('budget')));
  return {
    task: p.get('task') ?? d.task,
    budget: p.get('budget') !== null && Number.isFinite(b) ? Math.min(PACK_BUDGET.max, Math.max(PACK_BUDGET.min, b)) : d.budget,
    lineNumbers: p.get('lines') !== '0',
  };
}

function writeState(s: PackParams): string {
  const p = new URLSearchParams({ tab: 'pack', budget: String(s.budget), task: s.task });
  if (!s.lineNumbers) p.set('lines', '0');
  return '?' + p.toString();
}

/** "Repository pack" tab: packContext over the ledger sample — ranked files, each pruned to its share, one budget. */
export function PackView({ active }: { active: boolean }) {
  const [params, setParams] = useState<PackParams>(() => readState(window.location.search));
  const [view, setView] = useState<View | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<'starting' | 'running' | 'done' | 'error'>('starting');
  const [seq, setSeq] = useState(0);
  const mine = useRef(0);
  const set = (patch: Partial<PackParams>) => setParams((p) => ({ ...p, ...patch }));
  const key = JSON.stringify(params);

  useUrlState(params, active, writeState);

  useEffect(() => {
    if (!active) return;
    const t = setTimeout(() => {
      const my = ++mine.current;
      setStatus((s) => (s === 'starting' ? s : 'running'));
      void send(params).then((reply) => {
        if (my !== mine.current) return;
        if (reply.ok) {
          setView(reply.view);
          setError(null);
          setStatus('done');
          setSeq((n) => n + 1);
        } else if (!reply.superseded) {
          setError(reply.error.message);
          setStatus('error');
          setSeq((n) => n + 1);
        }
      });
    }, 200);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, active]);

  return (
    <div className="lab" data-testid="pack-view" data-state={status} data-result-seq={seq}>
      <section className="controls" aria-label="Task and budget for the repository pack">
        <TaskField value={params.task} onChange={(task) => set({ task })} testId="pack-task" />
        <div className="row">
          <BudgetSlider value={params.budget} range={PACK_BUDGET} onChange={(budget) => set({ budget })} label="Pack budget in tokens" testId="pack-budget" />
          <label className="field">
            <span>Line numbers</span>
            <input type="checkbox" checked={params.lineNumbers} onChange={(e) => set({ lineNumbers: e.target.checked })} data-testid="pack-line-numbers" />
          </label>
        </div>
      </section>
      <main className="lab-panes">
        <section className="lab-pane" aria-labelledby="pack-files-heading">
          <h2 id="pack-files-heading" className="lab-title">
            Files <small>ranked for the task; budget given by marginal value</small>
          </h2>
          <div className="table-wrap">
            {status === 'running' && <div className="progress" role="progressbar" aria-label="Packing" />}
            <table className="units" data-testid="pack-files">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col" title="share of the relevance prior">
                    prior
                  </th>
                  <th scope="col">kept / total lines</th>
                  <th scope="col">tok</th>
                </tr>
              </thead>
              <tbody>
                {view?.files.map((f) => (
                  <tr key={f.path} className="sel" data-testid="pack-file" data-path={f.path}>
                    <th scope="row">{f.path}</th>
                    <td>{f.prior.toFixed(2)}</td>
                    <td>{f.whole ? `whole (${f.total})` : `${f.kept} / ${f.total}`}</td>
                    <td>{f.tokens}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="sample-info" data-testid="pack-summary">
            {view
              ? `${view.tokens} / ${view.budget} tokens (o200k) · ${view.files.length} files · ${view.map} signatures · ${view.excluded} test file${view.excluded === 1 ? '' : 's'} left out · ${view.ms.toFixed(0)} ms`
              : (error ?? 'Packing…')}
            {view?.degraded.length ? ` · ${view.degraded.join('; ')}` : ''}
          </p>
          <p className="sample-info">
            <small>Sample repository: ledger — {Object.keys(LEDGER_FILES).length} files</small>
          </p>
        </section>
        <section className="lab-pane" aria-labelledby="pack-text-heading">
          <h2 id="pack-text-heading" className="lab-title">
            Pack <small>as the prompt gets it</small>
          </h2>
          <pre className="prompt" data-testid="pack-text" tabIndex={0} aria-label="The pack, rendered as text">
            {view ? view.text || '(nothing fits the budget)' : ''}
          </pre>
        </section>
      </main>
    </div>
  );
}
