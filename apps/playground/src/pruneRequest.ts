/**
 * The line-pruning tab's request: the state a page load starts from (the link, else the default
 * sample), and the worker request a state makes. One function for both the tab and boot.ts, which
 * sends the first request with the worker's start (preload.request) so that the worker prunes it
 * while the page builds its editors; the tab's first request is then the same and gets that result.
 */
import { detectLanguage, isLanguageId } from '@ctxprune/core';
import type { WorkerPreload, WorkerPruneOptions } from '@ctxprune/core/worker';
import { DEFAULT_SAMPLE, findSample } from './samples';
import { readUrlState, type ViewState } from './urlState';

/** The tab's state on a page load: the link's, filled in from its sample (default: DEFAULT_SAMPLE). */
export function initialViewState(search: string): ViewState {
  const fromUrl = readUrlState(search);
  const sample = fromUrl.code != null ? null : (findSample(fromUrl.sample) ?? DEFAULT_SAMPLE);
  return {
    sample: sample?.id ?? null,
    code: fromUrl.code ?? sample?.code ?? '',
    fileName: fromUrl.fileName ?? sample?.fileName ?? null,
    language: fromUrl.language ?? 'auto',
    query: fromUrl.query ?? sample?.query ?? '',
    ratio: fromUrl.ratio ?? 4,
    tokens: fromUrl.tokens ?? null,
    engine: fromUrl.engine ?? 'auto',
    elision: fromUrl.elision ?? 'bare',
    layer: fromUrl.layer ?? 'keep',
  };
}

/** What the worker is asked to prune for a state. */
export function pruneRequest(s: ViewState): { text: string; options: WorkerPruneOptions } {
  return {
    text: s.code ?? '',
    options: {
      query: s.query,
      ...(s.tokens !== null ? { tokens: s.tokens } : { ratio: s.ratio }),
      language: s.language,
      fileName: s.fileName ?? undefined,
      engine: s.engine,
      elision: s.elision,
    },
  };
}

/** The worker's preload for a page load: the first request, its language's grammar and its engine. */
export function firstRequest(search: string): WorkerPreload {
  const s = initialViewState(search);
  let language: string | null = null;
  try {
    language = isLanguageId(s.language) ? s.language : detectLanguage(s.fileName, (s.code ?? '').slice(0, 200_000));
  } catch {
    /* detected later, by the worker */
  }
  return { languages: language ? [language] : [], engine: s.engine, request: pruneRequest(s) };
}
