/**
 * The playground's workbench worker: context cards off the main thread.
 * Requests of one kind supersede each other: a request that is no longer the newest of its kind
 * when its turn comes is answered `superseded` without running.
 */
import { configure, loadDefaultTokenCounter } from '@ctxprune/core';
import { runCards } from './compute';
import type { WorkbenchInit, WorkbenchReply, WorkbenchRequest } from './types';

const latest: Record<WorkbenchRequest['kind'], number> = { cards: 0 };
const post = (r: WorkbenchReply) => (self as unknown as Worker).postMessage(r);

self.onmessage = async (e: MessageEvent<WorkbenchRequest | WorkbenchInit>) => {
  // The page's asset URLs first: without them the library looked for tree-sitter's wasm beside
  // this worker's script, got the page's HTML, logged console errors and pruned the transcript's
  // file reads without a grammar (#21).
  if (e.data.kind === 'init') {
    const { grammarUrls, ...rest } = e.data.assets;
    configure({ assets: { ...rest, ...(grammarUrls ? { grammarUrls } : {}) } });
    return;
  }
  const req = e.data;
  latest[req.kind] = Math.max(latest[req.kind], req.id);
  // Let newer queued messages arrive first: a burst of changes runs only the last one.
  await new Promise((r) => setTimeout(r, 0));
  if (req.id !== latest[req.kind]) return post({ id: req.id, ok: false, superseded: true });
  const t0 = performance.now();
  try {
    const counter = await loadDefaultTokenCounter();
    const view = await runCards(req.params, counter);
    post({ id: req.id, ok: true, view, ms: performance.now() - t0 });
  } catch (err) {
    const x = err as { message?: string; code?: string };
    post({ id: req.id, ok: false, error: { message: x?.message ?? String(err), ...(x?.code ? { code: x.code } : {}) } });
  }
};
