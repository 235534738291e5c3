/**
 * Model bytes from a URL, a file path (Node), raw bytes, or the shipped default; with a progress
 * callback and, in browsers, the Cache API.
 */
import { env, isNode } from '../config.js';
import { CtxpruneError } from '../errors.js';
import { defaultModelLocations, type ModelSource, runtimeConfig } from './config.js';

export type ProgressCallback = (loaded: number, total: number | null) => void;

const CACHE_NAME = 'ctxprune-models-v1';

export async function loadModelBytes(source: ModelSource, onProgress?: ProgressCallback, signal?: AbortSignal): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (source === null) {
    // The shipped default: the first candidate that exists (checkout, then installed package).
    const candidates = defaultModelLocations();
    for (let i = 0; i < candidates.length - 1; i++) {
      try {
        return await loadModelBytes(candidates[i], onProgress, signal);
      } catch { /* try the next place */ }
    }
    return loadModelBytes(candidates[candidates.length - 1], onProgress, signal);
  }
  const where = source;
  const href = where instanceof URL ? where.href : where;
  try {
    if (isNode && (href.startsWith('file:') || !/^[a-z][a-z0-9+.-]*:/i.test(href))) {
      const fs = await import('node:fs/promises');
      const { fileURLToPath } = await import('node:url');
      const bytes = new Uint8Array(await fs.readFile(href.startsWith('file:') ? fileURLToPath(href) : href));
      onProgress?.(bytes.length, bytes.length);
      return bytes;
    }
    return await fetchBytes(href, onProgress, signal);
  } catch (e) {
    if (e instanceof CtxpruneError) throw e;
    throw new CtxpruneError('ASSET_LOAD_FAILED', `cannot load the model from ${href}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

async function fetchBytes(url: string, onProgress?: ProgressCallback, signal?: AbortSignal): Promise<Uint8Array> {
  const caches = (globalThis as { caches?: CacheStorage }).caches;
  const useCache = runtimeConfig.cache && !!caches;
  if (useCache) {
    try {
      const hit = await (await caches!.open(CACHE_NAME)).match(url);
      if (hit) {
        const bytes = new Uint8Array(await hit.arrayBuffer());
        onProgress?.(bytes.length, bytes.length);
        return bytes;
      }
    } catch { /* the cache is an optimisation only */ }
  }
  const res = await env.fetch(url, { signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length')) || null;
  let bytes: Uint8Array;
  if (res.body && onProgress) {
    const reader = res.body.getReader();
    const parts: Uint8Array[] = [];
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      loaded += value.length;
      onProgress(loaded, total);
    }
    bytes = new Uint8Array(loaded);
    let o = 0;
    for (const p of parts) { bytes.set(p, o); o += p.length; }
  } else {
    bytes = new Uint8Array(await res.arrayBuffer());
    onProgress?.(bytes.length, total);
  }
  if (useCache) {
    try { await (await caches!.open(CACHE_NAME)).put(url, new Response(bytes.slice().buffer)); } catch { /* ignore */ }
  }
  return bytes;
}
