/**
 * Model bytes from a URL, a file path (Node), raw bytes, or the shipped default; with a progress
 * callback and, in browsers, the Cache API (the reading itself is io/assets.ts).
 */
import { CtxpruneError } from '../errors.js';
import { isLocal, loadAssetBytes, readLocal, type ProgressCallback } from '../io/assets.js';
import { defaultModelLocations, type ModelSource } from './config.js';

export { loadAssetBytes, type ProgressCallback } from '../io/assets.js';

export async function loadModelBytes(source: ModelSource, onProgress?: ProgressCallback, signal?: AbortSignal): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (source === null) {
    // The shipped default: the first candidate that exists (checkout, then installed package).
    const candidates = defaultModelLocations();
    for (let i = 0; i < candidates.length - 1; i++) {
      try {
        return await loadModelBytes(candidates[i], onProgress, signal);
      } catch {
        /* try the next place */
      }
    }
    return loadModelBytes(candidates[candidates.length - 1], onProgress, signal);
  }
  const where = source;
  const href = where instanceof URL ? where.href : where;
  try {
    if (isLocal(href)) {
      const bytes = await readLocal(href);
      onProgress?.(bytes.length, bytes.length);
      return bytes;
    }
    return await loadAssetBytes(href, onProgress, signal);
  } catch (e) {
    if (e instanceof CtxpruneError) throw e;
    throw new CtxpruneError('ASSET_LOAD_FAILED', `cannot load the model from ${href}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
