import { describeScorer } from '@ctxprune/core';
import type { EngineChoice, LoadProgress, WorkerCapabilities, WorkerPruneResult } from '@ctxprune/core/worker';
import { LANGUAGE_LABELS } from './languages';

interface Props {
  run: { status: string; result: WorkerPruneResult | null; error: { message: string } | null };
  busy: boolean;
  caps: WorkerCapabilities | null;
  requested: EngineChoice;
  /** The one-time loads so far (model, onnxruntime, tokenizer, grammars), done or not. */
  download: LoadProgress[];
}

const size = (b: number) => (b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : `${Math.round(b / 1024).toLocaleString('en-US')} KB`);

function loadLabel(p: LoadProgress): string {
  switch (p.what) {
    case 'model':
      return 'Line model';
    case 'onnxruntime':
      return 'onnxruntime (WASM)';
    case 'tokenizer':
      return `Tokenizer (${p.name ?? 'o200k_base'})`;
    case 'tree-sitter':
      return 'tree-sitter runtime';
    case 'grammar':
      return `Grammar (${p.name ?? '?'})`;
  }
}

const n = (x: number) => x.toLocaleString('en-US');
const ms = (x: number) => (!Number.isFinite(x) ? '–' : x < 10 ? x.toFixed(1) : Math.round(x).toString());

/** Token counts before/after, what ran and how long it took; announced politely to screen readers. */
export function StatsBar({ run, busy, caps, requested, download }: Props) {
  const r = run.result;
  const s = r?.stats;
  return (
    <section
      className={`stats${busy ? ' busy' : ''}`}
      aria-label="Result statistics"
      aria-live="polite"
      aria-busy={busy}
      data-testid="stats"
      data-kept-lines={r ? r.keptLines.join(',') : ''}
      data-output-chars={r ? r.text.length : ''}
      data-backend={s?.backend ?? ''}
      data-scorer={s?.scorer ?? ''}
    >
      {run.status === 'starting' && !r && (
        <div className="stat wide">
          <span className="spinner" aria-hidden="true" /> Starting the pruning worker (tokenizer and grammar load once)…
        </div>
      )}
      {download.some((p) => !p.done) && (
        <div className="stat wide download" data-testid="load-progress">
          <span>Loading once (cached after)</span>
          <ul className="loads">
            {download
              .filter((p) => !p.done)
              .map((p) => (
                <li key={`${p.what}:${p.name ?? ''}`} data-testid={p.what === 'model' ? 'model-progress' : `load-${p.what}`}>
                  <span>{loadLabel(p)}</span>
                  <progress max={p.total ?? undefined} value={p.total ? p.loaded : undefined} aria-label={`${loadLabel(p)} download`} />
                  <span className="u">{p.total ? `${size(p.loaded)} / ${size(p.total)}` : p.loaded > 1 ? size(p.loaded) : 'loading…'}</span>
                </li>
              ))}
          </ul>
        </div>
      )}
      {!s && run.status === 'error' && (
        <div className="stat wide" data-testid="no-result">
          No result for this input: see the message on the right.
        </div>
      )}
      {!s && run.status === 'cancelled' && <div className="stat wide">Cancelled. Change anything, or press Run, to prune again.</div>}
      {s && (
        <>
          <div className="stat">
            <span className="k">Before</span>
            <span className="v" data-testid="tokens-before">
              {n(s.originalTokens)}
            </span>
            <span className="u">tokens · {n(s.totalLines)} lines</span>
          </div>
          <div className="arrow" aria-hidden="true">
            →
          </div>
          <div className="stat">
            <span className="k">After</span>
            <span className="v accent" data-testid="tokens-after">
              {n(s.outputTokens)}
            </span>
            <span className="u">
              tokens · {n(s.keptLineCount)} lines · budget {n(s.budgetTokens)}
            </span>
          </div>
          <div className="stat">
            <span className="k">Achieved</span>
            <span className="v" data-testid="achieved">
              {Number.isFinite(s.achievedRatio) ? `${s.achievedRatio.toFixed(1)}×` : '∞'}
            </span>
          </div>
          <div className="stat">
            <span className="k">Engine</span>
            <span className="v small" data-testid="engine-ran">
              {describeScorer(s)} · {s.backend}
            </span>
            <span className="u" title={`tokenizer ${s.tokenizer}`}>
              {s.tokenizer}
            </span>
          </div>
          <div className="stat">
            <span className="k">Time</span>
            <span className="v small" data-testid="timing">
              {ms(s.ms)} ms
            </span>
            <span className="u">
              {Object.entries(s.timings as Record<string, number>)
                .map(([k, v]) => `${k} ${ms(v)}`)
                .join(' · ')}
            </span>
            {r.engine.loadMs > 0 && (
              <span
                className="u"
                data-testid="load-time"
                title="Waiting for one-time loads (model, runtime, tokenizer, grammar) before this prune; not in the time above"
              >
                + first load {ms(r.engine.loadMs)} ms
              </span>
            )}
          </div>
          <div className="stat">
            <span className="k">Structure</span>
            <span className="v small">{s.language ? LANGUAGE_LABELS[s.language] : 'plain text'}</span>
            <span className="u">
              {s.syntax} · repair {s.repair}
            </span>
          </div>
        </>
      )}
      {(r?.engine.note || (s && s.degraded.length > 0) || (s && run.status === 'cancelled')) && (
        <ul className="notes" data-testid="notes">
          {s && run.status === 'cancelled' && <li className="note">Cancelled: showing the previous result. Press Run to prune again.</li>}
          {r?.engine.note && <li className="note engine">{r.engine.note}</li>}
          {s?.degraded.map((d) => (
            <li key={d.code + d.message} className="note" data-code={d.code}>
              {d.message}
            </li>
          ))}
        </ul>
      )}
      {caps && requested === 'webgpu' && !caps.webgpu && !r?.engine.note && (
        <ul className="notes">
          <li className="note">This browser exposes no WebGPU adapter.</li>
        </ul>
      )}
    </section>
  );
}
