/**
 * One workbench worker for the page, and the run loop the two tabs share: debounced, a newer
 * request supersedes older ones, stale results are dropped (as in the pruning tab).
 */
import { useEffect, useRef, useState } from 'react';
import { workerInit } from '../assets';
import type { CardsParams, CardsView, CompactParams, CompactView, WorkbenchInit, WorkbenchReply, WorkbenchRequest } from './types';

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, (r: WorkbenchReply) => void>();

function getWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./workbench.worker.ts', import.meta.url), { type: 'module', name: 'ctxprune-workbench' });
    worker.onmessage = (e: MessageEvent<WorkbenchReply>) => {
      const cb = pending.get(e.data.id);
      pending.delete(e.data.id);
      cb?.(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      const reply = (id: number): WorkbenchReply => ({
        id,
        ok: false,
        error: { message: e.message || 'the workbench worker failed to start', code: 'WORKER_CRASHED' },
      });
      for (const [id, cb] of pending) cb(reply(id));
      pending.clear();
      worker?.terminate();
      worker = null;
    };
    // The same-origin asset URLs the pruning worker gets (tree-sitter, grammars, the tokenizer's table).
    worker.postMessage({ kind: 'init', assets: workerInit().assets ?? {} } satisfies WorkbenchInit);
  }
  return worker;
}

type Req = Omit<WorkbenchRequest, 'id'>;

function send(req: Req): Promise<WorkbenchReply> {
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    getWorker().postMessage({ ...req, id });
  });
}

export interface RunState<V> {
  status: 'starting' | 'running' | 'done' | 'error';
  view: V | null;
  error: { message: string; code?: string } | null;
  /** Increments with each delivered result or error (tests wait on it). */
  seq: number;
  ms: number | null;
}

const DEBOUNCE_MS = 250;

function useWorkbench<V>(kind: Req['kind'], params: CardsParams | CompactParams, enabled: boolean): RunState<V> {
  const [run, setRun] = useState<RunState<V>>({ status: 'starting', view: null, error: null, seq: 0, ms: null });
  const my = useRef(0);
  const key = JSON.stringify(params);
  useEffect(() => {
    if (!enabled) return;
    const t = setTimeout(() => {
      const mine = ++my.current;
      setRun((r) => ({ ...r, status: r.status === 'starting' ? 'starting' : 'running' }));
      void send({ kind, params }).then((reply) => {
        if (mine !== my.current) return; // a newer request exists: never show this one
        if (reply.ok) setRun((r) => ({ status: 'done', view: reply.view as V, error: null, seq: r.seq + 1, ms: reply.ms }));
        else if (!reply.superseded) setRun((r) => ({ ...r, status: 'error', error: reply.error, seq: r.seq + 1 }));
      });
    }, DEBOUNCE_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, key, enabled]);
  return run;
}

export const useCards = (p: CardsParams, enabled: boolean) => useWorkbench<CardsView>('cards', p, enabled);
export const useCompaction = (p: CompactParams, enabled: boolean) => useWorkbench<CompactView>('compact', p, enabled);
