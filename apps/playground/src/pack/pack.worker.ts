/**
 * The "Repository pack" tab's worker: packContext over the ledger sample (index built once),
 * with the grammar URLs the page hands over. A request that is no longer the newest when its
 * turn comes is answered `superseded` without running.
 */
import { buildPackIndex, configure, loadDefaultTokenCounter, packContext, type PackIndex } from '@ctxprune/core';
import { LEDGER_FILES } from '../samples/ledgerRepo';
import type { PackReply, PackRequest } from './types';

let index: PackIndex | null = null;
let latest = 0;
const post = (r: PackReply) => (self as unknown as Worker).postMessage(r);

self.onmessage = async (e: MessageEvent<PackRequest>) => {
  const req = e.data;
  latest = Math.max(latest, req.id);
  await new Promise((r) => setTimeout(r, 0));
  if (req.id !== latest) return post({ id: req.id, ok: false, superseded: true });
  try {
    if (req.assets) configure({ assets: req.assets });
    const tokenCounter = await loadDefaultTokenCounter();
    index ??= buildPackIndex(LEDGER_FILES);
    const r = await packContext({ index, task: req.params.task, tokens: req.params.budget, lineNumbers: req.params.lineNumbers, tokenCounter });
    post({
      id: req.id,
      ok: true,
      view: {
        text: r.text,
        tokens: r.tokens,
        budget: r.budget,
        ms: r.stats.ms,
        files: r.files.map((f) => ({ path: f.path, kept: f.keptLines.length, total: f.totalLines, tokens: f.tokens, whole: f.whole, prior: f.prior })),
        map: r.map.length,
        ranked: r.ranked,
        excluded: r.stats.excludedFiles,
        degraded: r.stats.degraded.map((d) => d.message),
      },
    });
  } catch (err) {
    const x = err as { message?: string; code?: string };
    post({ id: req.id, ok: false, error: { message: x?.message ?? String(err), ...(x?.code ? { code: x.code } : {}) } });
  }
};
