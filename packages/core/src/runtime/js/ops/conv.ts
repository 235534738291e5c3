/**
 * Conv, 1-D (what the shipped model exports: [N, C, L] inputs, [Co, Ci, k] weights), any padding,
 * stride and dilation, one group; and its sequence-major form for the fused Transpose → Conv →
 * Transpose of Conv1d layers (fuse.ts). Each kernel tap is one gemmNT call (matmul.ts) over the output
 * rows whose input row is inside the sequence: padding is never materialised. 2-D convolutions and
 * groups are refused at load (onnxruntime runs those models).
 */
import type { OnnxNode } from '../onnx.js';
import { type Tensor, tensor } from '../tensor.js';
import { gemmNT, transposeInto } from './matmul.js';
import { attr, isInts, type Kernel, need, oneOf, type OpSpec, requireType, unsupported } from './op.js';

/** Per tap j, the weights as [Co, Ci] rows: taps[j][co·Ci + ci] = W[co, ci, j]. */
function weightTaps(w: Tensor): Float32Array[] {
  const [co, ci, k] = w.dims;
  const W = w.data as Float32Array;
  const taps: Float32Array[] = [];
  for (let j = 0; j < k; j++) {
    const t = new Float32Array(co * ci);
    for (let o = 0; o < co; o++) for (let i = 0; i < ci; i++) t[o * ci + i] = W[(o * ci + i) * k + j];
    taps.push(t);
  }
  return taps;
}

const oneSpatial = (v: unknown): string | null => (Array.isArray(v) && v.length === 1 ? null : 'only 1-D convolutions are supported');

/**
 * One sequence's convolution in sequence-major layout: output rows [lOut, co] (`rows` at
 * `rowsOff`) from input rows [L, ci] (`x` at `xOff`). The bias (or zeros) first, then one gemmNT
 * per tap over the output rows whose input row lies inside the sequence.
 */
function convRows(
  x: Float32Array,
  xOff: number,
  L: number,
  ci: number,
  taps: Float32Array[],
  co: number,
  bias: Float32Array | null,
  rows: Float32Array,
  rowsOff: number,
  lOut: number,
  geometry: { dilation: number; stride: number; padL: number },
): void {
  const { dilation, stride, padL } = geometry;
  if (bias) for (let t = 0; t < lOut; t++) rows.set(bias, rowsOff + t * co);
  else rows.fill(0, rowsOff, rowsOff + lOut * co);
  for (let j = 0; j < taps.length; j++) {
    const offset = j * dilation - padL; // output t reads input row t·stride + offset
    // Integer arithmetic only (Math.ceil and friends return doubles the kernel would deoptimize on).
    const t0 = offset < 0 ? ((-offset + stride - 1) / stride) | 0 : 0;
    const last = L - 1 - offset; // the last input row, relative to the tap
    const t1 = last < 0 ? 0 : Math.min(lOut, ((last / stride) | 0) + 1) | 0;
    if (t1 > t0) gemmNT(x, xOff + (t0 * stride + offset) * ci, t1 - t0, ci, taps[j], co, rows, rowsOff + t0 * co, stride * ci);
  }
}

/**
 * Conv, or (`sequenceMajor`) the fused Transpose(0, 2, 1) → Conv → Transpose(0, 2, 1) that the
 * exported Conv1d layers are: [N, L, C] in and out, no transposes at all (fuse.ts makes these).
 */
function convSpec(sequenceMajor: boolean): OpSpec {
  return {
    attributes: {
      auto_pad: oneOf('NOTSET'),
      group: oneOf(1),
      kernel_shape: oneSpatial,
      dilations: oneSpatial,
      strides: oneSpatial,
      pads: (v) => isInts(v) ?? (Array.isArray(v) && v.length === 2 ? null : 'only 1-D convolutions are supported'),
    },
    inputs: [2, 3],
    outputs: [1, 1],
    compile(node: OnnxNode, ctx): Kernel {
      const geometry = {
        dilation: attr<number[]>(node, 'dilations', [1])[0],
        stride: attr<number[]>(node, 'strides', [1])[0],
        padL: attr<number[]>(node, 'pads', [0, 0])[0],
      };
      const padR = attr<number[]>(node, 'pads', [0, 0])[1];
      const { dilation, stride, padL } = geometry;
      if (!(dilation >= 1 && stride >= 1 && padL >= 0 && padR >= 0)) throw unsupported(node, 'dilations and strides must be ≥ 1, pads ≥ 0');
      const wConst = ctx.constant(node.inputs[1]);
      if (wConst && (wConst.type !== 'float32' || wConst.dims.length !== 3))
        throw unsupported(node, `weights of shape [${wConst.dims.join(', ')}]: only 1-D float32 convolutions are supported`);
      const tapsConst = wConst ? weightTaps(wConst) : null;
      return (inputs, pool) => {
        const x = need(inputs, 0, node),
          w = need(inputs, 1, node),
          b = inputs[2];
        requireType(x, ['float32'], node, 'input X');
        requireType(w, ['float32'], node, 'the weights');
        if (x.dims.length !== 3 || w.dims.length !== 3) throw new Error(`Conv node "${node.name}": only 1-D convolutions are supported`);
        const [batch, ci, L] = sequenceMajor ? [x.dims[0], x.dims[2], x.dims[1]] : x.dims;
        const [co, wci, k] = w.dims;
        if (wci !== ci) throw new Error(`Conv node "${node.name}": ${ci} input channels, weights for ${wci}`);
        const span = L + padL + padR - dilation * (k - 1) - 1;
        const lOut = span < 0 ? 0 : ((span / stride) | 0) + 1;
        if (span < -1) throw new Error(`Conv node "${node.name}": input of length ${L} is shorter than the kernel`);
        const taps = w === wConst && tapsConst ? tapsConst : weightTaps(w);
        const X = x.data as Float32Array;
        const bias = b ? (b.data as Float32Array) : null;
        const out = pool.take(batch * co * lOut);
        if (sequenceMajor) {
          for (let n = 0; n < batch; n++) convRows(X, n * L * ci, L, ci, taps, co, bias, out, n * lOut * co, lOut, geometry);
          return [tensor('float32', [batch, lOut, co], out)];
        }
        const rows = pool.take(lOut * co);
        const xT = pool.take(L * ci);
        for (let n = 0; n < batch; n++) {
          // Sequence-major: row t of xT is the input's channels at position t.
          transposeInto(X, n * ci * L, ci, L, xT, 0);
          convRows(xT, 0, L, ci, taps, co, bias, rows, 0, lOut, geometry);
          transposeInto(rows, 0, lOut, co, out, n * co * lOut);
        }
        pool.give(xT);
        pool.give(rows);
        return [tensor('float32', [batch, co, lOut], out)];
      };
    },
  };
}

export const CONV_OPS: Readonly<Record<string, OpSpec>> = { Conv: convSpec(false) };

/** The fused operators fuse.ts makes (never read from a model file). */
export const FUSED_CONV_OPS: Readonly<Record<string, OpSpec>> = { ConvSequenceMajor: convSpec(true) };
