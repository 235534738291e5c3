/**
 * Where the default tokenizer comes from: the binary rank table at env.assets.tokenizerUrl (how
 * browsers skip parsing js-tiktoken's rank module), fetched through env.fetch; without a usable
 * table, the rank module. Each case loads text/tokens.ts afresh (the counter is loaded once per module).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const TABLE = fileURLToPath(new URL('../../dist/assets/o200k_base.bin', import.meta.url));
const URL_OF_TABLE = 'https://assets.test/o200k_base.bin';

async function freshCounter(fetch: (url: string) => Promise<Response>) {
  vi.resetModules();
  const config = await import('../../src/config.js');
  config.configure({ assets: { tokenizerUrl: URL_OF_TABLE }, fetch: (input) => fetch(String(input)) });
  const tokens = await import('../../src/text/tokens.js');
  return { counter: await tokens.loadDefaultTokenCounter(), config };
}

afterEach(() => {
  vi.resetModules();
});

describe('the tokenizer rank table (env.assets.tokenizerUrl)', () => {
  it('is fetched from the configured URL once and counts like o200k_base', async () => {
    const asked: string[] = [];
    const { counter } = await freshCounter(async (url) => {
      asked.push(url);
      return new Response(readFileSync(TABLE));
    });
    expect(asked).toEqual([URL_OF_TABLE]);
    expect(counter.name).toBe('o200k_base');
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count(' \u0085x')).toBe(4);
  });

  it('a table that is missing or corrupt falls back to the rank module, with the same counts', async () => {
    for (const body of [null, new Uint8Array([0x4f, 0x32, 0x4b, 0x32, 1, 2, 3])]) {
      const asked: string[] = [];
      const { counter } = await freshCounter(async (url) => {
        asked.push(url);
        return body ? new Response(body) : new Response('not found', { status: 404 });
      });
      expect(asked).toEqual([URL_OF_TABLE]);
      expect(counter.count('hello world')).toBe(2);
      expect(counter.count('A'.repeat(100))).toBe(13);
    }
  });
});
