/**
 * Preparations kept across compact() calls. A harness that compacts its transcript every turn, or
 * a slider that moves the budget, cuts the same messages for the same goal again and again; a
 * message's preparation (prune's syntax, scores and line costs: everything but the budget) can
 * then be made once, and so can each of its cuts (the offers cut a message at fixed shares of its
 * own tokens, which do not change from one call to the next). Bounded by the lines it holds (each
 * ~270–390 bytes: measured on 39 dev files of 900–1,200 lines, lexical and model scorer), least
 * recently used first out.
 */
import type { PreparedPrune } from '../prune/pipeline.js';
import type { Cut } from './cuts.js';
import { CtxpruneError } from '../errors.js';

export interface PreparationCacheOptions {
  /** Lines held at most, over all entries (default 50,000: ~20 MB). An input longer than this is not kept. */
  maxLines?: number;
}

/** Cuts kept per message (see keepCut). */
const MAX_CUTS = 16;

interface Entry {
  content: string;
  lines: number;
  prepared: Promise<PreparedPrune>;
  /** The message's cuts from this preparation by their token allotment (cuts.ts): the same allotment gives the same cut. */
  cuts: Map<number, CachedCut>;
}

/** A cut as cutMessage made it (null: none fits or none is needed) and the scorer that made it. */
export interface CachedCut {
  cut: Cut | null;
  by: string;
}

export class PreparationCache {
  readonly maxLines: number;
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(options: PreparationCacheOptions = {}) {
    const max = options.maxLines ?? 50_000;
    if (typeof max !== 'number' || !(max >= 0)) throw new CtxpruneError('INVALID_OPTION', `maxLines must be a number >= 0, got ${String(max)}`);
    this.maxLines = max;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** Lines held now, over all entries. */
  get lines(): number {
    return this.held;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /**
   * The preparation of `content` under `key` (what else it depends on: the query, the file name,
   * the scorer, the tokenizer), made by `prepare` when none is held. A preparation that fails is
   * not kept (its error may be passing: a model that did not load).
   */
  obtain(key: string, content: string, lines: number, prepare: () => Promise<PreparedPrune>): Promise<PreparedPrune> {
    const held = this.entries.get(key);
    if (held && held.content === content) {
      // Most recently used last, so that the first entry is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, held);
      return held.prepared;
    }
    if (held) this.remove(key, held);
    const prepared = prepare();
    if (lines > this.maxLines) return prepared;
    const entry: Entry = { content, lines, prepared, cuts: new Map() };
    this.entries.set(key, entry);
    this.held += lines;
    for (const [k, e] of this.entries) {
      if (this.held <= this.maxLines) break;
      this.remove(k, e);
    }
    prepared.catch(() => {
      if (this.entries.get(key) === entry) this.remove(key, entry);
    });
    return prepared;
  }

  /** The cut made at `allot` from the preparation held under `key` for `content`, if one was kept. */
  heldCut(key: string, content: string, allot: number): CachedCut | undefined {
    const held = this.entries.get(key);
    return held && held.content === content ? held.cuts.get(allot) : undefined;
  }

  /**
   * Keep a cut made at `allot` with the preparation held under `key` (none held: nothing kept). A
   * message keeps its MAX_CUTS latest: the offers' three shares, and the protected tail's and the
   * top-ups' cuts, whose allotment changes with the budget.
   */
  keepCut(key: string, content: string, allot: number, cut: CachedCut): void {
    const held = this.entries.get(key);
    if (!held || held.content !== content) return;
    held.cuts.delete(allot);
    held.cuts.set(allot, cut);
    for (const k of held.cuts.keys()) {
      if (held.cuts.size <= MAX_CUTS) break;
      held.cuts.delete(k);
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.held -= entry.lines;
  }
}

/** A cache to pass as `CompactOptions.preparations` to every compact() of one session. */
export function createPreparationCache(options?: PreparationCacheOptions): PreparationCache {
  return new PreparationCache(options);
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/** A name for an object (a scorer, a tokenizer) that no other object of this process shares. */
export function identityOf(x: object): string {
  let id = ids.get(x);
  if (id === undefined) ids.set(x, (id = nextId++));
  return `#${id}`;
}
