/**
 * MatMul and Gemm on one kernel, `gemmNT`: rows of A times a pre-transposed B (each output is a
 * dot product of two contiguous rows), in 3 × 4 register blocks (7 loads per 12 multiply-adds;
 * ~2.5 GMAC/s optimized here, 2 × 4 blocks ~2.3, a row-times-column loop ~0.7). Conv
 * (conv.ts) runs on the same kernel, one call per kernel tap. Sums are in float64, stored float32.
 */
import { tensor } from '../tensor.js';
import { broadcastShape } from './elementwise.js';
import { attr, isFloat, type Kernel, need, oneOf, type OpSpec, requireType, unsupported } from './op.js';

/**
 * out[outOff + r·N + n] += Σ_k a[aOff + r·lda + k] · bT[n·K + k] for r < rows, n < N: `a` holds
 * `rows` rows of K values, `lda` apart (K when packed), `bT` N rows of K values (B transposed).
 * Allocates nothing.
 */
export function gemmNT(a: Float32Array, aOff: number, rows: number, K: number, bT: Float32Array, N: number, out: Float32Array, outOff: number, lda = K): void {
  // Small integers throughout (the optimizing compiler then keeps the index arithmetic in int32).
  aOff |= 0;
  rows |= 0;
  K |= 0;
  N |= 0;
  outOff |= 0;
  lda |= 0;
  let r = 0;
  for (; r + 2 < rows; r += 3) {
    const a0 = aOff + r * lda,
      a1 = a0 + lda,
      a2 = a1 + lda,
      o0 = outOff + r * N,
      o1 = o0 + N,
      o2 = o1 + N;
    let n = 0;
    for (; n + 3 < N; n += 4) {
      const b0 = n * K,
        b1 = b0 + K,
        b2 = b1 + K,
        b3 = b2 + K;
      let s00 = 0,
        s01 = 0,
        s02 = 0,
        s03 = 0,
        s10 = 0,
        s11 = 0,
        s12 = 0,
        s13 = 0,
        s20 = 0,
        s21 = 0,
        s22 = 0,
        s23 = 0;
      for (let k = 0; k < K; k++) {
        const x0 = a[a0 + k],
          x1 = a[a1 + k],
          x2 = a[a2 + k];
        const w0 = bT[b0 + k],
          w1 = bT[b1 + k],
          w2 = bT[b2 + k],
          w3 = bT[b3 + k];
        s00 += x0 * w0;
        s01 += x0 * w1;
        s02 += x0 * w2;
        s03 += x0 * w3;
        s10 += x1 * w0;
        s11 += x1 * w1;
        s12 += x1 * w2;
        s13 += x1 * w3;
        s20 += x2 * w0;
        s21 += x2 * w1;
        s22 += x2 * w2;
        s23 += x2 * w3;
      }
      out[o0 + n] += s00;
      out[o0 + n + 1] += s01;
      out[o0 + n + 2] += s02;
      out[o0 + n + 3] += s03;
      out[o1 + n] += s10;
      out[o1 + n + 1] += s11;
      out[o1 + n + 2] += s12;
      out[o1 + n + 3] += s13;
      out[o2 + n] += s20;
      out[o2 + n + 1] += s21;
      out[o2 + n + 2] += s22;
      out[o2 + n + 3] += s23;
    }
    for (; n < N; n++) {
      const b0 = n * K;
      let s0 = 0,
        s1 = 0,
        s2 = 0;
      for (let k = 0; k < K; k++) {
        const w = bT[b0 + k];
        s0 += a[a0 + k] * w;
        s1 += a[a1 + k] * w;
        s2 += a[a2 + k] * w;
      }
      out[o0 + n] += s0;
      out[o1 + n] += s1;
      out[o2 + n] += s2;
    }
  }
  for (; r < rows; r++) {
    const a0 = aOff + r * lda,
      o0 = outOff + r * N;
    for (let n = 0; n < N; n++) {
      const b0 = n * K;
      let s = 0;
      for (let k = 0; k < K; k++) s += a[a0 + k] * bT[b0 + k];
      out[o0 + n] += s;
    }
  }
}

/** Write the transpose of the [rows, cols] matrix at m[off] to dst[dstOff] ([cols, rows]). */
export function transposeInto(m: Float32Array, off: number, rows: number, cols: number, dst: Float32Array, dstOff: number): void {
  for (let i = 0; i < rows; i++) {
    const src = off + i * cols;
    for (let j = 0; j < cols; j++) dst[dstOff + j * rows + i] = m[src + j];
  }
}

/** The transpose of a [rows, cols] matrix stored at `off`, in a new buffer. */
export function transpose2d(m: Float32Array, off: number, rows: number, cols: number): Float32Array {
  const t = new Float32Array(rows * cols);
  transposeInto(m, off, rows, cols, t, 0);
  return t;
}

/** MatMul with numpy semantics: 1-D operands promoted and the added axis dropped, batch axes broadcast. */
const matmul: OpSpec = {
  attributes: {},
  inputs: [2, 2],
  outputs: [1, 1],
  compile(node, ctx): Kernel {
    // A constant 2-D B (a Linear layer's weight) is transposed once, at load.
    const bConst = ctx.constant(node.inputs[1]);
    const bTConst =
      bConst && bConst.type === 'float32' && bConst.dims.length === 2 ? transpose2d(bConst.data as Float32Array, 0, bConst.dims[0], bConst.dims[1]) : null;
    return (inputs, pool) => {
      const a = need(inputs, 0, node),
        b = need(inputs, 1, node);
      requireType(a, ['float32'], node, 'input A');
      requireType(b, ['float32'], node, 'input B');
      const aDims = a.dims.length === 1 ? [1, a.dims[0]] : a.dims;
      const bDims = b.dims.length === 1 ? [b.dims[0], 1] : b.dims;
      const M = aDims[aDims.length - 2],
        K = aDims[aDims.length - 1],
        N = bDims[bDims.length - 1];
      if (bDims[bDims.length - 2] !== K) throw new Error(`MatMul node "${node.name}": [${a.dims.join(', ')}] × [${b.dims.join(', ')}]`);
      const A = a.data as Float32Array,
        B = b.data as Float32Array;
      let outDims: number[];
      let out: Float32Array;
      if (bDims.length === 2) {
        // Every batch of A times the one B: all of A's rows in one call.
        const bT = b === bConst && bTConst ? bTConst : transpose2d(B, 0, K, N);
        outDims = [...aDims.slice(0, -1), N];
        const rows = (A.length / K) | 0;
        out = pool.zeros(rows * N);
        gemmNT(A, 0, rows, K, bT, N, out, 0);
      } else {
        const batch = broadcastShape(aDims.slice(0, -2), bDims.slice(0, -2));
        if (!batch) throw new Error(`MatMul node "${node.name}": batch shapes of [${a.dims.join(', ')}] and [${b.dims.join(', ')}] do not broadcast`);
        outDims = [...batch, M, N];
        const nb = batch.reduce((x, y) => x * y, 1);
        out = pool.zeros(nb * M * N);
        const aBatch = aDims.slice(0, -2),
          bBatch = bDims.slice(0, -2);
        for (let i = 0; i < nb; i++) {
          const ai = batchIndex(i, batch, aBatch),
            bi = batchIndex(i, batch, bBatch);
          gemmNT(A, ai * M * K, M, K, transpose2d(B, bi * K * N, K, N), N, out, i * M * N);
        }
      }
      if (a.dims.length === 1) outDims.splice(outDims.length - 2, 1);
      if (b.dims.length === 1) outDims.pop();
      return [tensor('float32', outDims, out)];
    };
  },
};

/** The flat batch index, in an operand's batch shape, of output batch `i` (broadcast axes read 0). */
function batchIndex(i: number, out: readonly number[], dims: readonly number[]): number {
  let idx = 0,
    stride = 1;
  for (let d = out.length - 1, e = dims.length - 1; d >= 0; d--, e--) {
    const coord = i % out[d];
    i = Math.floor(i / out[d]);
    if (e >= 0) {
      if (dims[e] !== 1) idx += coord * stride;
      stride *= dims[e];
    }
  }
  return idx;
}

/** Gemm: Y = alpha · A' · B' + beta · C, A' and B' optionally transposed, C broadcast to [M, N]. */
const gemm: OpSpec = {
  attributes: { alpha: isFloat, beta: isFloat, transA: oneOf(0, 1), transB: oneOf(0, 1) },
  inputs: [2, 3],
  outputs: [1, 1],
  compile(node, ctx): Kernel {
    const alpha = attr<number>(node, 'alpha', 1),
      beta = attr<number>(node, 'beta', 1);
    const transA = attr<number>(node, 'transA', 0) === 1,
      transB = attr<number>(node, 'transB', 0) === 1;
    const bConst = ctx.constant(node.inputs[1]);
    if (bConst && bConst.dims.length !== 2) throw unsupported(node, 'B must be 2-D');
    // gemmNT wants B as [N, K]: that is B itself when transB.
    const bTConst =
      bConst && bConst.type === 'float32'
        ? transB
          ? (bConst.data as Float32Array)
          : transpose2d(bConst.data as Float32Array, 0, bConst.dims[0], bConst.dims[1])
        : null;
    return (inputs, pool) => {
      const a = need(inputs, 0, node),
        b = need(inputs, 1, node),
        c = inputs[2];
      requireType(a, ['float32'], node, 'input A');
      requireType(b, ['float32'], node, 'input B');
      if (a.dims.length !== 2 || b.dims.length !== 2) throw new Error(`Gemm node "${node.name}": A and B must be 2-D`);
      const [M, K] = transA ? [a.dims[1], a.dims[0]] : [a.dims[0], a.dims[1]];
      const [Kb, N] = transB ? [b.dims[1], b.dims[0]] : [b.dims[0], b.dims[1]];
      if (K !== Kb) throw new Error(`Gemm node "${node.name}": inner sizes ${K} and ${Kb}`);
      const A = transA ? transpose2d(a.data as Float32Array, 0, a.dims[0], a.dims[1]) : (a.data as Float32Array);
      const bT = b === bConst && bTConst ? bTConst : transB ? (b.data as Float32Array) : transpose2d(b.data as Float32Array, 0, b.dims[0], b.dims[1]);
      const prod = pool.zeros(M * N);
      gemmNT(A, 0, M, K, bT, N, prod, 0);
      const out = pool.take(M * N);
      const C = c?.data;
      // C broadcasts to [M, N] (unidirectionally): [], [N], [1, N], [M, 1], [M, N].
      const cRows = !c || c.dims.length < 2 ? 1 : c.dims[0],
        cCols = !c || c.dims.length === 0 ? 1 : c.dims[c.dims.length - 1];
      if (c && ((cRows !== 1 && cRows !== M) || (cCols !== 1 && cCols !== N))) throw new Error(`Gemm node "${node.name}": C of shape [${c.dims.join(', ')}]`);
      for (let i = 0; i < M; i++)
        for (let j = 0; j < N; j++) {
          const cv = C ? C[(cRows === 1 ? 0 : i) * cCols + (cCols === 1 ? 0 : j)] : 0;
          out[i * N + j] = alpha * prod[i * N + j] + beta * cv;
        }
      pool.give(prod);
      return [tensor('float32', [M, N], out)];
    };
  },
};

export const MATMUL_OPS: Readonly<Record<string, OpSpec>> = { MatMul: matmul, Gemm: gemm };
