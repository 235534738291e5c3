/**
 * A session for a ctxprune line scorer, with the backend chosen at load time: 'auto' tries WebGPU
 * when an adapter exists (browsers), else WASM; Node runs WASM. 'js' runs the model on the
 * pure-TypeScript executor (js/: no WebAssembly, so no onnxruntime start-up, ~0.6 s in Node; slower
 * per call than warm WASM): a model it cannot run (an operator it lacks) gets WASM instead, and
 * says why. A WebGPU or js session that fails at run time is replaced by a WASM one and the call
 * retried once.
 */
import { isNode } from '../config.js';
import { CtxpruneError } from '../errors.js';
import { type Backend, type ModelSource, runtimeConfig } from './config.js';
import { WordVectors } from '../features/semantic.js';
import { CONTRACT, INPUT_FEATURES, type ModelInfo, OUTPUTS, WORD_OUTPUTS } from './contract.js';
import { loadAssetBytes, loadModelBytes, type ProgressCallback } from './model-bytes.js';
import type { JsModel } from './js/executor.js';

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

/** The backend a session runs on. */
export type SessionBackend = 'webgpu' | 'wasm' | 'js';

export class ModelSession {
  private constructor(
    private ort: Ort | null,
    private readonly bytes: Uint8Array,
    private session: InferenceSession | null,
    /** The JavaScript executor's model (backend 'js'), else null. */
    private js: JsModel | null,
    public backend: SessionBackend,
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
    if (want === 'js') {
      const bytes = await loadModelBytes(opts.model ?? runtimeConfig.model, opts.onProgress, opts.signal);
      try {
        return await ModelSession.createJs(bytes, t0);
      } catch (e) {
        // A model the executor cannot run (or that fails on the probe) runs on onnxruntime.
        const s = await ModelSession.create({ ...opts, model: bytes, backend: 'wasm' });
        s.fallbackReason = `js executor: ${e instanceof Error ? e.message : String(e)}`;
        return s;
      }
    }
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
    const info = readInfo(session.inputNames, (session as unknown as { inputMetadata?: InputMetadata[] }).inputMetadata);
    const sess = new ModelSession(ort, bytes, session, null, backend, info, fallback, performance.now() - t0);
    await sess.probe(session.outputNames);
    return sess;
  }

  /** A session on the JavaScript executor; throws when the executor cannot run the model. */
  private static async createJs(bytes: Uint8Array, t0: number): Promise<ModelSession> {
    // Loaded only when asked for: the lexical scorer's processes never read it.
    const { JsModel } = await import('./js/executor.js');
    const js = JsModel.load(bytes);
    js.warmUp();
    const shape = js.inputs.find((i) => i.name === INPUT_FEATURES)?.shape;
    const info = readInfo(js.inputNames, [{ name: INPUT_FEATURES, isTensor: true, shape: shape ?? undefined }]);
    const sess = new ModelSession(null, bytes, null, js, 'js', info, null, performance.now() - t0);
    // The probe must succeed here: a model that fails on one line would fail on every input.
    await sess.probe(js.outputNames, true);
    return sess;
  }

  private get outputNames(): readonly string[] {
    return this.js ? this.js.outputNames : this.session!.outputNames;
  }

  /** Read the model's declared feature contract (output info) with a one-line run, and its word table. */
  private async probe(outputNames: readonly string[], strict = false): Promise<void> {
    const info = this.info;
    if (outputNames.includes('info')) {
      // Probe once with a one-line input to read the model's declared feature contract.
      const probe = await this.runOnce(new Float32Array(info.featureCount > 0 ? info.featureCount : 1), 1, info.featureCount > 0 ? info.featureCount : 1).catch(
        (e: unknown) => {
          if (strict) throw e;
          return null;
        },
      );
      if (probe?.info) {
        info.featureVersion = probe.info[1];
        info.featureCount = probe.info[2];
        info.receptiveField = probe.info[3];
      }
    }
    if (WORD_OUTPUTS.every((name) => outputNames.includes(name))) this.words = await this.readWords(info.featureCount);
  }

  /** Run the model on [n, F] features (row-major). */
  async run(features: Float32Array, n: number, f: number): Promise<ModelOutputs> {
    try {
      return await this.runOnce(features, n, f);
    } catch (e) {
      if (this.backend === 'wasm') throw e;
      // WebGPU or the js executor failed at run time: fall back to WASM for this and later calls.
      this.fallbackReason = `${this.backend} run failed: ${e instanceof Error ? e.message : String(e)}`;
      const old = this.session;
      this.ort ??= await loadOrt('wasm');
      this.session = await this.ort.InferenceSession.create(this.bytes, { executionProviders: ['wasm'], logSeverityLevel: 3 });
      this.backend = 'wasm';
      this.js = null;
      void old?.release().catch(() => undefined);
      return this.runOnce(features, n, f);
    }
  }

  /** The model's word table: constant outputs, fetched once (the per-line runs never fetch them). */
  private async readWords(featureCount: number): Promise<WordVectors> {
    const f = featureCount > 0 ? featureCount : 1;
    if (this.js) {
      try {
        const out = this.js.run({ [INPUT_FEATURES]: { type: 'float32', dims: [1, 1, f], data: new Float32Array(f) } }, WORD_OUTPUTS);
        return wordVectors(out.word_keys, out.words);
      } catch (e) {
        throw new CtxpruneError('ASSET_LOAD_FAILED', `model word table unreadable: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    }
    const ort = this.ort!;
    const input = new ort.Tensor('float32', new Float32Array(f), [1, 1, f]);
    try {
      const out = await this.session!.run({ [INPUT_FEATURES]: input }, [...WORD_OUTPUTS]);
      return wordVectors(out.word_keys, out.words);
    } catch (e) {
      throw new CtxpruneError('ASSET_LOAD_FAILED', `model word table unreadable: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    } finally {
      input.dispose?.();
    }
  }

  private async runOnce(features: Float32Array, n: number, f: number): Promise<ModelOutputs> {
    // Only the per-line outputs (and info): a model's constant word table is read once, at load.
    this.fetches ??= OUTPUTS.filter((name) => this.outputNames.includes(name));
    if (this.js) {
      const out = this.js.run({ [INPUT_FEATURES]: { type: 'float32', dims: [1, n, f], data: features } }, this.fetches);
      const get = (name: string): Float32Array => {
        const t = out[name];
        if (t?.type !== 'float32') throw new CtxpruneError('ASSET_LOAD_FAILED', `model output "${name}" missing or not float32 (contract ${CONTRACT})`);
        return t.data as Float32Array;
      };
      return {
        semantic: get('semantic'),
        dependency: get('dependency'),
        gate: get('gate'),
        doc: get('doc')[0],
        crf: get('crf'),
        info: out.info ? get('info') : null,
      };
    }
    const input = new this.ort!.Tensor('float32', features, [1, n, f]);
    const out = await this.session!.run({ [INPUT_FEATURES]: input }, this.fetches);
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
    this.js = null;
    await this.session?.release();
  }
}

/** word_keys int32 [V] and words int8 [V, d] (onnxruntime's tensors or the executor's). */
function wordVectors(
  keys: { type: string; data: unknown; dims: readonly number[] } | undefined,
  words: { type: string; data: unknown; dims: readonly number[] } | undefined,
): WordVectors {
  if (keys?.type !== 'int32' || words?.type !== 'int8' || words.dims.length !== 2) {
    throw new Error(`word_keys must be int32 [V] and words int8 [V, d], got ${keys?.type} and ${words?.type} ${JSON.stringify(words?.dims)}`);
  }
  return new WordVectors(keys.data as Int32Array, words.data as Int8Array, words.dims[1]);
}

interface InputMetadata {
  name: string;
  isTensor: boolean;
  shape?: (number | string)[];
}

function readInfo(inputNames: readonly string[], meta: InputMetadata[] | undefined): ModelInfo {
  if (!inputNames.includes(INPUT_FEATURES)) {
    throw new CtxpruneError('ASSET_LOAD_FAILED', `model has no "${INPUT_FEATURES}" input: not a ${CONTRACT} model`);
  }
  // onnxruntime-web does not expose metadata_props; the scorer checks the feature count by shape.
  const shape = meta?.find((m) => m.name === INPUT_FEATURES)?.shape;
  const f = shape && typeof shape[2] === 'number' ? shape[2] : -1;
  return { contract: CONTRACT, featureVersion: -1, featureCount: f, receptiveField: 64, window: 4096 };
}
