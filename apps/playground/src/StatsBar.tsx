import { describeScorer } from '@ctxprune/core/scorers/types.ts';
import type { EngineChoice, LoadProgress, WorkerCapabilities, WorkerPruneResult } from '@ctxprune/core/worker/protocol.ts';
import { LANGUAGE_LABELS } from './languages';

interface Props {
  run: { status: string; result: WorkerPruneResult | null; error: { message: string } | null };
  busy: boolean;
  caps: WorkerCapabilities | null;
  requested: EngineChoice;
  download: LoadProgress | null;
}

const kb = (b: number) => `${Math.round(b / 1024).toLocaleString('en-US')} KB`;

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
      {download && !download.done && (
        <div className="stat wide download" data-testid="model-progress">
          <span>Downloading the model (once; cached after)</span>
          <progress
            max={download.total ?? undefined}
            value={download.total ? download.loaded : undefined}
            aria-label="Model download"
          />
          <span className="u">
            {kb(download.loaded)}
            {download.total ? ` / ${kb(download.total)}` : ''}
          </span>
        </div>
      )}
      {!s && run.status === 'error' && (
        <div className="stat wide" data-testid="no-result">
          No result for this input: see the message on the right.
        </div>
      )}
      {!s && run.status === 'cancelled' && (
        <div className="stat wide">Cancelled. Change anything, or press Run, to prune again.</div>
      )}
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
            <li key={d} className="note">
              {d}
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
