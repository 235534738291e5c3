/**
 * The pool's worker (pool.ts): runs prune / compact / pack / locate / search for the server off its main thread, with the
 * scorer the server was started with (resolved here once, the lexical scorer when it cannot load).
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  compact,
  createPreparationCache,
  loadDefaultTokenCounter,
  prune,
  resolveScorer,
  type CompactOptions,
  type Message,
  type PruneOptions,
  type Scorer,
} from '@ctxprune/core';
import { configureFromEnvironment, packDirectory } from '@ctxprune/core/node';
import { locateJob, type LocateJobOptions } from './locate.js';
import type { PackJobOptions } from './pool.js';
import { searchJob, type SearchJobOptions } from './search.js';

// CTXPRUNE_MODEL and the neural tuning variables, as the CLI reads them.
configureFromEnvironment(process.env);

const name = (workerData as { scorer: 'auto' | 'neural' | 'lexical' }).scorer;
let sc: Promise<Scorer | 'lexical'> | null = null;
const scorer = () => (sc ??= name === 'lexical' ? Promise.resolve('lexical' as const) : resolveScorer(name).catch(() => 'lexical' as const));

/**
 * compact_history's preparations across calls (the pool sends every compaction to the worker that
 * made the last one while it is idle): an agent that compacts each turn re-cuts the same reads.
 */
const preparations = createPreparationCache();

type Job =
  | { id: number; op: 'warm' }
  | { id: number; op: 'prune'; text: string; options: PruneOptions }
  | { id: number; op: 'compact'; messages: Message[]; options: CompactOptions }
  | { id: number; op: 'pack'; options: PackJobOptions }
  | { id: number; op: 'locate'; options: LocateJobOptions }
  | { id: number; op: 'search'; options: SearchJobOptions };

async function run(job: Job): Promise<void> {
  try {
    let value: unknown = null;
    if (job.op === 'warm') {
      await Promise.all([scorer(), loadDefaultTokenCounter()]);
    } else if (job.op === 'prune') {
      value = await prune(job.text, { ...job.options, scorer: await scorer() });
    } else if (job.op === 'pack') {
      value = await packDirectory({ ...job.options, scorer: await scorer() });
    } else if (job.op === 'locate') {
      value = await locateJob(job.options, scorer);
    } else if (job.op === 'search') {
      value = await searchJob(job.options);
    } else {
      const r = await compact(job.messages, { ...job.options, scorer: await scorer(), preparations });
      // The store is a class: its entries travel, in order, and are put back on the other side.
      value = { ...r, store: Object.values(r.store.toJSON()) };
    }
    parentPort!.postMessage({ id: job.id, ok: true, value });
  } catch (e) {
    const err = e as { message?: string; code?: string };
    parentPort!.postMessage({ id: job.id, ok: false, message: err?.message ?? String(e), code: err?.code });
  }
}

parentPort!.on('message', (job: Job) => {
  void run(job);
});
