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
    return await loadAssetBytes(href, onProgress, signal);
  } catch (e) {
    if (e instanceof CtxpruneError) throw e;
    throw new CtxpruneError('ASSET_LOAD_FAILED', `cannot load the model from ${href}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/**
 * The bytes at `url` (env.fetch), read with progress (in bytes transferred); gzipped bytes (a
 * precompressed asset) are gunzipped. In browsers they are kept in the Cache API (when
 * runtimeConfig.cache), so a reload reads them from there. For immutable assets only (hashed
 * names, versioned URLs): a cached copy is never revalidated.
 */
export async function loadAssetBytes(url: string, onProgress?: ProgressCallback, signal?: AbortSignal): Promise<Uint8Array> {
  const caches = (globalThis as { caches?: CacheStorage }).caches;
  const useCache = runtimeConfig.cache && !!caches;
  if (useCache) {
    try {
      const hit = await (await caches.open(CACHE_NAME)).match(url);
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
  // A precompressed asset (for servers that do not compress .wasm) arrives gzipped, unless the
  // server declared its encoding and the browser already decoded it: gunzip by the magic bytes.
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await gunzip(bytes);
  if (useCache) {
    try { await (await caches.open(CACHE_NAME)).put(url, new Response(bytes.slice().buffer)); } catch { /* ignore */ }
  }
  return bytes;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
