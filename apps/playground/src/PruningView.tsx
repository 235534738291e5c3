import { lazy, Suspense, type ComponentType, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { DiffEditorProps, DiffOnMount } from '@monaco-editor/react';
import type { editor } from 'monaco-editor/editor/editor.api';
import { detectLanguage, isLanguageId, LANGUAGES, type ElisionStyle, type LanguageId } from '@ctxprune/core';
import { ENGINE_CHOICES, type EngineChoice, type LoadProgress, type WorkerCapabilities } from '@ctxprune/core/worker';
import { prunedLineLabels } from './lineNumbers';
import { getPruner, onLoadProgress, rememberFirstLoad } from './pruner';
import { SAMPLES, findSample } from './samples';
import { LAYERS, MAX_URL_CODE_CHARS, clampRatio, writeUrlState, type ViewState } from './urlState';
import { initialViewState } from './pruneRequest';
import { LAYER_INFO, heatmapDecorations, injectHeatmapStyles, layerScale } from './heatmap';
import { EXTENSION, LANGUAGE_LABELS, MONACO_LANGUAGE } from './languages';
import { Legend } from './Legend';
import { keptFor } from './why';
import { bestEvidenceLine } from './evidence';
import { LightDiff } from './LightDiff';
import { StatsBar } from './StatsBar';
import { usePruneRun } from './usePruneRun';

/** Files above this size are refused before they reach the editor (the library's own limit is 8 MB of text). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Monaco loads after the first result is on screen, or after this long without one (a slow first run). */
const EDITOR_FALLBACK_MS = 8000;

/** The diff editor and Monaco: a chunk of its own, loaded once the first result is shown (monacoDiff.ts). */
let monaco: typeof import('./monacoDiff').monaco | null = null;
const MonacoDiff = lazy<ComponentType<DiffEditorProps>>(() =>
  import('./monacoDiff').then(
    (m) => {
      monaco = m.monaco;
      return { default: m.default };
    },
    () => ({
      // The chunk did not load (offline before it was ever cached): the panes stay plain text.
      default: ({ loading }: DiffEditorProps) => (
        <>
          {loading}
          <div className="stale-card" role="status">
            The editor could not be loaded: the panes are read-only. Reload the page to try again.
          </div>
        </>
      ),
    }),
  ),
);

/** Engine picker labels that say what each choice will really do on this page. */
function engineLabels(caps: WorkerCapabilities | null): Record<EngineChoice, string> {
  const neural = caps?.neural ?? false;
  const noModel = caps && !neural ? ' — no model bundled, runs lexical' : '';
  return {
    auto: caps ? (neural ? 'Auto (neural on WASM, lexical fallback)' : 'Auto (lexical: no model bundled)') : 'Auto',
    webgpu: `Neural · WebGPU${caps && neural && !caps.webgpu ? ' — no adapter, falls back to WASM' : ''}${noModel}`,
    wasm: `Neural · WASM (CPU)${noModel}`,
    lexical: 'Lexical (BM25 + structure)',
  };
}

/** The line-pruning tab (the original playground view). URL state is written while it is the active tab. */
export function PruningView({ active }: { active: boolean }) {
  const [state, setState] = useState<ViewState>(() => initialViewState(window.location.search));
  const [caps, setCaps] = useState<WorkerCapabilities | null>(null);
  const [download, setDownload] = useState<LoadProgress[]>([]);
  const [toast, setToast] = useState<string | null>(null);
  const [tokensDraft, setTokensDraft] = useState(state.tokens === null ? '' : String(state.tokens));

  const pruner = useMemo(() => getPruner(), []);
  const diffRef = useRef<editor.IStandaloneDiffEditor | null>(null);
  /**
   * The input the diff editor starts from, set when the editor is wanted (null until then: the
   * panes are plain text, LightDiff). Set once: the editor's `original` prop never changes after.
   */
  const [editorOriginal, setEditorOriginal] = useState<string | null>(null);
  const decoRef = useRef<editor.IEditorDecorationsCollection | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  /** The result seq whose text is in the pruned editor; copied to data-diff-for once the diff is computed. */
  const shownSeq = useRef(0);
  /** The last result seq whose evidence was queued for revealing (each result once). */
  const revealedSeq = useRef(0);
  /**
   * Models replaced by newer ones are disposed later: a diff computation may still be running on
   * them, and disposing a model under it rejects ("no diff result available").
   */
  const retire = (m: editor.ITextModel) =>
    window.setTimeout(() => {
      if (!m.isDisposed()) m.dispose();
    }, 15_000);
  const stateRef = useRef(state);
  // Not during render (React may render and discard); layout effects run before the effects that read it.
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  /** Scroll both panes to the first evidence line when a result arrives, until the user scrolls (#21). */
  const autoScroll = useRef(true);
  /** The result seq whose first evidence line is still to be revealed (once its diff is laid out). */
  const revealFor = useRef(0);

  const code = state.code ?? '';
  const detected = useMemo<LanguageId | null>(() => {
    try {
      return detectLanguage(state.fileName, code.length > 200_000 ? code.slice(0, 200_000) : code);
    } catch {
      return null;
    }
  }, [state.fileName, code]);
  const effectiveLanguage: LanguageId | null = isLanguageId(state.language) ? state.language : detected;
  const monacoLanguage = effectiveLanguage ? MONACO_LANGUAGE[effectiveLanguage] : 'plaintext';

  useEffect(() => {
    injectHeatmapStyles();
    pruner.capabilities().then(setCaps, () => setCaps(null));
    return onLoadProgress(setDownload);
  }, [pruner]);

  // --- the run loop: debounced, superseding, stale results dropped (usePruneRun.ts) ---------
  const { run, setRun, cancel, rerun } = usePruneRun(pruner, state, stateRef);

  // --- the editor: Monaco once the first result (or error) has been painted ---------------------
  const wantEditor = useCallback(() => setEditorOriginal((o) => o ?? stateRef.current.code ?? ''), []);
  const firstRunOver = run.status !== 'starting';
  useEffect(() => {
    if (editorOriginal !== null) return;
    let frame = 0;
    // After the frame that shows the result: evaluating Monaco is a long task, never ahead of it.
    const t = window.setTimeout(
      () => {
        frame = requestAnimationFrame(() =>
          window.setTimeout(() => {
            wantEditor();
            rememberFirstLoad();
          }, 0),
        );
      },
      firstRunOver ? 0 : EDITOR_FALLBACK_MS,
    );
    return () => {
      clearTimeout(t);
      cancelAnimationFrame(frame);
    };
  }, [firstRunOver, editorOriginal, wantEditor]);

  // --- URL state -----------------------------------------------------------------------------
  const [codeOmitted, setCodeOmitted] = useState(false);
  useEffect(() => {
    if (!active) return;
    const t = setTimeout(() => {
      const sample = findSample(state.sample);
      const { search, codeOmitted } = writeUrlState(state, sample?.code ?? null);
      setCodeOmitted(codeOmitted);
      if (search !== window.location.search) window.history.replaceState(null, '', search);
    }, 300);
    return () => clearTimeout(t);
  }, [state, active]);

  // --- editors -------------------------------------------------------------------------------
  const onMount: DiffOnMount = (diff) => {
    diffRef.current = diff;
    const original = diff.getOriginalEditor();
    // The input changed (a sample picked, a file opened) while Monaco was loading: start from it.
    const now = stateRef.current.code ?? '';
    const model = original.getModel();
    if (monaco && model && model.getValue() !== now) {
      diff.setModel({ original: monaco.editor.createModel(now, model.getLanguageId()), modified: diff.getModifiedEditor().getModel()! });
      retire(model);
    }
    original.updateOptions({ placeholder: 'Paste code here, open a local file, or pick a sample above.' });
    decoRef.current = original.createDecorationsCollection();
    diff.onDidUpdateDiff(() => {
      if (wrapRef.current) wrapRef.current.dataset.diffFor = String(shownSeq.current);
      revealEvidence();
    });
    // Any scrolling or keyboard work in the editors by the user ends the automatic scrolling.
    const wrap = wrapRef.current;
    if (wrap) {
      const stop = () => {
        autoScroll.current = false;
      };
      wrap.addEventListener('wheel', stop, { passive: true });
      wrap.addEventListener('touchmove', stop, { passive: true });
      wrap.addEventListener('keydown', stop);
      wrap.addEventListener('mousedown', (e) => {
        if ((e.target as Element | null)?.closest?.('.scrollbar, .slider, .minimap, .decorationsOverviewRuler')) stop();
      });
    }
    original.onDidChangeModelContent(() => {
      const value = original.getValue();
      setState((s) => {
        const sample = findSample(s.sample);
        if (!sample || sample.code === value) return { ...s, code: value };
        // Leaving a sample: its file name no longer describes the code (language is re-detected).
        return { ...s, code: value, sample: null, fileName: null };
      });
    });
    // Through the ref: @monaco-editor/react keeps the onMount of its first render, and a result
    // that arrived while Monaco loaded would otherwise be replaced by the one of that render.
    applyResultRef.current();
  };

  // A cancelled run leaves the last result in place; once the input differs from it, its
  // heatmap no longer lines up, so it is hidden and the output marked out of date.
  const outOfDate = run.status === 'cancelled' && run.result !== null && run.code !== code;

  const scale = useMemo(() => (run.result ? layerScale(run.result.lines, state.layer) : null), [run.result, state.layer]);
  const why = useMemo(
    () => (run.result && run.code !== null ? keptFor(run.result.lines, run.code.split('\n')) : new Map<number, string>()),
    [run.result, run.code],
  );
  // The heatmap of a result lines up only with the input it was computed for.
  const stale = run.result !== null && run.code !== code;

  /** Reveal the shown result's evidence near the top of both panes (the diff editor scrolls them together). */
  const revealEvidence = () => {
    const diff = diffRef.current;
    const r = runRef.current.result;
    if (!diff || !r || !autoScroll.current || revealFor.current !== shownSeq.current) return;
    // Only once the diff is the one of this result's text (setModel announces an empty one first).
    if (diff.getModifiedEditor().getModel()?.getValue() !== r.text || diff.getLineChanges() === null) return;
    revealFor.current = 0;
    const start = bestEvidenceLine(r.lines);
    const original = diff.getOriginalEditor();
    if (start === 0 || start > (original.getModel()?.getLineCount() ?? 0)) return;
    original.revealLineNearTop(start, 1 /* ScrollType.Immediate */);
  };
  const runRef = useRef(run);
  useLayoutEffect(() => {
    runRef.current = run;
  });

  const applyResult = useCallback(() => {
    const diff = diffRef.current;
    if (!diff) return;
    const modified = diff.getModifiedEditor().getModel();
    const original = diff.getOriginalEditor().getModel();
    if (!modified || !original) return;
    const text = run.status === 'error' ? '' : (run.result?.text ?? '');
    if (run.status === 'error' || run.result) {
      shownSeq.current = run.seq;
      // Original line numbers in the pruned gutter: the markers need not carry them.
      const labels = run.result ? prunedLineLabels(run.result.keptLines, run.result.stats.totalLines) : [];
      diff.getModifiedEditor().updateOptions({ lineNumbers: (n: number) => labels[n - 1] ?? '' });
      if (run.result && run.seq !== revealedSeq.current) {
        revealedSeq.current = run.seq;
        revealFor.current = run.seq;
      }
      if (modified.getValue() !== text) {
        // A new model rather than setValue: Monaco maps an edit made while a diff is being
        // computed onto that diff's result, which throws when the line counts no longer match
        // ("Illegal value for lineNumber", #21). A new model starts a fresh computation.
        // Keep where the user was, unless the panes are about to scroll to the evidence anyway.
        const view = autoScroll.current ? null : diff.getOriginalEditor().saveViewState();
        const next = monaco!.editor.createModel(text, modified.getLanguageId());
        diff.setModel({ original, modified: next });
        retire(modified);
        if (view) diff.getOriginalEditor().restoreViewState(view);
      } else {
        if (wrapRef.current) wrapRef.current.dataset.diffFor = String(run.seq);
        revealEvidence();
      }
    }
    decoRef.current?.set(run.result && !outOfDate && !stale ? heatmapDecorations(run.result.lines, state.layer, original, scale ?? undefined, why) : []);
  }, [run, state.layer, scale, outOfDate, stale, why]);

  useEffect(applyResult, [applyResult]);
  const applyResultRef = useRef(applyResult);
  useLayoutEffect(() => {
    applyResultRef.current = applyResult;
  });

  const replaceCode = (text: string, patch: Partial<ViewState>) => {
    const diff = diffRef.current;
    const orig = diff?.getOriginalEditor();
    setState((s) => ({ ...s, ...patch, code: text }));
    autoScroll.current = true;
    if (diff && orig && monaco) {
      const model = orig.getModel()!;
      const modified = diff.getModifiedEditor().getModel()!;
      // Editing a model while Monaco computes a diff on it makes Monaco map that diff's result
      // onto the new text, which throws when the line counts differ ("Illegal value for
      // lineNumber" switching Python → TypeScript, #21): new models start a fresh computation.
      diff.setModel({
        original: monaco.editor.createModel(text, model.getLanguageId()),
        modified: monaco.editor.createModel('', modified.getLanguageId()),
      });
      retire(model);
      retire(modified);
      decoRef.current = orig.createDecorationsCollection();
      orig.setScrollTop(0);
      // The content listener resets `sample`; restore what the caller asked for.
      setState((s) => ({ ...s, ...patch, code: text }));
    }
  };

  const chooseSample = (id: string) => {
    const sample = findSample(id);
    if (!sample) return;
    replaceCode(sample.code, { sample: sample.id, fileName: sample.fileName, query: sample.query, language: 'auto' });
  };

  const openFile = async (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      setRun((r) => ({
        ...r,
        status: 'error',
        result: null,
        error: {
          code: 'INPUT_TOO_LARGE',
          message: `“${file.name}” is ${(file.size / 1048576).toFixed(1)} MB; the playground opens files up to ${MAX_FILE_BYTES / 1048576} MB.`,
        },
      }));
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const text = new TextDecoder('utf-8').decode(bytes);
    replaceCode(text, { sample: null, fileName: file.name, language: 'auto' });
  };

  // --- output actions ------------------------------------------------------------------------
  const flash = (msg: string) => {
    setToast(msg);
    window.setTimeout(() => setToast((t) => (t === msg ? null : t)), 1800);
  };
  const pruned = run.result?.text ?? '';
  const copyText = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      flash(`${what} copied`);
    } catch {
      flash('Copy failed: the browser refused clipboard access');
    }
  };
  const downloadPruned = () => {
    const lang = run.result?.stats.language ?? effectiveLanguage;
    const base = (state.fileName ?? 'pruned').replace(/\.[^.]+$/, '');
    const ext = state.fileName?.match(/\.([^.]+)$/)?.[1] ?? (lang ? EXTENSION[lang] : 'txt');
    const url = URL.createObjectURL(new Blob([pruned], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${base}.pruned.${ext}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
      e.preventDefault();
      rerun();
    }
  };

  const busy = run.status === 'running' || run.status === 'starting';
  // Until Monaco is in: the input and the pruned text as plain text; a click or a key there asks for the editor now.
  const light = <LightDiff original={code} pruned={run.status === 'error' ? '' : pruned} onWake={wantEditor} />;
  const labels = engineLabels(caps);

  return (
    <div className="app" onKeyDown={onKeyDown} data-state={run.status} data-result-seq={run.seq}>
      <a className="skip" href="#pruned-heading">
        Skip to the output
      </a>

      <section className="controls" aria-label="Input and budget">
        <div className="row">
          <label className="field">
            <span>Sample</span>
            <select value={state.sample ?? ''} onChange={(e) => chooseSample(e.target.value)} aria-label="Sample code">
              {state.sample === null && <option value="">Your code{state.fileName ? ` (${state.fileName})` : ''}</option>}
              {SAMPLES.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn" onClick={() => fileInput.current?.click()}>
            Open file…
          </button>
          <input
            ref={fileInput}
            type="file"
            hidden
            aria-label="Open a local file"
            data-testid="file-input"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void openFile(f);
              e.target.value = '';
            }}
          />
          <label className="field">
            <span>Language</span>
            <select value={state.language} onChange={(e) => setState((s) => ({ ...s, language: e.target.value }))} aria-label="Language" data-testid="language">
              <option value="auto">Auto-detect{detected ? ` (${LANGUAGE_LABELS[detected]})` : ' (not recognised)'}</option>
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_LABELS[l]}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Markers</span>
            <select
              value={state.elision}
              onChange={(e) => setState((s) => ({ ...s, elision: e.target.value as ElisionStyle }))}
              aria-label="Elision marker style"
              title="How an elided run reads: `# …` at the margin (2 tokens), indented like the code (3), `# … lines 40–51` (9) or `# … 12 lines omitted (40–51)` (12). The budget pays for the markers, so ranges cost code."
              data-testid="elision"
            >
              <option value="bare"># …</option>
              <option value="indented">␣␣# …</option>
              <option value="compact">+ lines</option>
              <option value="verbose">+ count</option>
            </select>
          </label>
          <label className="field grow">
            <span>Query</span>
            <input
              type="search"
              value={state.query}
              placeholder="What is the agent trying to do? e.g. “fix the retry delay for HTTP 429”"
              onChange={(e) => setState((s) => ({ ...s, query: e.target.value }))}
              aria-label="Query: what the agent is trying to do"
              data-testid="query"
            />
          </label>
        </div>
        <div className="row">
          <label className="field ratio">
            <span>Compression</span>
            <input
              type="range"
              min={1}
              max={16}
              step={0.5}
              value={state.ratio}
              disabled={state.tokens !== null}
              onChange={(e) => setState((s) => ({ ...s, ratio: clampRatio(Number(e.target.value)) }))}
              aria-label="Compression ratio"
              aria-valuetext={`${state.ratio} times: keep about 1/${state.ratio} of the tokens`}
              data-testid="ratio"
            />
            <output className="ratio-value" data-testid="ratio-value">
              {state.tokens !== null ? 'budget' : `${state.ratio}×`}
            </output>
          </label>
          <label className="field budget">
            <span>or token budget</span>
            <input
              type="number"
              min={1}
              step={50}
              inputMode="numeric"
              value={tokensDraft}
              placeholder="tokens"
              onChange={(e) => {
                setTokensDraft(e.target.value);
                const n = Math.floor(Number(e.target.value));
                setState((s) => ({ ...s, tokens: e.target.value.trim() === '' || !(n > 0) ? null : n }));
              }}
              aria-label="Token budget (overrides the ratio when set)"
              data-testid="tokens"
            />
            {state.tokens !== null && (
              <button
                type="button"
                className="btn ghost small"
                onClick={() => {
                  setTokensDraft('');
                  setState((s) => ({ ...s, tokens: null }));
                }}
                aria-label="Clear the token budget and use the ratio"
              >
                ✕
              </button>
            )}
          </label>
          <label className="field">
            <span>Engine</span>
            <select
              value={state.engine}
              onChange={(e) => setState((s) => ({ ...s, engine: e.target.value as EngineChoice }))}
              aria-label="Scorer and backend"
              data-testid="engine"
            >
              {ENGINE_CHOICES.map((e) => (
                <option key={e} value={e}>
                  {labels[e]}
                </option>
              ))}
            </select>
          </label>
          <div className="actions">
            {busy ? (
              <button type="button" className="btn" onClick={cancel} data-testid="cancel">
                Cancel
              </button>
            ) : (
              <button type="button" className="btn" onClick={rerun} title="Ctrl+Enter">
                Run
              </button>
            )}
            <button type="button" className="btn" onClick={() => void copyText(pruned, 'Pruned text')} disabled={!run.result}>
              Copy
            </button>
            <button type="button" className="btn" onClick={downloadPruned} disabled={!run.result}>
              Download
            </button>
            <button
              type="button"
              className="btn ghost"
              onClick={() => void copyText(window.location.href, 'Link')}
              title={codeOmitted ? `Code over ${MAX_URL_CODE_CHARS} characters is not put in the link` : 'Copy a link to this view'}
            >
              Copy link
            </button>
          </div>
        </div>
      </section>

      <StatsBar run={run} busy={busy} caps={caps} requested={state.engine} download={download} />

      <main className="panes">
        <div className="pane-headers">
          <div className="pane-header">
            <h2 id="original-heading">
              Original <small>editable · paste, type or open a file</small>
            </h2>
            <fieldset className="layers" aria-label="Heatmap layer">
              {LAYERS.map((l) => (
                <label
                  key={l}
                  className={state.layer === l ? 'on' : ''}
                  title={l === 'off' ? 'Plain diff: pruned lines in red, elision markers in green' : LAYER_INFO[l].description}
                >
                  <input
                    type="radio"
                    name="layer"
                    value={l}
                    checked={state.layer === l}
                    onChange={() => setState((s) => ({ ...s, layer: l }))}
                    data-testid={`layer-${l}`}
                  />
                  {l === 'off' ? 'Diff' : l[0].toUpperCase() + l.slice(1)}
                </label>
              ))}
            </fieldset>
          </div>
          <div className="pane-header">
            <h2 id="pruned-heading" tabIndex={-1}>
              Pruned
            </h2>
            <Legend layer={state.layer} scale={scale} />
          </div>
        </div>
        <div className="editor-wrap" data-testid="diff" ref={wrapRef}>
          {busy && <div className="progress" role="progressbar" aria-label="Pruning" />}
          {editorOriginal === null ? (
            light
          ) : (
            <Suspense fallback={light}>
              <MonacoDiff
                original={editorOriginal}
                modified=""
                language={monacoLanguage}
                theme={state.layer === 'off' ? 'ctx-diff' : 'ctx-heat'}
                originalModelPath="inmemory://ctxprune/original"
                modifiedModelPath="inmemory://ctxprune/pruned"
                onMount={onMount}
                loading={light}
                options={{
                  originalEditable: true,
                  readOnly: true,
                  renderSideBySide: true,
                  useInlineViewWhenSpaceIsLimited: false,
                  automaticLayout: true,
                  minimap: { enabled: false },
                  fontSize: 13,
                  lineNumbersMinChars: 3,
                  lineDecorationsWidth: 8,
                  scrollBeyondLastLine: false,
                  ignoreTrimWhitespace: false,
                  renderMarginRevertIcon: false,
                  renderIndicators: false,
                  // The pruned text is the original's lines in order, with markers between: the
                  // legacy line diff aligns it as well (fewer kept lines misaligned on 40 dev files ×
                  // 3 ratios: 46 vs 95 of 12,094) at ~1/60 of the time (median 3.4 vs 225 ms, p95
                  // 11 vs 979 ms), which a slider move otherwise waits for.
                  diffAlgorithm: 'legacy',
                  originalAriaLabel: 'Original code, editable. Tab moves focus; press Control+M to make Tab indent.',
                  modifiedAriaLabel: 'Pruned code, read-only',
                  fixedOverflowWidgets: true,
                  // Tab moves focus (keyboard users are not trapped); Ctrl+M switches Tab to indenting.
                  tabFocusMode: true,
                }}
              />
            </Suspense>
          )}
          {outOfDate && (
            <div className="stale-card" role="status" data-testid="out-of-date">
              Out of date: the input changed after the last result. Press Run (Ctrl+Enter) to prune it.
            </div>
          )}
          {run.status === 'error' && run.error && (
            <div className="error-card" role="alert" data-testid="error">
              <strong>{errorTitle(run.error.code)}</strong>
              <p>{run.error.message}</p>
            </div>
          )}
        </div>
      </main>

      <footer className="footer">
        <span>
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> run now · <kbd>Tab</kbd> moves between controls and editors (<kbd>Ctrl</kbd>+<kbd>M</kbd> in an editor: Tab indents)
          · hover a line for its scores
        </span>
        <span className="toast" role="status" aria-live="polite">
          {toast}
        </span>
      </footer>
    </div>
  );
}

function errorTitle(code: string | undefined): string {
  switch (code) {
    case 'EMPTY_INPUT':
      return 'Nothing to prune';
    case 'BINARY_INPUT':
      return 'This looks like a binary file';
    case 'INPUT_TOO_LARGE':
      return 'Input too large';
    case 'INVALID_BUDGET':
      return 'Invalid budget';
    case 'WORKER_CRASHED':
      return 'The pruning worker stopped';
    default:
      return 'Pruning failed';
  }
}
