/**
 * An onnxruntime-web session for a ctxprune line scorer, with the backend chosen at load time:
 * 'auto' tries WebGPU when an adapter exists (browsers), else WASM; Node always runs WASM. A
 * WebGPU session that fails at run time is replaced by a WASM one and the call retried once.
 */
import { isNode } from '../config.js';
import { CtxpruneError } from '../errors.js';
import { type Backend, type ModelSource, runtimeConfig } from './config.js';
import { WordVectors } from '../features/semantic.js';
import { CONTRACT, INPUT_FEATURES, type ModelInfo, OUTPUTS, WORD_OUTPUTS } from './contract.js';
import { loadAssetBytes, loadModelBytes, type ProgressCallback } from './model-bytes.js';

type Ort = typeof import('onnxruntime-web');
type InferenceSession = import('onnxruntime-web').InferenceSession;

/** Which onnxruntime-web build a session needs: the plain SIMD WASM one, or the JSEP one that also runs WebGPU. */
type OrtBuild = 'wasm' | 'webgpu';

const ortPromises = new Map<OrtBuild | 'node', Promise<Ort>>();

/**
 * onnxruntime-web, loaded once per build. Node: the package's Node build (plain SIMD wasm).
 * Browsers: `onnxruntime-web/wasm` (the plain SIMD build, ~14 MB of wasm) for the WASM backend,
 * and the default entry (JSEP, ~28 MB of wasm: WebGPU and WASM) only when WebGPU is asked for:
 * a bundler splits the two dynamic imports, so a page on WASM never downloads the JSEP build.
 */
function loadOrt(build: OrtBuild, onProgress?: ProgressCallback, signal?: AbortSignal): Promise<Ort> {
  const key = isNode ? 'node' : build;
  let p = ortPromises.get(key);
  if (!p) {
    const binaryUrl = key === 'wasm' ? runtimeConfig.wasmBinaryUrl : null;
    // The wasm binary downloads (with progress, from the Cache API on a reload) while the module loads.
    const binary = binaryUrl ? loadAssetBytes(binaryUrl, onProgress, signal) : Promise.resolve(null);
    binary.catch(() => undefined);
    const mod = key === 'wasm' ? import('onnxruntime-web/wasm') : import('onnxruntime-web');
    p = Promise.all([mod, binary]).then(([m, bytes]) => {
      const ort = (m as unknown as { default?: Ort }).default ?? m;
      if (runtimeConfig.wasmThreads > 0) ort.env.wasm.numThreads = runtimeConfig.wasmThreads;
      else if (isNode) ort.env.wasm.numThreads = 1;
      // onnxruntime's warnings (nodes it placed on the CPU, optimisations it skipped) are not errors:
      // only its errors reach the console (console.error), here and from its native logger (logSeverityLevel).
      ort.env.logLevel = 'error';
      if (runtimeConfig.wasmPaths) ort.env.wasm.wasmPaths = runtimeConfig.wasmPaths;
      if (bytes) ort.env.wasm.wasmBinary = bytes;
      return ort;
    });
    ortPromises.set(key, p);
    // A failed load (network, abort) is not kept: the next session tries again.
    p.catch(() => ortPromises.delete(key));
  }
  return p;
}

export interface SessionOptions {
  model?: ModelSource;
  backend?: Backend;
  onProgress?: ProgressCallback;
  /** Download progress of onnxruntime's wasm binary, when the library fetches it (runtimeConfig.wasmBinaryUrl). */
  onRuntimeProgress?: ProgressCallback;
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
  try {
    return !!(await gpu.requestAdapter());
  } catch {
    return false;
  }
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

  /** The word vectors the model carries (outputs word_keys, words), for feature version 2; null when it has none. */
  words: WordVectors | null = null;
  /** The contract outputs this model has (the same after a WebGPU → WASM fallback: same model). */
  private fetches?: string[];

  static async create(opts: SessionOptions = {}): Promise<ModelSession> {
    const t0 = performance.now();
    const want = opts.backend ?? runtimeConfig.backend;
    // The runtime and the model load side by side.
    const [ort, bytes] = await Promise.all([
      loadOrt(want === 'wasm' ? 'wasm' : 'webgpu', opts.onRuntimeProgress, opts.signal),
      loadModelBytes(opts.model ?? runtimeConfig.model, opts.onProgress, opts.signal),
    ]);
    let fallback: string | null = null;
    let session: InferenceSession | null = null;
    let backend: 'webgpu' | 'wasm' = 'wasm';
    if (want !== 'wasm' && !isNode) {
      if (await hasWebGpu()) {
        try {
          session = await ort.InferenceSession.create(bytes, { executionProviders: ['webgpu'], logSeverityLevel: 3 });
          backend = 'webgpu';
        } catch (e) {
          fallback = `webgpu session failed: ${e instanceof Error ? e.message : String(e)}`;
        }
      } else fallback = 'no WebGPU adapter';
    } else if (want === 'webgpu') fallback = 'WebGPU is not available in Node';
    if (!session) {
      try {
        session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], logSeverityLevel: 3 });
      } catch (e) {
        throw new CtxpruneError('ASSET_LOAD_FAILED', `cannot create an onnxruntime session: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    }
    const info = readInfo(session);
    const sess = new ModelSession(ort, bytes, session, backend, info, fallback, performance.now() - t0);
    if (session.outputNames.includes('info')) {
      // Probe once with a one-line input to read the model's declared feature contract.
      const probe = await sess
        .runOnce(new Float32Array(info.featureCount > 0 ? info.featureCount : 1), 1, info.featureCount > 0 ? info.featureCount : 1)
        .catch(() => null);
      if (probe?.info) {
        info.featureVersion = probe.info[1];
        info.featureCount = probe.info[2];
        info.receptiveField = probe.info[3];
      }
    }
    if (WORD_OUTPUTS.every((name) => session.outputNames.includes(name))) sess.words = await sess.readWords(info.featureCount);
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
      this.session = await this.ort.InferenceSession.create(this.bytes, { executionProviders: ['wasm'], logSeverityLevel: 3 });
      this.backend = 'wasm';
      void old.release().catch(() => undefined);
      return this.runOnce(features, n, f);
    }
  }

  /** The model's word table: constant outputs, fetched once (the per-line runs never fetch them). */
  private async readWords(featureCount: number): Promise<WordVectors> {
    const f = featureCount > 0 ? featureCount : 1;
    const input = new this.ort.Tensor('float32', new Float32Array(f), [1, 1, f]);
    try {
      const out = await this.session.run({ [INPUT_FEATURES]: input }, [...WORD_OUTPUTS]);
      const keys = out.word_keys,
        words = out.words;
      if (keys?.type !== 'int32' || words?.type !== 'int8' || words.dims.length !== 2) {
        throw new Error(`word_keys must be int32 [V] and words int8 [V, d], got ${keys?.type} and ${words?.type} ${JSON.stringify(words?.dims)}`);
      }
      return new WordVectors(keys.data as Int32Array, words.data as Int8Array, words.dims[1]);
    } catch (e) {
      throw new CtxpruneError('ASSET_LOAD_FAILED', `model word table unreadable: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    } finally {
      input.dispose?.();
    }
  }

  private async runOnce(features: Float32Array, n: number, f: number): Promise<ModelOutputs> {
    const input = new this.ort.Tensor('float32', features, [1, n, f]);
    // Only the per-line outputs (and info): a model's constant word table is read once, at load.
    this.fetches ??= OUTPUTS.filter((name) => this.session.outputNames.includes(name));
    const out = await this.session.run({ [INPUT_FEATURES]: input }, this.fetches);
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
