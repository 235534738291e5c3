/**
 * The run loop of the cards and compaction tabs: debounced, a newer request supersedes older
 * ones, and a stale result is never shown (as in the pruning tab). A change the caller calls
 * `quick` (the compaction budget alone: the worker keeps the transcript's cuts and packs the new
 * budget in tens of milliseconds) waits QUICK_MS instead of the pause meant for typing.
 */
import { useEffect, useRef, useState } from 'react';

export interface RunState<V> {
  status: 'starting' | 'running' | 'done' | 'error';
  view: V | null;
  error: { message: string; code?: string } | null;
  /** Increments with each delivered result or error (tests wait on it). */
  seq: number;
  ms: number | null;
}

/** What one run answers: a view, a supersession (nothing to show), or an error. */
export type RunReply<V> =
  | { ok: true; superseded?: false; view: V; ms: number }
  | { ok: false; superseded: true }
  | { ok: false; superseded?: false; error: { message: string; code?: string } };

const DEBOUNCE_MS = 250;
/** After a quick change: a slider drag's events, about a frame apart, still coalesce. */
const QUICK_MS = 30;

/**
 * Runs `start(params)` DEBOUNCE_MS after `params` (compared as JSON) last changed, while `enabled`;
 * QUICK_MS when `quick(previous, params)` says the change needs little work.
 */
export function useLatestRun<P, V>(
  params: P,
  enabled: boolean,
  start: (params: P) => Promise<RunReply<V>>,
  quick?: (previous: P, next: P) => boolean,
): RunState<V> {
  const [run, setRun] = useState<RunState<V>>({ status: 'starting', view: null, error: null, seq: 0, ms: null });
  const my = useRef(0);
  const last = useRef<P | null>(null);
  const key = JSON.stringify(params);
  useEffect(() => {
    if (!enabled) return;
    const previous = last.current;
    last.current = params;
    const wait = previous !== null && quick?.(previous, params) ? QUICK_MS : DEBOUNCE_MS;
    const t = setTimeout(() => {
      const mine = ++my.current;
      setRun((r) => ({ ...r, status: r.status === 'starting' ? 'starting' : 'running' }));
      void start(params).then((reply) => {
        if (mine !== my.current) return; // a newer request exists: never show this one
        if (reply.ok) setRun((r) => ({ status: 'done', view: reply.view, error: null, seq: r.seq + 1, ms: reply.ms }));
        else if (!reply.superseded) setRun((r) => ({ ...r, status: 'error', error: reply.error, seq: r.seq + 1 }));
      });
    }, wait);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled]);
  return run;
}
