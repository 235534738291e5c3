/**
 * Element-wise operators: Add, Sub, Mul, Div with numpy broadcasting (float32, int64, int32;
 * integer division truncates, as onnxruntime's does), and the unary Erf, Sigmoid, Clip.
 */
import type { OnnxNode } from '../onnx.js';
import type { BufferPool } from '../pool.js';
import { alloc, sizeOf, type Tensor, type TensorData, tensor, uniformOf } from '../tensor.js';
import { attr, isFloat, type Kernel, need, type OpSpec, requireType } from './op.js';

/** The broadcast shape of two shapes (numpy rules), or null when they do not broadcast. */
export function broadcastShape(a: readonly number[], b: readonly number[]): number[] | null {
  const rank = Math.max(a.length, b.length);
  const out = new Array<number>(rank);
  for (let i = 0; i < rank; i++) {
    const da = i < rank - a.length ? 1 : a[i - (rank - a.length)];
    const db = i < rank - b.length ? 1 : b[i - (rank - b.length)];
    if (da !== db && da !== 1 && db !== 1) return null;
    out[i] = da === 1 ? db : da;
  }
  return out;
}

const ADD = 0,
  SUB = 1,
  MUL = 2,
  DIV = 3,
  INT_DIV = 4;
type BinaryOp = typeof ADD | typeof SUB | typeof MUL | typeof DIV | typeof INT_DIV;

/** Strides of an operand of shape `dims` read at the output's coordinates (0 along broadcast axes). */
function broadcastStrides(dims: readonly number[], out: readonly number[]): number[] {
  const s = new Array<number>(out.length).fill(0);
  let acc = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    const j = i + out.length - dims.length;
    s[j] = dims[i] === 1 ? 0 : acc;
    acc *= dims[i];
  }
  return s;
}

/** out[po + k] = A[pa + k·sa] op B[pb + k·sb] for k < len (sa, sb: 0 or 1). */
function row(op: BinaryOp, A: TensorData, pa: number, sa: number, B: TensorData, pb: number, sb: number, out: TensorData, po: number, len: number): void {
  switch (op) {
    case ADD:
      for (let k = 0; k < len; k++) out[po + k] = A[pa + k * sa] + B[pb + k * sb];
      break;
    case SUB:
      for (let k = 0; k < len; k++) out[po + k] = A[pa + k * sa] - B[pb + k * sb];
      break;
    case MUL:
      for (let k = 0; k < len; k++) out[po + k] = A[pa + k * sa] * B[pb + k * sb];
      break;
    case DIV:
      for (let k = 0; k < len; k++) out[po + k] = A[pa + k * sa] / B[pb + k * sb];
      break;
    default:
      for (let k = 0; k < len; k++) out[po + k] = Math.trunc(A[pa + k * sa] / B[pb + k * sb]);
  }
}

/**
 * A op B with numpy broadcasting. Axes along which both operands step alike are merged, so the
 * work is a few long rows (one, when the shapes are equal or one operand is a single value), each
 * a tight loop with the operands' strides 0 or 1; an odometer steps the outer axes.
 */
function broadcastBinary(a: Tensor, b: Tensor, op: BinaryOp, pool: BufferPool): Tensor {
  const dims = broadcastShape(a.dims, b.dims);
  if (!dims) throw new Error(`shapes [${a.dims.join(', ')}] and [${b.dims.join(', ')}] do not broadcast`);
  const n = sizeOf(dims);
  const out = a.type === 'float32' ? pool.take(n) : alloc(a.type, n);
  if (n === 0) return tensor(a.type, dims, out);
  const fa = broadcastStrides(a.dims, dims),
    fb = broadcastStrides(b.dims, dims);
  // Merge axis d into the next one kept when both operands are contiguous across the pair.
  const md: number[] = [],
    ma: number[] = [],
    mb: number[] = [];
  for (let d = dims.length - 1; d >= 0; d--) {
    if (dims[d] === 1) continue;
    if (md.length && fa[d] === ma[0] * md[0] && fb[d] === mb[0] * md[0]) md[0] *= dims[d];
    else {
      md.unshift(dims[d]);
      ma.unshift(fa[d]);
      mb.unshift(fb[d]);
    }
  }
  if (!md.length) {
    md.push(1);
    ma.push(0);
    mb.push(0);
  }
  const rank = md.length;
  const len = md[rank - 1],
    sa = ma[rank - 1],
    sb = mb[rank - 1];
  const A = a.data,
    B = b.data;
  const idx = new Array<number>(rank).fill(0);
  let pa = 0,
    pb = 0;
  for (let o = 0; o < n; o += len) {
    row(op, A, pa, sa, B, pb, sb, out, o, len);
    for (let d = rank - 2; d >= 0; d--) {
      idx[d]++;
      pa += ma[d];
      pb += mb[d];
      if (idx[d] < md[d]) break;
      pa -= ma[d] * md[d];
      pb -= mb[d] * md[d];
      idx[d] = 0;
    }
  }
  return tensor(a.type, dims, out);
}

const sameDims = (x: readonly number[], y: readonly number[]) => x.length === y.length && x.every((d, i) => d === y[i]);

/**
 * A op B without the loop when an operand's values are all one known value (Tensor.uniform, or a
 * single value): multiplying or dividing by one, adding or subtracting zero returns the other
 * operand itself (when it has the output's shape), and two uniform operands give a uniform result
 * (one fill). Null: compute it.
 */
function uniformBinary(a: Tensor, b: Tensor, op: BinaryOp, pool: BufferPool): Tensor | null {
  const ua = uniformOf(a),
    ub = uniformOf(b);
  if (ua === undefined && ub === undefined) return null;
  const dims = broadcastShape(a.dims, b.dims);
  if (!dims) return null; // broadcastBinary says why
  if (ua !== undefined && ub !== undefined) {
    const v = op === ADD ? ua + ub : op === SUB ? ua - ub : op === MUL ? ua * ub : op === DIV ? ua / ub : Math.trunc(ua / ub);
    const value = a.type === 'float32' ? Math.fround(v) : v;
    const n = sizeOf(dims);
    const out = a.type === 'float32' ? pool.take(n) : alloc(a.type, n);
    return { ...tensor(a.type, dims, out.fill(value)), uniform: value };
  }
  const bIsIdentity = ub !== undefined && (((op === MUL || op === DIV || op === INT_DIV) && ub === 1) || ((op === ADD || op === SUB) && ub === 0));
  if (bIsIdentity && sameDims(dims, a.dims)) return a;
  const aIsIdentity = (op === MUL && ua === 1) || (op === ADD && ua === 0);
  if (aIsIdentity && sameDims(dims, b.dims)) return b;
  return null;
}

function binary(op: BinaryOp): OpSpec {
  return {
    attributes: {},
    inputs: [2, 2],
    outputs: [1, 1],
    compile:
      (node: OnnxNode): Kernel =>
      (inputs, pool) => {
        const a = need(inputs, 0, node),
          b = need(inputs, 1, node);
        requireType(a, ['float32', 'int64', 'int32'], node, 'input A');
        if (a.type !== b.type) throw new Error(`${node.opType} node "${node.name}": inputs are ${a.type} and ${b.type}`);
        const kind = op === DIV && a.type !== 'float32' ? INT_DIV : op;
        return [uniformBinary(a, b, kind, pool) ?? broadcastBinary(a, b, kind, pool)];
      },
  };
}

/**
 * erf(x) from Numerical Recipes' erfc (a Chebyshev fit with fractional error < 1.2e-7 everywhere),
 * so |error| < 1.2e-7: finer than Abramowitz & Stegun 7.1.26 (1.5e-7), about float32's rounding.
 */
export function erf(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - r : r - 1;
}

/** erf over a buffer (its own loop: a call per element would not inline in cold code). */
function erfInto(X: TensorData, out: Float32Array): void {
  for (let i = 0; i < X.length; i++) out[i] = erf(X[i]);
}

function sigmoidInto(X: TensorData, out: Float32Array): void {
  for (let i = 0; i < X.length; i++) {
    const x = X[i];
    out[i] = x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
  }
}

function unary(f: (X: TensorData, out: Float32Array) => void): OpSpec {
  return {
    attributes: {},
    inputs: [1, 1],
    outputs: [1, 1],
    compile: (node) => (inputs, pool) => {
      const x = need(inputs, 0, node);
      requireType(x, ['float32'], node, 'the input');
      const out = pool.take(x.data.length);
      f(x.data, out);
      return [tensor('float32', x.dims, out)];
    },
  };
}

/** Clip (opset 11+): optional scalar min and max inputs. */
const clip: OpSpec = {
  attributes: {},
  inputs: [1, 3],
  outputs: [1, 1],
  compile: (node) => (inputs, pool) => {
    const x = need(inputs, 0, node);
    requireType(x, ['float32'], node, 'the input');
    const lo = inputs[1] ? inputs[1].data[0] : -Infinity;
    const hi = inputs[2] ? inputs[2].data[0] : Infinity;
    const X = x.data;
    const out = pool.take(X.length);
    for (let i = 0; i < X.length; i++) {
      const v = X[i];
      out[i] = v < lo ? lo : v > hi ? hi : v;
    }
    return [tensor('float32', x.dims, out)];
  },
};

/**
 * The fused GELU of an exported `F.gelu` (fuse.ts): y = x · (erf(x / divisor) + offset) · scale,
 * the five nodes Div → Erf → Add → Mul → Mul in one pass.
 */
const gelu: OpSpec = {
  attributes: { divisor: isFloat, offset: isFloat, scale: isFloat },
  inputs: [1, 1],
  outputs: [1, 1],
  compile(node): Kernel {
    const inv = 1 / attr<number>(node, 'divisor', Math.SQRT2),
      offset = attr<number>(node, 'offset', 1),
      scale = attr<number>(node, 'scale', 0.5);
    return (inputs, pool) => {
      const x = need(inputs, 0, node);
      requireType(x, ['float32'], node, 'the input');
      const X = x.data;
      const out = pool.take(X.length);
      for (let i = 0; i < X.length; i++) {
        const v = X[i];
        out[i] = v * (erf(v * inv) + offset) * scale;
      }
      return [tensor('float32', x.dims, out)];
    };
  },
};

/** The fused operators fuse.ts makes (never read from a model file). */
export const FUSED_ELEMENTWISE_OPS: Readonly<Record<string, OpSpec>> = { Gelu: gelu };

export const ELEMENTWISE_OPS: Readonly<Record<string, OpSpec>> = {
  Add: binary(ADD),
  Sub: binary(SUB),
  Mul: binary(MUL),
  Div: binary(DIV),
  Erf: unary(erfInto),
  Sigmoid: unary(sigmoidInto),
  Clip: clip,
};
