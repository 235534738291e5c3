import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ModelSession } from '../../src/runtime/session.js';
import { defaultModelLocation } from '../../src/runtime/config.js';
import { FEATURE_COUNT, FEATURE_VERSION } from '../../src/features/lines.js';

const shippedModel = fileURLToPath(new URL('../../../../models/ctxprune-lamr.onnx', import.meta.url));
// training/smoke.sh runs these checks on a model it has just exported, against the torch outputs export.py wrote.
const modelPath = process.env.CTXPRUNE_PARITY_MODEL ?? shippedModel;
const refPath = process.env.CTXPRUNE_PARITY_REFERENCE ?? new URL('./fixtures/torch-outputs.json', import.meta.url);
const ref = JSON.parse(readFileSync(refPath, 'utf8')) as {
  n: number;
  f: number;
  semantic: number[];
  dependency: number[];
  gate: number[];
  doc: number;
  crf: number[];
  info: number[];
};
// The features the reference was computed on, written beside it by export.py (the features fixture may
// have moved on since: inference features are tested against that one in test/features).
const buf = readFileSync(new URL('features.f32', refPath instanceof URL ? refPath : pathToFileURL(refPath)));
const features = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

// The model is committed (models/): a checkout without it fails here rather than skipping.
describe('shipped model: onnxruntime-web (WASM, Node) and the js executor vs torch', { timeout: 60_000 }, () => {
  it('the default model location is the shipped file', () => {
    expect(fileURLToPath(defaultModelLocation() as URL)).toBe(shippedModel);
  });

  // The same checks on onnxruntime (WASM) and on the pure-TypeScript executor (js).
  for (const backend of ['wasm', 'js'] as const) {
    it(`outputs match the torch reference on the fixture features (${backend})`, async () => {
      const s = await ModelSession.create({ model: modelPath, backend });
      expect(s.backend).toBe(backend);
      expect(s.fallbackReason).toBeNull();
      expect(s.info.featureCount).toBe(FEATURE_COUNT);
      expect(s.info.featureVersion).toBe(FEATURE_VERSION);
      const out = await s.run(features, ref.n, ref.f);
      expect(maxAbsDiff(out.semantic, ref.semantic)).toBeLessThan(1e-4);
      expect(maxAbsDiff(out.dependency, ref.dependency)).toBeLessThan(1e-4);
      expect(maxAbsDiff(out.gate, ref.gate)).toBeLessThan(1e-5);
      expect(Math.abs(out.doc - ref.doc)).toBeLessThan(1e-5);
      expect(maxAbsDiff(out.crf, ref.crf)).toBeLessThan(1e-6);
      expect(Array.from(out.info ?? [])).toEqual(ref.info);
      await s.release();
    });
  }

  it('asking for WebGPU in Node falls back to WASM and says why', async () => {
    const s = await ModelSession.create({ model: modelPath, backend: 'webgpu' });
    expect(s.backend).toBe('wasm');
    expect(s.fallbackReason).toMatch(/WebGPU/);
    await s.release();
  });

  it('a missing model is a typed error', async () => {
    await expect(ModelSession.create({ model: '/nonexistent/model.onnx' })).rejects.toMatchObject({ code: 'ASSET_LOAD_FAILED' });
  });
});
