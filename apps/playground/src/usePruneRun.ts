/**
 * The pruning tab's run loop: each change of the request prunes again after a pause (the first
 * request at once: the worker has pruned it ahead, pruneRequest.ts), a newer request aborts and
 * supersedes the one in flight, and a result that arrives after a newer request was made is
 * never shown. A change of the budget alone (the slider) waits only BUDGET_DEBOUNCE_MS: the worker
 * keeps the last text's preparation and fits the new budget in a few milliseconds, so the pause
 * meant for typing would be most of what the user waits for.
 */
import { type MutableRefObject, useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError, type PrunerClient, type WorkerPruneResult } from '@ctxprune/core/worker';
import { pruneRequest } from './pruneRequest';
import type { ViewState } from './urlState';

/** After an edit of the code, the query or an option: typing goes on, and a new text is prepared again. */
const DEBOUNCE_MS = 250;
/** After a change of the budget alone: a slider drag's events, about a frame apart, still coalesce. */
const BUDGET_DEBOUNCE_MS = 30;

export interface RunState {
  status: 'starting' | 'running' | 'done' | 'error' | 'cancelled';
  result: WorkerPruneResult | null;
  error: { message: string; code?: string } | null;
  /** Increments with each delivered result (tests wait on it). */
  seq: number;
  /** The input the result was computed for. */
  code: string | null;
}

export function usePruneRun(pruner: PrunerClient, state: ViewState, stateRef: MutableRefObject<ViewState>) {
  const [run, setRun] = useState<RunState>({ status: 'starting', result: null, error: null, seq: 0, code: null });
  const [rerunCount, setRerunCount] = useState(0);
  const seqRef = useRef(0);
  const abortRef = useRef<AbortController | null>(null);

  const runNow = useCallback(() => {
    const s = stateRef.current;
    const my = ++seqRef.current;
    abortRef.current?.abort();
    const ac = new AbortController();
    abortRef.current = ac;
    setRun((r) => ({ ...r, status: r.status === 'starting' ? 'starting' : 'running' }));
    const { text, options } = pruneRequest(s);
    pruner.prune(text, { ...options, signal: ac.signal }).then(
      (result) => {
        if (my !== seqRef.current) return; // a newer request exists: never show this one
        setRun((r) => ({ status: 'done', result, error: null, seq: r.seq + 1, code: s.code }));
      },
      (e: unknown) => {
        if (my !== seqRef.current) return;
        if (isAbortError(e)) {
          setRun((r) => ({ ...r, status: 'cancelled' }));
          return;
        }
        const err = e as { message?: string; code?: string };
        setRun((r) => ({
          status: 'error',
          result: null,
          error: { message: err?.message ?? String(e), code: err?.code },
          seq: r.seq + 1,
          code: s.code,
        }));
      },
    );
  }, [pruner, stateRef]);

  const code = state.code ?? '';
  // What the worker's preparation depends on (everything but the budget), as of the last scheduled run.
  const preparedFor = useRef<unknown[] | null>(null);
  useEffect(() => {
    const inputs = [code, state.query, state.language, state.engine, state.elision, state.fileName, rerunCount];
    const budgetOnly = preparedFor.current !== null && inputs.every((x, k) => Object.is(x, preparedFor.current![k]));
    preparedFor.current = inputs;
    const t = setTimeout(runNow, seqRef.current === 0 ? 0 : budgetOnly ? BUDGET_DEBOUNCE_MS : DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [runNow, code, state.query, state.ratio, state.tokens, state.language, state.engine, state.elision, state.fileName, rerunCount]);

  const cancel = useCallback(() => abortRef.current?.abort(), []);
  /** Prune again now with the same request (Ctrl+Enter, the Run button). */
  const rerun = useCallback(() => setRerunCount((n) => n + 1), []);
  return { run, setRun, cancel, rerun };
}
