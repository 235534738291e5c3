/**
 * All asset I/O of the library, in one module: a grammar, tree-sitter's runtime, the model and
 * onnxruntime's wasm are read from a local path (Node: `node:fs`) or fetched with `env.fetch`
 * (with progress, gunzip of precompressed files and, in browsers, the Cache API). Node-only
 * modules are imported dynamically through specifiers in variables, so this module bundles for
 * the browser.
 */
import { env, isNode, withSlash } from '../config.js';

export type ProgressCallback = (loaded: number, total: number | null) => void;

const CACHE_NAME = 'ctxprune-models-v1';

// Specifiers in variables keep bundlers from pulling Node built-ins into browser builds.
// node:fs, not node:fs/promises: the promises module loads ~10 more of Node's (streams, readline,
// watchers), ~3 ms of a one-shot `ctxprune prune`, to read three files.
const NODE_FS = 'node:fs';
const NODE_URL = 'node:url';
const NODE_PATH = 'node:path';

/** An http(s), data: or blob: URL (not a path, not a file: URL). */
export function isRemote(u: string): boolean {
  return /^(https?|data|blob):/i.test(u);
}

/**
 * A file of the built package's dist/assets/ (scripts/copy-assets.mjs puts the tokenizer table, the
 * tree-sitter runtime and the grammars there), as a file: URL; for Node. This module sits one folder
 * below dist/, as every module does (the CLI's one-file bundle too). The path is joined at run time so
 * that bundlers do not take it for an asset of their own.
 */
export function builtAssetUrl(file: string): string {
  return new URL(['..', 'assets', file].join('/'), import.meta.url).href;
}

/** Whether `location` is read from disk: Node, and a path or a file: URL. */
export function isLocal(location: string): boolean {
  return isNode && (/^file:/i.test(location) || !/^[a-z][a-z0-9+.-]*:/i.test(location));
}

/** The bytes of a local file (path or file: URL), a view of the buffer the read filled (no copy); Node only. */
export async function readLocal(location: string): Promise<Uint8Array> {
  const fs = (await import(/* @vite-ignore */ NODE_FS)) as typeof import('node:fs');
  let p = location;
  if (/^file:/i.test(p)) {
    const { fileURLToPath } = (await import(/* @vite-ignore */ NODE_URL)) as typeof import('node:url');
    p = fileURLToPath(p);
  }
  const b = await new Promise<Buffer>((resolve, reject) => fs.readFile(p, (err, data) => (err ? reject(err) : resolve(data))));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Read an asset: local path / file: URL via fs in Node, otherwise env.fetch (no progress, no cache). */
export async function readAsset(location: string): Promise<Uint8Array> {
  if (isNode && !isRemote(location)) return readLocal(location);
  const res = await env.fetch(location);
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
  return new Uint8Array(await res.arrayBuffer());
}

/** `file` under `base`: a path join for a Node directory path, else a URL join. */
export async function joinBase(base: string | URL, file: string): Promise<string> {
  const b = String(base);
  if (isNode && !isRemote(b) && !/^file:/i.test(b)) {
    const path = (await import(/* @vite-ignore */ NODE_PATH)) as typeof import('node:path');
    return path.join(b, file);
  }
  return withSlash(b) + file;
}

/**
 * The bytes at `url` (env.fetch), read with progress (in bytes transferred); gzipped bytes (a
 * precompressed asset) are gunzipped. In browsers they are kept in the Cache API (when
 * env.runtime.cache), so a reload reads them from there. For immutable assets only (hashed
 * names, versioned URLs): a cached copy is never revalidated.
 */
export async function loadAssetBytes(url: string, onProgress?: ProgressCallback, signal?: AbortSignal): Promise<Uint8Array> {
  const caches = (globalThis as { caches?: CacheStorage }).caches;
  const useCache = env.runtime.cache && !!caches;
  if (useCache) {
    try {
      const hit = await (await caches.open(CACHE_NAME)).match(url);
      if (hit) {
        const bytes = new Uint8Array(await hit.arrayBuffer());
        onProgress?.(bytes.length, bytes.length);
        return bytes;
      }
    } catch {
      /* the cache is an optimisation only */
    }
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
    for (const p of parts) {
      bytes.set(p, o);
      o += p.length;
    }
  } else {
    bytes = new Uint8Array(await res.arrayBuffer());
    onProgress?.(bytes.length, total);
  }
  // A precompressed asset (for servers that do not compress .wasm) arrives gzipped, unless the
  // server declared its encoding and the browser already decoded it: gunzip by the magic bytes.
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await gunzip(bytes);
  if (useCache) {
    try {
      await (await caches.open(CACHE_NAME)).put(url, new Response(bytes.slice().buffer));
    } catch {
      /* ignore */
    }
  }
  return bytes;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
