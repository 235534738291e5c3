/**
 * An onnxruntime-web session for a ctxprune line scorer, with the backend chosen at load time:
 * 'auto' tries WebGPU when an adapter exists (browsers), else WASM; Node always runs WASM. A
 * WebGPU session that fails at run time is replaced by a WASM one and the call retried once.
 */
import { isNode } from '../config.js';
import { CtxpruneError } from '../errors.js';
import { type Backend, type ModelSource, runtimeConfig } from './config.js';
import { CONTRACT, INPUT_FEATURES, type ModelInfo } from './contract.js';
import { loadModelBytes, type ProgressCallback } from './model-bytes.js';

type Ort = typeof import('onnxruntime-web');
type InferenceSession = import('onnxruntime-web').InferenceSession;

let ortPromise: Promise<Ort> | null = null;

function loadOrt(): Promise<Ort> {
  ortPromise ??= import('onnxruntime-web').then((m) => {
    const ort = ((m as unknown as { default?: Ort }).default ?? m) as Ort;
    if (runtimeConfig.wasmThreads > 0) ort.env.wasm.numThreads = runtimeConfig.wasmThreads;
    else if (isNode) ort.env.wasm.numThreads = 1;
    if (runtimeConfig.wasmPaths) ort.env.wasm.wasmPaths = runtimeConfig.wasmPaths;
    return ort;
  });
  return ortPromise;
}

export interface SessionOptions {
  model?: ModelSource;
  backend?: Backend;
  onProgress?: ProgressCallback;
  signal?: AbortSignal;
}

export interface ModelOutputs {
  semantic: Float32Array;
  dependency: Float32Array;
  gate: Float32Array;
  doc: number;
  crf: Float32Array;
  info: Float32Array | null;
}

async function hasWebGpu(): Promise<boolean> {
  const gpu = (globalThis as { navigator?: { gpu?: { requestAdapter(): Promise<unknown> } } }).navigator?.gpu;
  if (!gpu) return false;
  try { return !!(await gpu.requestAdapter()); } catch { return false; }
}

export class ModelSession {
  private constructor(
    private readonly ort: Ort,
    private readonly bytes: Uint8Array,
    private session: InferenceSession,
    public backend: 'webgpu' | 'wasm',
    readonly info: ModelInfo,
    /** Why WebGPU was not used or was dropped, when it was asked for. */
    public fallbackReason: string | null,
    readonly loadMs: number,
  ) {}

  static async create(opts: SessionOptions = {}): Promise<ModelSession> {
    const t0 = performance.now();
    const ort = await loadOrt();
    const bytes = await loadModelBytes(opts.model ?? runtimeConfig.model, opts.onProgress, opts.signal);
    const want = opts.backend ?? runtimeConfig.backend;
    let fallback: string | null = null;
    let session: InferenceSession | null = null;
    let backend: 'webgpu' | 'wasm' = 'wasm';
    if (want !== 'wasm' && !isNode) {
      if (await hasWebGpu()) {
        try {
          session = await ort.InferenceSession.create(bytes, { executionProviders: ['webgpu'] });
          backend = 'webgpu';
        } catch (e) {
          fallback = `webgpu session failed: ${e instanceof Error ? e.message : String(e)}`;
        }
      } else fallback = 'no WebGPU adapter';
    } else if (want === 'webgpu') fallback = 'WebGPU is not available in Node';
    if (!session) {
      try {
        session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
      } catch (e) {
        throw new CtxpruneError('ASSET_LOAD_FAILED', `cannot create an onnxruntime session: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    }
    const info = readInfo(session);
    const sess = new ModelSession(ort, bytes, session, backend, info, fallback, performance.now() - t0);
    if (session.outputNames.includes('info')) {
      // Probe once with a one-line input to read the model's declared feature contract.
      const probe = await sess.runOnce(new Float32Array(info.featureCount > 0 ? info.featureCount : 1), 1, info.featureCount > 0 ? info.featureCount : 1).catch(() => null);
      if (probe?.info) {
        info.featureVersion = probe.info[1];
        info.featureCount = probe.info[2];
        info.receptiveField = probe.info[3];
      }
    }
    return sess;
  }

  /** Run the model on [n, F] features (row-major). */
  async run(features: Float32Array, n: number, f: number): Promise<ModelOutputs> {
    try {
      return await this.runOnce(features, n, f);
    } catch (e) {
      if (this.backend !== 'webgpu') throw e;
      // WebGPU failed at run time: fall back to WASM for this and later calls.
      this.fallbackReason = `webgpu run failed: ${e instanceof Error ? e.message : String(e)}`;
      const old = this.session;
      this.session = await this.ort.InferenceSession.create(this.bytes, { executionProviders: ['wasm'] });
      this.backend = 'wasm';
      void old.release().catch(() => undefined);
      return this.runOnce(features, n, f);
    }
  }

  private async runOnce(features: Float32Array, n: number, f: number): Promise<ModelOutputs> {
    const input = new this.ort.Tensor('float32', features, [1, n, f]);
    const out = await this.session.run({ [INPUT_FEATURES]: input });
    const get = async (name: string): Promise<Float32Array> => {
      const t = out[name];
      if (!t) throw new CtxpruneError('ASSET_LOAD_FAILED', `model output "${name}" missing (contract ${CONTRACT})`);
      const data = (t.location && t.location !== 'cpu' ? await t.getData(true) : t.data) as Float32Array;
      return data;
    };
    const res: ModelOutputs = {
      semantic: await get('semantic'),
      dependency: await get('dependency'),
      gate: await get('gate'),
      doc: (await get('doc'))[0],
      crf: await get('crf'),
      info: out.info ? await get('info') : null,
    };
    input.dispose?.();
    return res;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

function readInfo(session: InferenceSession): ModelInfo {
  if (!session.inputNames.includes(INPUT_FEATURES)) {
    throw new CtxpruneError('ASSET_LOAD_FAILED', `model has no "${INPUT_FEATURES}" input: not a ${CONTRACT} model`);
  }
  // onnxruntime-web does not expose metadata_props; the scorer checks the feature count by shape.
  const meta = (session as unknown as { inputMetadata?: { name: string; isTensor: boolean; shape?: (number | string)[] }[] }).inputMetadata;
  const shape = meta?.find((m) => m.name === INPUT_FEATURES)?.shape;
  const f = shape && typeof shape[2] === 'number' ? shape[2] : -1;
  return { contract: CONTRACT, featureVersion: -1, featureCount: f, receptiveField: 64, window: 4096 };
}
