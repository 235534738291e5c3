import { afterEach, describe, expect, it } from 'vitest';
import { configure, DEFAULT_RUNTIME, env } from '../src/config.js';
import { configureFromEnvironment, runtimeFromEnvironment } from '../src/environment.js';

describe('one configuration surface', () => {
  afterEach(() => {
    configure({ runtime: { ...DEFAULT_RUNTIME }, fetch: (input, init) => globalThis.fetch(input, init) });
  });

  it('the library reads no environment variable: the tuning defaults hold whatever process.env says', async () => {
    process.env.CTXPRUNE_NEURAL_TSCALE = '9';
    const url = '../src/config.js?fresh';
    const fresh: typeof import('../src/config.js') = await import(url);
    expect(fresh.env.runtime.transitionScale).toBe(0.5);
    delete process.env.CTXPRUNE_NEURAL_TSCALE;
  });

  it('the CLI edge maps its variables onto configure()', () => {
    expect(
      runtimeFromEnvironment({ CTXPRUNE_MODEL: '/m.onnx', CTXPRUNE_NEURAL_TSCALE: '0.25', CTXPRUNE_NEURAL_BLEND: 'x', CTXPRUNE_NEURAL_SPREAD: '' }),
    ).toEqual({ model: '/m.onnx', transitionScale: 0.25 });
    configureFromEnvironment({ CTXPRUNE_NEURAL_SEMGATE: '0.5' });
    expect(env.runtime.semanticGate).toBe(0.5);
  });

  it('configure() sets assets, fetch and runtime in one call, and model/ortWasmPaths as shorthands', () => {
    const fetch = () => Promise.resolve(new Response(''));
    configure({ fetch, model: 'https://x/m.onnx', ortWasmPaths: 'https://x/ort/', runtime: { backend: 'wasm' } });
    expect(env.fetch).toBe(fetch);
    expect(env.runtime).toMatchObject({ model: 'https://x/m.onnx', wasmPaths: 'https://x/ort/', backend: 'wasm' });
  });
});
