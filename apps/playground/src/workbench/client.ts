/**
 * One workbench worker for the page (context cards), run by the tabs' shared loop (useLatestRun).
 */
import { workerInit } from '../assets';
import { useLatestRun, type RunReply, type RunState } from '../useLatestRun';
import type { CardsParams, CardsView, WorkbenchInit, WorkbenchReply, WorkbenchRequest } from './types';

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

export const useCards = (p: CardsParams, enabled: boolean): RunState<CardsView> =>
  useLatestRun(p, enabled, (params) => send({ kind: 'cards', params }) as Promise<RunReply<CardsView>>);
