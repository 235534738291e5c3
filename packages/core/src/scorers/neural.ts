/**
 * The neural LaMR scorer: per-line query–code interaction features (features/lines.ts) fed to
 * the trained line model (models/ctxprune-lamr.onnx, contract in runtime/contract.ts) through
 * onnxruntime-web. Emits both rubric emissions, the per-line gate, the learned CRFs and a
 * document score. Inputs longer than the window are scored in overlapping chunks; each line
 * takes the outputs of the chunk where it sits farthest from a chunk edge.
 */
import { type CrfParams, keepProbabilities } from '../crf/chain.js';
import { degradation } from '../degradations.js';
import { CtxpruneError } from '../errors.js';
import { FEATURE_SETS, FEATURE_VERSION, lineFeatureSteps } from '../features/lines.js';
import { lineCount } from '../text/lines.js';
import { runStepsAsync } from '../util/steps.js';
import { type Backend, type ModelSource, runtimeConfig } from '../runtime/config.js';
import { enclosingDefinition, LexicalScorer } from './lexical.js';
import type { FileStructure } from '../syntax/types.js';
import type { ProgressCallback } from '../runtime/model-bytes.js';
import { type ModelOutputs, ModelSession } from '../runtime/session.js';
import type { Scorer, ScorerInput, ScorerOutput } from './types.js';

export interface NeuralScorerOptions {
  model?: ModelSource;
  backend?: Backend;
  onProgress?: ProgressCallback;
  /** Download progress of onnxruntime's wasm binary (browsers, when runtimeConfig.wasmBinaryUrl is set). */
  onRuntimeProgress?: ProgressCallback;
  signal?: AbortSignal;
  /** Lines per model call (default 4096). */
  window?: number;
  /** Lines shared by neighbouring chunks (default 2 × the receptive field). */
  overlap?: number;
  /**
   * Lines per model call at most when the input carries an AbortSignal: the signal is checked
   * between calls, so a smaller call is a quicker abort. Default: 1,024 lines on WASM and WebGPU
   * (~20 ms of CPU on WASM), 512 on the 'js' executor (~100 µs a line: ~50 ms).
   */
  abortWindow?: number;
  /** Multiplier on the learned CRF transitions (default runtimeConfig.transitionScale). */
  transitionScale?: number;
  /** Weight of the lexical scorer's emissions blended in (default runtimeConfig.lexicalBlend). */
  lexicalBlend?: number;
  /** Spread each head's keep probability along the file before decoding (default runtimeConfig.spread). */
  spread?: number;
  /**
   * Inputs of more lines than this are scored by the lexical scorer, said in `degraded`
   * (TOO_LARGE_FOR_MODEL): default MODEL_MAX_LINES.
   */
  maxLines?: number;
}

/**
 * The most lines the model scores. Features, model calls and the fit over what it keeps cost
 * ~30 µs a line more than the lexical scorer (WASM, this 2-core machine at a load of ~18:
 * 100,000 empty lines +2.7 s of CPU, 99,000 short Python lines +3.1 s), and nothing cuts that
 * short exactly (each line's inputs include its position). 50,000 lines are ~1.5 s: a 1 MB input
 * of any shape stays within #16's bounds (a million empty lines: the lexical scorer's ~2.5 s),
 * and 1 MB of ordinary source (20,000–46,000 lines) keeps the model.
 */
export const MODEL_MAX_LINES = 50_000;

/**
 * Decoding-time shaping: the model's per-line keep probabilities, spread to neighbouring lines
 * (±3, the lexical scorer's kernel) and to the enclosing definition (a share of its best line),
 * normalised to [0,1] and mapped to a keep−prune margin. Budgeted Viterbi + repair keep
 * contiguous, self-contained units; sharp per-line log-odds make it pay markers and repairs for
 * scattered lines. `amount` = 0 leaves the margins as the model gave them.
 */
function spreadHead(E: Float64Array, st: FileStructure, defOf: Int32Array, amount: number): void {
  const n = E.length >> 1;
  if (n === 0 || amount <= 0) return;
  const p = keepProbabilities(E);
  const kern = [0.6, 0.35, 0.2];
  const sm = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    let v = p[t];
    for (let d = 1; d <= kern.length; d++) {
      if (t - d >= 0) v += amount * kern[d - 1] * p[t - d];
      if (t + d < n) v += amount * kern[d - 1] * p[t + d];
    }
    sm[t] = v;
  }
  const best = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const d = defOf[t];
    if (d >= 0 && sm[t] > best[d]) best[d] = sm[t];
  }
  let max = 0;
  const ev = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const d = defOf[t];
    ev[t] = sm[t] + (d >= 0 ? 0.3 * amount * best[d] : 0);
    if (ev[t] > max) max = ev[t];
  }
  for (let t = 0; t < n; t++) {
    E[2 * t] = 0;
    E[2 * t + 1] = 4 * ((max > 0 ? ev[t] / max : 0) - 0.25);
  }
  void st;
}

export interface Chunk {
  start: number;
  end: number;
  keepFrom: number;
  keepTo: number;
}

/** Overlapping chunks covering [0, n): each line is owned by exactly one chunk (keepFrom..keepTo). */
export function planChunks(n: number, window: number, overlap: number): Chunk[] {
  if (n <= window) return [{ start: 0, end: n, keepFrom: 0, keepTo: n }];
  const ov = Math.max(0, Math.min(overlap, Math.floor(window / 2) - 1));
  const stride = window - ov;
  const chunks: Chunk[] = [];
  for (let s = 0; ; s += stride) {
    const start = Math.min(s, n - window);
    const end = start + window;
    chunks.push({ start, end, keepFrom: 0, keepTo: 0 });
    if (end >= n) break;
  }
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    c.keepFrom = i === 0 ? 0 : Math.floor((chunks[i - 1].end + c.start) / 2);
    c.keepTo = i === chunks.length - 1 ? n : Math.floor((c.end + chunks[i + 1].start) / 2);
  }
  return chunks;
}

/**
 * The window for an input that can be aborted: at most `cap` lines per model call, the same
 * overlap, and the input split evenly (a 4,100-line input is five calls of 923 lines, not five of
 * 1,024 whose last repeats 636 lines of the one before). Each line still takes its outputs from a chunk where
 * its whole receptive field is inside, so per-line outputs equal those of `window`-line chunks;
 * only the document score (pooled over each call's lines, the maximum over calls) can differ once
 * the input is longer than `cap`.
 */
export function abortableWindow(n: number, window: number, cap: number, overlap: number): number {
  if (n <= cap || window <= cap) return window;
  const ov = Math.max(0, Math.min(overlap, Math.floor(cap / 2) - 1));
  const calls = Math.ceil((n - ov) / (cap - ov));
  return Math.min(cap, Math.ceil((n - ov) / calls) + ov);
}

function crfOf(table: Float32Array, k: number, scale = 1): CrfParams {
  const o = 8 * k;
  return {
    transitions: Float64Array.from(table.subarray(o, o + 4), (v) => v * scale),
    start: Float64Array.from(table.subarray(o + 4, o + 6)),
    end: Float64Array.from(table.subarray(o + 6, o + 8)),
  };
}

/** Emission margins past this are no model's (the shipped one stays within ±50): the output is broken. */
const MAX_ABS_EMISSION = 1e4;

/**
 * Why a model call's outputs cannot be used, or null: a NaN or infinite value, an emission beyond
 * ±1e4, a gate or document score outside [0, 1]. Lines [from, to) of the call are checked; line
 * numbers in the message are 1-based in the file (`base` is the call's first line).
 */
export function invalidModelOutput(out: ModelOutputs, from: number, to: number, base: number): string | null {
  const TOL = 1e-3;
  const scan = (name: string, a: Float32Array, lo: number, hi: number): string | null => {
    for (let j = 2 * from; j < 2 * to; j++) {
      const v = a[j];
      if (!(v >= lo && v <= hi)) return `${name} is ${v} at line ${base + (j >> 1) + 1}`;
    }
    return null;
  };
  const crfBad = out.crf.findIndex((v) => !(Math.abs(v) <= MAX_ABS_EMISSION));
  return (
    scan('semantic', out.semantic, -MAX_ABS_EMISSION, MAX_ABS_EMISSION) ??
    scan('dependency', out.dependency, -MAX_ABS_EMISSION, MAX_ABS_EMISSION) ??
    scan('gate', out.gate, -TOL, 1 + TOL) ??
    (out.doc >= -TOL && out.doc <= 1 + TOL ? null : `doc is ${out.doc}`) ??
    (crfBad >= 0 ? `crf[${crfBad}] is ${out.crf[crfBad]}` : null)
  );
}

export class NeuralScorer implements Scorer {
  readonly name = 'neural';
  private constructor(
    private readonly session: ModelSession,
    /** The feature version the loaded model was trained on. */
    readonly featureVersion: number,
    private readonly window: number,
    private readonly overlap: number,
    private readonly abortWindow: number | undefined,
    private readonly transitionScale: number,
    private readonly lexicalBlend: number,
    private readonly spread: number,
    private readonly maxLines: number,
  ) {}

  private readonly lexical = new LexicalScorer();

  static async load(options: NeuralScorerOptions = {}): Promise<NeuralScorer> {
    const session = await ModelSession.create({
      model: options.model,
      backend: options.backend,
      onProgress: options.onProgress,
      onRuntimeProgress: options.onRuntimeProgress,
      signal: options.signal,
    });
    const info = session.info;
    // The model says which feature version it was trained on; this build computes every version in FEATURE_SETS.
    const version = info.featureVersion >= 0 ? info.featureVersion : FEATURE_VERSION;
    const names = FEATURE_SETS[version];
    const refuse = async (why: string): Promise<never> => {
      await session.release();
      throw new CtxpruneError('ASSET_LOAD_FAILED', why);
    };
    if (!names) await refuse(`model was trained on feature version ${version}, this build computes versions ${Object.keys(FEATURE_SETS).join(', ')}`);
    if (info.featureCount >= 0 && info.featureCount !== names.length) {
      await refuse(`model expects ${info.featureCount} features per line, feature version ${version} has ${names.length}`);
    }
    if (version >= 2 && !session.words) await refuse(`model of feature version ${version} carries no word table (outputs word_keys, words)`);
    const window = options.window ?? info.window;
    const overlap = options.overlap ?? 2 * info.receptiveField;
    return new NeuralScorer(
      session,
      version,
      window,
      overlap,
      options.abortWindow,
      options.transitionScale ?? runtimeConfig.transitionScale,
      options.lexicalBlend ?? runtimeConfig.lexicalBlend,
      options.spread ?? runtimeConfig.spread,
      options.maxLines ?? MODEL_MAX_LINES,
    );
  }

  get backend(): string {
    return this.session.backend;
  }
  get loadMs(): number {
    return this.session.loadMs;
  }
  get fallbackReason(): string | null {
    return this.session.fallbackReason;
  }

  async score(input: ScorerInput): Promise<ScorerOutput> {
    const { lines, structure, language, signal } = input;
    const n = lines.length;
    const count = lineCount(lines);
    if (count > this.maxLines) {
      const why = `${count.toLocaleString('en-US')} lines, over the ${this.maxLines.toLocaleString('en-US')} the model scores in time`;
      return {
        ...(await this.lexical.scoreAsync(input)),
        fallbackReason: why,
        degraded: [degradation('TOO_LARGE_FOR_MODEL', `${why}: scored with the lexical scorer`)],
      };
    }
    const feats = await runStepsAsync(
      lineFeatureSteps(input.query, lines, structure, language, { version: this.featureVersion, words: this.session.words }),
      input.pause,
    );
    const F = feats.f;
    const semantic = new Float64Array(2 * n);
    const dependency = new Float64Array(2 * n);
    const gate = new Float64Array(2 * n);
    let doc = 0;
    let crf: Float32Array | null = null;
    if (n > 0) {
      // With a signal, smaller model calls: one call holds the thread (~19 µs a line on WASM).
      const cap = this.abortWindow ?? (this.session.backend === 'js' ? 512 : 1024);
      const window = signal ? abortableWindow(n, this.window, cap, this.overlap) : this.window;
      for (const c of planChunks(n, window, this.overlap)) {
        if (signal?.aborted) throw new CtxpruneError('ABORTED', 'scoring aborted');
        await input.pause?.();
        const out: ModelOutputs = await this.session.run(feats.data.subarray(c.start * F, c.end * F), c.end - c.start, F);
        // NaN or absurd outputs would keep nothing ('# …'): the lexical scorer runs instead, and says why.
        const invalid = invalidModelOutput(out, c.keepFrom - c.start, c.keepTo - c.start, c.start);
        if (invalid) {
          return {
            ...(await this.lexical.scoreAsync(input)),
            fallbackReason: `neural model output invalid: ${invalid}`,
            degraded: [degradation('SCORER_FALLBACK', `the neural model's output is invalid (${invalid}): scored with the lexical scorer`)],
          };
        }
        for (let t = c.keepFrom; t < c.keepTo; t++) {
          const j = t - c.start;
          semantic[2 * t] = out.semantic[2 * j];
          semantic[2 * t + 1] = out.semantic[2 * j + 1];
          dependency[2 * t] = out.dependency[2 * j];
          dependency[2 * t + 1] = out.dependency[2 * j + 1];
          gate[2 * t] = out.gate[2 * j];
          gate[2 * t + 1] = out.gate[2 * j + 1];
        }
        doc = Math.max(doc, out.doc);
        crf ??= out.crf;
      }
    }
    if (!crf) {
      // Empty input: neutral CRFs.
      crf = new Float32Array(24);
    }
    if (this.spread > 0 && n > 0) {
      const defOf = enclosingDefinition(structure);
      spreadHead(semantic, structure, defOf, this.spread);
      spreadHead(dependency, structure, defOf, this.spread);
    }
    const w = this.lexicalBlend;
    if (w > 0 && n > 0) {
      // Blend in the lexical rubric emissions (keep − prune margins), rubric by rubric.
      const lex = await this.lexical.scoreAsync(input);
      for (let k = 0; k < 2; k++) {
        const E = k === 0 ? semantic : dependency,
          L = lex.heads[k];
        for (let i = 0; i < 2 * n; i++) E[i] = (1 - w) * E[i] + w * L[i];
      }
    }
    const sg = runtimeConfig.semanticGate;
    if (sg > 0)
      for (let t = 0; t < n; t++) {
        gate[2 * t] = sg + (1 - sg) * gate[2 * t];
        gate[2 * t + 1] = 1 - gate[2 * t];
      }
    const ts = this.transitionScale;
    return {
      n,
      heads: [semantic, dependency],
      gate,
      headCrfs: [crfOf(crf, 0, ts), crfOf(crf, 1, ts)],
      fusedCrf: crfOf(crf, 2, ts),
      documentScore: doc,
      scorer: 'neural',
      backend: this.session.backend,
    };
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}

let shared: Promise<NeuralScorer> | null = null;

/** The process-wide neural scorer with the runtime configuration's model and backend. */
export function loadDefaultNeuralScorer(): Promise<NeuralScorer> {
  shared ??= NeuralScorer.load().catch((e) => {
    shared = null;
    throw e;
  });
  return shared;
}
