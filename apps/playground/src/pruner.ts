import { detectLanguage, isLanguageId } from '@ctxprune/core';
import { createPrunerClient, type LoadProgress, type PrunerClient, type WorkerPreload } from '@ctxprune/core/worker';
import PrunerWorker from '@ctxprune/core/worker/prune.worker?worker';
import { workerInit } from './assets';
import { DEFAULT_SAMPLE, findSample } from './samples';
import { readTab } from './tabState';
import { readUrlState } from './urlState';

let client: PrunerClient | null = null;
const listeners = new Set<() => void>();
/** The latest progress of every one-time load, by kind and name (a late listener gets them all). */
const loads = new Map<string, LoadProgress>();

/** Download progress of the one-time loads (model, onnxruntime, tokenizer, grammars), for the progress list. */
export function onLoadProgress(fn: (loads: LoadProgress[]) => void): () => void {
  const call = () => fn([...loads.values()]);
  listeners.add(call);
  call();
  return () => listeners.delete(call);
}

/** What the first request will need, from the link (or the default sample): its language and engine. */
function firstRequest(): WorkerPreload {
  const u = readUrlState(window.location.search);
  const sample = u.code != null ? null : (findSample(u.sample) ?? DEFAULT_SAMPLE);
  const code = u.code ?? sample?.code ?? '';
  const fileName = u.fileName ?? sample?.fileName ?? null;
  let language: string | null = null;
  try {
    language = u.language && isLanguageId(u.language) ? u.language : detectLanguage(fileName, code.slice(0, 200_000));
  } catch {
    /* detected later, by the worker */
  }
  return { languages: language ? [language] : [], engine: u.engine ?? 'auto' };
}

/** One pruning worker for the page. */
export function getPruner(): PrunerClient {
  client ??= createPrunerClient({
    createWorker: () => new PrunerWorker({ name: 'ctxprune-pruner' }),
    init: { ...workerInit(), ...(readTab(window.location.search) === 'pruning' ? { preload: firstRequest() } : {}) },
    onProgress: (p) => {
      loads.set(`${p.what}:${p.name ?? ''}`, p);
      listeners.forEach((fn) => fn());
    },
  });
  return client;
}

/**
 * Start the worker now, before React renders: it loads the tokenizer, the first request's
 * grammar and (for the neural engines) onnxruntime and the model in parallel while the page
 * builds its editors.
 */
export function startPruner(): void {
  void getPruner()
    .capabilities()
    .catch(() => undefined);
}
