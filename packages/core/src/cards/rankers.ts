/**
 * Lightweight rankers over the 25 published features, trained in TypeScript from judgments:
 *  - a pairwise logistic linear ranker (SGD; paper: 80 epochs, lr 0.08, L2 5e-4);
 *  - a two-layer MLP (25 → hidden ReLU → 1) with the BPR pairwise loss, AdamW (paper: 120 epochs,
 *    lr 1e-3, batch 256, weight decay 1e-4, dropout 0.1).
 * Both are deterministic for a seed and serialise to plain JSON.
 */
import { CtxpruneError } from '../errors.js';
import { RANKER_FEATURES } from './utility.js';
import { mulberry32, shuffleInPlace } from '../util/random.js';

const DIM = RANKER_FEATURES.length;

/** One judged candidate: its features and a utility label (e.g. the judged score s). */
export interface RankExample {
  /** Pairs are only formed inside one group (task). */
  group: string;
  features: ArrayLike<number>;
  label: number;
}

export interface Pair {
  pos: Float64Array;
  neg: Float64Array;
}

/** Within-group pairs whose labels differ by more than `margin` (better one first). */
export function pairsFromExamples(examples: readonly RankExample[], margin = 1e-6): Pair[] {
  const groups = new Map<string, RankExample[]>();
  for (const e of examples) {
    if (e.features.length !== DIM) throw new CtxpruneError('INVALID_OPTION', `features must have ${DIM} values, got ${e.features.length}`);
    let g = groups.get(e.group);
    if (!g) groups.set(e.group, (g = []));
    g.push(e);
  }
  const pairs: Pair[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.length; i++) {
      for (let j = 0; j < g.length; j++) {
        if (g[i].label - g[j].label > margin) pairs.push({ pos: Float64Array.from(g[i].features), neg: Float64Array.from(g[j].features) });
      }
    }
  }
  return pairs;
}

/** Seeded PRNG used by the rankers' training. */
export const rng = mulberry32;

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

export interface Ranker {
  readonly kind: 'linear' | 'mlp';
  score(features: ArrayLike<number>): number;
  toJSON(): object;
}

/** Share of pairs ordered correctly (ties count half). */
export function pairwiseAccuracy(r: Ranker, pairs: readonly Pair[]): number {
  if (pairs.length === 0) return 0;
  let ok = 0;
  for (const p of pairs) {
    const d = r.score(p.pos) - r.score(p.neg);
    ok += d > 0 ? 1 : d === 0 ? 0.5 : 0;
  }
  return ok / pairs.length;
}

// ---------------------------------------------------------------- linear

export interface LinearTrainOptions {
  epochs?: number;
  lr?: number;
  l2?: number;
  seed?: number;
}

export class LinearRanker implements Ranker {
  readonly kind = 'linear' as const;
  constructor(readonly weights: Float64Array = new Float64Array(DIM)) {
    if (weights.length !== DIM) throw new CtxpruneError('INVALID_OPTION', `linear ranker needs ${DIM} weights`);
  }
  score(x: ArrayLike<number>): number {
    let s = 0;
    for (let i = 0; i < DIM; i++) s += this.weights[i] * x[i];
    return s;
  }
  /** Pairwise logistic loss log(1 + exp(−w·(x⁺ − x⁻))) + l2·|w|², plain SGD over shuffled pairs. */
  static train(pairs: readonly Pair[], opts: LinearTrainOptions = {}): LinearRanker {
    const epochs = opts.epochs ?? 80,
      lr = opts.lr ?? 0.08,
      l2 = opts.l2 ?? 5e-4;
    const rand = rng(opts.seed ?? 1);
    const w = new Float64Array(DIM);
    const order = pairs.map((_, i) => i);
    const diff = new Float64Array(DIM);
    for (let ep = 0; ep < epochs; ep++) {
      shuffleInPlace(order, rand);
      for (const k of order) {
        const { pos, neg } = pairs[k];
        let m = 0;
        for (let i = 0; i < DIM; i++) {
          diff[i] = pos[i] - neg[i];
          m += w[i] * diff[i];
        }
        const g = -sigmoid(-m); // d loss / d margin
        for (let i = 0; i < DIM; i++) w[i] -= lr * (g * diff[i] + 2 * l2 * w[i]);
      }
    }
    return new LinearRanker(w);
  }
  toJSON(): object {
    return { kind: 'linear', version: 1, features: [...RANKER_FEATURES], weights: [...this.weights] };
  }
}

// ---------------------------------------------------------------- MLP

export interface MlpTrainOptions {
  hidden?: number;
  epochs?: number;
  lr?: number;
  batchSize?: number;
  weightDecay?: number;
  dropout?: number;
  seed?: number;
}

export class MlpRanker implements Ranker {
  readonly kind = 'mlp' as const;
  /** w1: hidden × DIM row-major. */
  constructor(
    readonly hidden: number,
    readonly w1: Float64Array,
    readonly b1: Float64Array,
    readonly w2: Float64Array,
    public b2: number,
  ) {
    if (w1.length !== hidden * DIM || b1.length !== hidden || w2.length !== hidden) {
      throw new CtxpruneError('INVALID_OPTION', 'MLP ranker weights do not match its shape');
    }
  }
  static init(hidden: number, seed: number): MlpRanker {
    const rand = rng(seed);
    const lim1 = Math.sqrt(6 / (DIM + hidden)),
      lim2 = Math.sqrt(6 / (hidden + 1));
    const w1 = Float64Array.from({ length: hidden * DIM }, () => (rand() * 2 - 1) * lim1);
    const w2 = Float64Array.from({ length: hidden }, () => (rand() * 2 - 1) * lim2);
    return new MlpRanker(hidden, w1, new Float64Array(hidden), w2, 0);
  }
  /** Forward pass; `h` receives post-ReLU activations (times the dropout mask when given). */
  private forward(x: ArrayLike<number>, h: Float64Array, mask?: Float64Array): number {
    let s = this.b2;
    for (let j = 0; j < this.hidden; j++) {
      let a = this.b1[j];
      const off = j * DIM;
      for (let i = 0; i < DIM; i++) a += this.w1[off + i] * x[i];
      a = a > 0 ? a : 0;
      if (mask) a *= mask[j];
      h[j] = a;
      s += this.w2[j] * a;
    }
    return s;
  }
  score(x: ArrayLike<number>): number {
    return this.forward(x, new Float64Array(this.hidden));
  }
  /** BPR: minimise −log σ(f(x⁺) − f(x⁻)) with AdamW over mini-batches; inverted dropout on the hidden layer. */
  static train(pairs: readonly Pair[], opts: MlpTrainOptions = {}): MlpRanker {
    const hidden = opts.hidden ?? 32,
      epochs = opts.epochs ?? 120,
      lr = opts.lr ?? 1e-3;
    const batch = opts.batchSize ?? 256,
      wd = opts.weightDecay ?? 1e-4,
      p = opts.dropout ?? 0.1;
    const seed = opts.seed ?? 1;
    const m = MlpRanker.init(hidden, seed);
    const rand = rng(seed + 1);
    const params = [m.w1, m.b1, m.w2];
    const b2 = new Float64Array(1);
    const all = [...params, b2];
    const grads = all.map((a) => new Float64Array(a.length));
    const m1 = all.map((a) => new Float64Array(a.length));
    const v1 = all.map((a) => new Float64Array(a.length));
    const beta1 = 0.9,
      beta2 = 0.999,
      eps = 1e-8;
    let step = 0;
    const hp = new Float64Array(hidden),
      hn = new Float64Array(hidden);
    const maskP = new Float64Array(hidden),
      maskN = new Float64Array(hidden);
    const order = pairs.map((_, i) => i);
    for (let ep = 0; ep < epochs; ep++) {
      shuffleInPlace(order, rand);
      for (let start = 0; start < order.length; start += batch) {
        const end = Math.min(order.length, start + batch);
        for (const g of grads) g.fill(0);
        for (let k = start; k < end; k++) {
          const { pos, neg } = pairs[order[k]];
          for (let j = 0; j < hidden; j++) {
            maskP[j] = p > 0 ? (rand() < p ? 0 : 1 / (1 - p)) : 1;
            maskN[j] = p > 0 ? (rand() < p ? 0 : 1 / (1 - p)) : 1;
          }
          m.b2 = b2[0];
          const d = m.forward(pos, hp, maskP) - m.forward(neg, hn, maskN);
          const g = -sigmoid(-d) / (end - start); // d loss / d (f⁺ − f⁻), batch mean
          // f⁺ contributes +g, f⁻ contributes −g; b2 cancels.
          for (const [x, h, mask, sign] of [
            [pos, hp, maskP, 1],
            [neg, hn, maskN, -1],
          ] as const) {
            for (let j = 0; j < hidden; j++) {
              grads[2][j] += sign * g * h[j];
              if (h[j] <= 0) continue;
              const gh = sign * g * m.w2[j] * mask[j];
              grads[1][j] += gh;
              const off = j * DIM;
              for (let i = 0; i < DIM; i++) grads[0][off + i] += gh * x[i];
            }
          }
        }
        step++;
        const c1 = 1 - Math.pow(beta1, step),
          c2 = 1 - Math.pow(beta2, step);
        for (let t = 0; t < all.length; t++) {
          const a = all[t],
            g = grads[t],
            mm = m1[t],
            vv = v1[t];
          for (let i = 0; i < a.length; i++) {
            mm[i] = beta1 * mm[i] + (1 - beta1) * g[i];
            vv[i] = beta2 * vv[i] + (1 - beta2) * g[i] * g[i];
            a[i] -= lr * (mm[i] / c1 / (Math.sqrt(vv[i] / c2) + eps) + wd * a[i]);
          }
        }
        m.b2 = b2[0];
      }
    }
    return m;
  }
  toJSON(): object {
    return { kind: 'mlp', version: 1, features: [...RANKER_FEATURES], hidden: this.hidden, w1: [...this.w1], b1: [...this.b1], w2: [...this.w2], b2: this.b2 };
  }
}

function numbers(x: unknown, n: number, what: string): Float64Array {
  if (!Array.isArray(x) || x.length !== n || !x.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new CtxpruneError('INVALID_OPTION', `ranker JSON: ${what} must be ${n} finite numbers`);
  }
  return Float64Array.from(x as number[]);
}

/** Load a ranker saved with toJSON() (validated: kind, feature order, shapes, finite numbers). */
export function loadRanker(json: unknown): Ranker {
  const o = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown> | null;
  if (!o || typeof o !== 'object') throw new CtxpruneError('INVALID_OPTION', 'ranker JSON must be an object');
  const feats = o.features;
  if (!Array.isArray(feats) || feats.length !== DIM || feats.some((f, i) => f !== RANKER_FEATURES[i])) {
    throw new CtxpruneError('INVALID_OPTION', 'ranker JSON: features must be the 25 published features in order');
  }
  if (o.kind === 'linear') return new LinearRanker(numbers(o.weights, DIM, 'weights'));
  if (o.kind === 'mlp') {
    const h = o.hidden;
    if (typeof h !== 'number' || !Number.isInteger(h) || h < 1 || h > 4096)
      throw new CtxpruneError('INVALID_OPTION', 'ranker JSON: hidden must be an integer 1..4096');
    const b2 = o.b2;
    if (typeof b2 !== 'number' || !Number.isFinite(b2)) throw new CtxpruneError('INVALID_OPTION', 'ranker JSON: b2 must be a finite number');
    return new MlpRanker(h, numbers(o.w1, h * DIM, 'w1'), numbers(o.b1, h, 'b1'), numbers(o.w2, h, 'w2'), b2);
  }
  throw new CtxpruneError('INVALID_OPTION', `ranker JSON: unknown kind ${JSON.stringify(o.kind)}`);
}
