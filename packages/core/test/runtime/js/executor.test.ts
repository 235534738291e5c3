/**
 * The js executor as a backend: typed refusal of what it cannot run (and ModelSession's fallback
 * to WASM, saying why), and the same pruning as onnxruntime on sample files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JsModel, OnnxRunError, OnnxUnsupportedError } from '../../../src/runtime/js/executor.js';
import { fuse } from '../../../src/runtime/js/fuse.js';
import { tensor } from '../../../src/runtime/js/tensor.js';
import { ModelSession } from '../../../src/runtime/session.js';
import { FEATURE_SETS } from '../../../src/features/lines.js';
import { prune } from '../../../src/prune/pipeline.js';
import { NeuralScorer } from '../../../src/scorers/neural.js';
import { lineScorerOnnx } from '../../fixtures/onnx.js';

const shipped = new Uint8Array(readFileSync(new URL('../../../../../models/ctxprune-lamr.onnx', import.meta.url)));

describe('js executor: what it refuses', () => {
  it('an unknown operator is an OnnxUnsupportedError at load that names it', () => {
    // unsupported-op.onnx: features → Mystery → y, written with python's onnx helper.
    const bytes = new Uint8Array(readFileSync(new URL('../fixtures/unsupported-op.onnx', import.meta.url)));
    expect(() => JsModel.load(bytes)).toThrow(OnnxUnsupportedError);
    expect(() => JsModel.load(bytes)).toThrow(/operator Mystery \(node "mystery"\) is not implemented/);
  });

  it('bytes that are not a model are refused with the same error', () => {
    expect(() => JsModel.load(Uint8Array.of(0x0a, 0xff))).toThrow(OnnxUnsupportedError);
  });

  it('a wrong input shape is an OnnxRunError at run time', () => {
    const m = JsModel.load(shipped);
    expect(() => m.run({ features: tensor('float32', [1, 2, 3], new Float32Array(6)) })).toThrow(OnnxRunError);
  });

  it('ModelSession on js falls back to WASM for a model it cannot run, and says why', async () => {
    // The broken-model fixture uses Slice and Abs, which the executor does not implement.
    const model = lineScorerOnnx({ scale: 1, featureCount: FEATURE_SETS[1].length, featureVersion: 1 });
    const s = await ModelSession.create({ model, backend: 'js' });
    expect(s.backend).toBe('wasm');
    expect(s.fallbackReason).toMatch(/^js executor: operator (Slice|Abs)/);
    await s.release();
  }, 60_000);
});

describe('js executor: same outputs as onnxruntime', () => {
  const samples = ['rate_limiter.py', 'cache.ts', 'Inventory.java', 'ring.rs'];
  const queries = ['retry after a negative value', 'evict the least recently used entry', 'restock an item', 'wrap around when full'];

  it('emissions within 1e-4 of WASM on 300 random lines, and identical kept lines on sample files', async () => {
    const [js, wasm] = await Promise.all([NeuralScorer.load({ backend: 'js' }), NeuralScorer.load({ backend: 'wasm' })]);
    expect([js.backend, wasm.backend]).toEqual(['js', 'wasm']);
    const jsSession = await ModelSession.create({ backend: 'js' });
    const wasmSession = await ModelSession.create({ backend: 'wasm' });
    const F = jsSession.info.featureCount;
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 4 - 2;
    const x = Float32Array.from({ length: 300 * F }, rand);
    const [a, b] = [await jsSession.run(x, 300, F), await wasmSession.run(x, 300, F)];
    for (const k of ['semantic', 'dependency', 'gate'] as const) {
      let d = 0;
      for (let i = 0; i < a[k].length; i++) d = Math.max(d, Math.abs(a[k][i] - b[k][i]));
      expect(d, k).toBeLessThan(1e-4);
    }
    expect(Math.abs(a.doc - b.doc)).toBeLessThan(1e-5);
    for (const [i, name] of samples.entries()) {
      const text = readFileSync(new URL(`../../fixtures/samples/${name}`, import.meta.url), 'utf8');
      const opts = { query: queries[i], ratio: 3, fileName: name };
      const [r1, r2] = [await prune(text, { ...opts, scorer: js }), await prune(text, { ...opts, scorer: wasm })];
      expect(r1.stats.backend).toBe('js');
      expect(r1.keptLines, name).toEqual(r2.keptLines);
      expect(r1.text).toBe(r2.text);
    }
    await Promise.all([js.dispose(), wasm.dispose(), jsSession.release(), wasmSession.release()]);
  }, 120_000);
});

describe('js executor: fusions', () => {
  it('the shipped graph runs 8 fused GELUs and 6 sequence-major convolutions, same outputs as node by node', () => {
    const fused = JsModel.load(shipped),
      plain = JsModel.load(shipped, { fuse: false });
    const count = (ops: string[], op: string) => ops.filter((o) => o === op).length;
    expect([count(fused.operators, 'Gelu'), count(fused.operators, 'ConvSequenceMajor'), count(fused.operators, 'Transpose')]).toEqual([8, 6, 0]);
    expect([count(plain.operators, 'Erf'), count(plain.operators, 'Conv'), count(plain.operators, 'Transpose')]).toEqual([8, 6, 12]);
    const x = Float32Array.from({ length: 200 * 48 }, (_, i) => Math.sin(i * 0.37) * 3);
    const feeds = { features: tensor('float32', [1, 200, 48], x) };
    const [a, b] = [fused.run(feeds), plain.run(feeds)];
    for (const k of ['semantic', 'dependency', 'gate', 'doc']) {
      let d = 0;
      for (let i = 0; i < b[k].data.length; i++) d = Math.max(d, Math.abs(a[k].data[i] - b[k].data[i]));
      expect(d, k).toBeLessThan(1e-5);
    }
  });

  it('a chain whose intermediate value something else reads is left alone', () => {
    const node = (opType: string, inputs: string[], output: string, attributes = new Map<string, number[]>()) => ({
      name: output,
      opType,
      domain: '',
      inputs,
      outputs: [output],
      attributes,
    });
    const c = (v: number) => tensor('float32', [], Float32Array.of(v));
    const constants = new Map([
      ['sqrt2', c(Math.SQRT2)],
      ['one', c(1)],
      ['half', c(0.5)],
    ]);
    const chain = [
      node('Div', ['x', 'sqrt2'], 'd'),
      node('Erf', ['d'], 'e'),
      node('Add', ['e', 'one'], 'a'),
      node('Mul', ['x', 'a'], 'm'),
      node('Mul', ['m', 'half'], 'y'),
    ];
    expect(fuse(chain, constants, ['y']).map((n) => n.opType)).toEqual(['Gelu']);
    // 'e' is also a graph output, or read by another node: no fusion.
    expect(fuse(chain, constants, ['y', 'e']).map((n) => n.opType)).toEqual(['Div', 'Erf', 'Add', 'Mul', 'Mul']);
    expect(fuse([...chain, node('Sigmoid', ['a'], 's')], constants, ['y', 's']).map((n) => n.opType)).toEqual(['Div', 'Erf', 'Add', 'Mul', 'Mul', 'Sigmoid']);
  });
});
