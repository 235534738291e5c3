/**
 * Cutting a message line by line with the LaMR pipeline (prune/pipeline.ts): the goal is the
 * query, the language comes from the tool call's path argument (else from the content), and the
 * rendered cut ends with one line naming the store key of the whole original. Loaded lazily:
 * the pipeline pulls in syntax and scoring, which reactive compaction does not need.
 */
import { degradation, noteOnce, type CompactionDegradation } from '../degradations.js';
import type { PreparedPrune } from '../prune/pipeline.js';
import { describeScorer, type Scorer } from '../scorers/types.js';
import { lineCount, splitLines } from '../text/lines.js';
import type { TokenCounter } from '../text/tokens.js';
import { identityOf, type CachedCut, type PreparationCache } from './preparations.js';
import type { CompactOptions, Message } from './types.js';

export interface Cut {
  content: string;
  tokens: number;
  /** 1-based lines of the original the cut keeps. */
  keptLines: number[];
}

export function cutFooter(elided: number, key: string): string {
  return `[${elided} line${elided === 1 ? '' : 's'} pruned; use read_overflow ${key} to retrieve]`;
}

/** The file a tool result holds, from its call's arguments (path, file_path, filename, file, target_file). */
export function pathArgument(args: string | undefined): string | undefined {
  if (!args) return undefined;
  let a: unknown;
  try {
    a = JSON.parse(args);
  } catch {
    return undefined;
  }
  if (a === null || typeof a !== 'object') return undefined;
  const r = a as Record<string, unknown>;
  for (const k of ['path', 'file_path', 'filePath', 'filename', 'file', 'target_file']) {
    if (typeof r[k] === 'string' && r[k] !== '') return r[k];
  }
  return undefined;
}

export interface CutContext {
  counter: TokenCounter;
  scorer: CompactOptions['scorer'];
  degraded: CompactionDegradation[];
  /** The scorers the cuts were made with, each once (`describeScorer`: 'auto' says what it fell back from). */
  used: string[];
  /**
   * Each message's preparation for a query (prune's syntax, scoring and line costs: everything but
   * the budget), by its store key and the query: a message's cuts at every size (and the retries,
   * top-ups and protected cuts) share one preparation instead of one each.
   */
  prepared: Map<string, Promise<PreparedPrune>>;
  /** `scorer` resolved once (null when it does not resolve: prune() is then given it as it is, and says why). */
  resolved?: Promise<Scorer | null>;
  /** The caller's cache across calls (CompactOptions.preparations), and what its keys start with: the scorer and the tokenizer. */
  shared?: { cache: PreparationCache; prefix: string };
}

/** What a cross-call key starts with: the scorer and the tokenizer a preparation was made with. */
export function preparationPrefix(scorer: CompactOptions['scorer'], tokenCounter: CompactOptions['tokenCounter']): string {
  const s = scorer === undefined ? 'default' : typeof scorer === 'string' ? scorer : identityOf(scorer);
  return `${s}\0${tokenCounter === undefined ? 'o200k_base' : identityOf(tokenCounter)}`;
}

/** `ctx.scorer` resolved once per call, as prune() resolves it (null: it does not resolve, and prune() says why). */
async function resolvedScorer(ctx: CutContext): Promise<Scorer | null> {
  const { scorerOf } = await import('../prune/pipeline.js');
  return (ctx.resolved ??= scorerOf(ctx.scorer).catch(() => null));
}

/**
 * The key of message m's preparation in the cross-call cache, or null when the cache is not to be
 * used. A scorer given by name is resolved afresh by each call: 'auto' whose model did not load
 * this time (its lexical fallback) keeps its own entries, and a scorer that does not resolve none.
 */
async function sharedKey(ctx: CutContext, key: string, query: string, fileName: string | undefined): Promise<string | null> {
  const shared = ctx.shared;
  if (!shared) return null;
  const resolved = await resolvedScorer(ctx);
  if (!resolved) return null;
  // A scorer that stands in for another says why (LexicalFallbackScorer; a model session's runtime fallback).
  const why = (resolved as { fallbackReason?: unknown }).fallbackReason;
  const fallback = typeof why === 'string' && why !== '' ? `\0fallback: ${why}` : '';
  return `${shared.prefix}${fallback}\0${fileName ?? ''}\0${query}\0${key}`;
}

/** Message m prepared once per query (and across calls under `shared`, the cache's key). */
async function preparedFor(
  ctx: CutContext,
  m: Message,
  key: string,
  query: string,
  fileName: string | undefined,
  lines: number,
  shared: string | null,
): Promise<PreparedPrune> {
  const memoKey = `${key}\0${query}`;
  let prepared = ctx.prepared.get(memoKey);
  if (!prepared) {
    const { preparePrune } = await import('../prune/pipeline.js');
    const resolved = await resolvedScorer(ctx);
    const prepare = () =>
      preparePrune(m.content, {
        query,
        tokenCounter: ctx.counter,
        // Indented markers (text/elision.ts): at the margin the cuts got cheaper and the tuning set lost.
        elision: 'indented',
        // Docstrings as the scorer rates them (prune/documentation.ts): lowered, the tuning set's
        // task_aware_mig went 0.753 / 0.587 → 0.751 / 0.581 at ¼ / ⅛, where pruning's cases gained.
        // Nor raised for a goal about the documentation: raised, task_aware_mig ¼ / ⅛ went tune 0.753 /
        // 0.587 → 0.753 / 0.590, val unchanged, holdout 0.788 / 0.581 → 0.786 / 0.582 (noise).
        tuning: { docstringWeight: 0, docsQueryWeight: 0 },
        ...(fileName ? { fileName } : {}),
        ...(resolved ? { scorer: resolved } : ctx.scorer !== undefined ? { scorer: ctx.scorer } : {}),
      });
    prepared = ctx.shared && shared !== null ? ctx.shared.cache.obtain(shared, m.content, lines, prepare) : prepare();
    ctx.prepared.set(memoKey, prepared);
  }
  return prepared;
}

/**
 * The message cut to at most `allot` tokens (footer included), or null when no cut fits, nothing
 * would be left out, or the pipeline refuses the text (said once in `degraded`).
 */
export async function cutMessage(m: Message, key: string, query: string, allot: number, fileName: string | undefined, ctx: CutContext): Promise<Cut | null> {
  const n = lineCount(splitLines(m.content));
  if (n < 2 || allot < 1) return null;
  // A cut an earlier call made from the same preparation at the same allotment (CompactOptions.preparations).
  const shared = await sharedKey(ctx, key, query, fileName);
  const held = shared !== null ? ctx.shared?.cache.heldCut(shared, m.content, allot) : undefined;
  if (held) {
    if (!ctx.used.includes(held.by)) ctx.used.push(held.by);
    return held.cut;
  }
  const made = await cutAt(m, key, query, allot, n, fileName, shared, ctx);
  if (made && shared !== null) ctx.shared?.cache.keepCut(shared, m.content, allot, made);
  return made ? made.cut : null;
}

/** cutMessage's work: the cut (null when none fits or nothing would be left out) and the scorer that made it; null when the pipeline refused the text. */
async function cutAt(
  m: Message,
  key: string,
  query: string,
  allot: number,
  n: number,
  fileName: string | undefined,
  shared: string | null,
  ctx: CutContext,
): Promise<CachedCut | null> {
  const footerCost = ctx.counter.count('\n' + cutFooter(n, key));
  let tokens = Math.floor(allot - footerCost);
  let by = '';
  for (let attempt = 0; attempt < 3 && tokens >= 1; attempt++) {
    let r;
    try {
      r = await (await preparedFor(ctx, m, key, query, fileName, n, shared)).at({ tokens });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      noteOnce(ctx.degraded, degradation('LINE_PRUNER_REFUSED', `line pruner refused ${m.id} (${why}): it is kept whole or evicted`));
      return null;
    }
    by = describeScorer(r.stats);
    if (!ctx.used.includes(by)) ctx.used.push(by);
    if (r.keptLines.length === 0 || r.keptLines.length >= n) return { cut: null, by };
    const content = `${r.text}\n${cutFooter(n - r.keptLines.length, key)}`;
    const t = ctx.counter.count(content);
    if (t <= allot) return { cut: { content, tokens: t, keptLines: r.keptLines }, by };
    tokens -= t - allot + 1; // tokenizers merge at the join: ask for a little less
  }
  return by ? { cut: null, by } : null;
}
