import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { configure, env } from '../../src/config.js';
import { loadAssetBytes } from '../../src/runtime/model-bytes.js';

const realFetch = env.fetch;
afterEach(() => configure({ fetch: realFetch }));

/** A server that answers every URL with `body`, announcing its length. */
function serve(body: Uint8Array): string[] {
  const asked: string[] = [];
  configure({
    fetch: async (u) => {
      asked.push(String(u));
      return new Response(body.slice(), { headers: { 'content-length': String(body.length) } });
    },
  });
  return asked;
}

describe('loadAssetBytes', () => {
  const wasm = new Uint8Array(50_000).map((_, i) => (i < 4 ? [0, 0x61, 0x73, 0x6d][i] : (i * 7919) % 251));

  it('returns the bytes as served, with progress up to the announced length', async () => {
    serve(wasm);
    const seen: [number, number | null][] = [];
    const out = await loadAssetBytes('http://x/a.wasm', (l, t) => seen.push([l, t]));
    expect(out).toEqual(wasm);
    expect(seen.at(-1)).toEqual([wasm.length, wasm.length]);
  });

  it('gunzips a precompressed asset, counting the compressed bytes it transferred', async () => {
    const gz = new Uint8Array(gzipSync(wasm));
    serve(gz);
    const seen: [number, number | null][] = [];
    const out = await loadAssetBytes('http://x/a.wasm.gzip', (l, t) => seen.push([l, t]));
    expect(out).toEqual(wasm);
    expect(seen.at(-1)).toEqual([gz.length, gz.length]);
  });

  it('a server error is an error', async () => {
    configure({ fetch: async () => new Response('no', { status: 404 }) });
    await expect(loadAssetBytes('http://x/missing.wasm')).rejects.toThrow(/HTTP 404/);
  });
});
