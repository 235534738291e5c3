/** LayerNormalization (opset 17) and Softmax (opset 13+: one axis). Statistics in float64. */
import { normAxis, sizeOf, tensor } from '../tensor.js';
import { attr, isFloat, isInt, type Kernel, need, oneOf, type OpSpec, requireType } from './op.js';

const layerNorm: OpSpec = {
  attributes: { axis: isInt, epsilon: isFloat, stash_type: oneOf(1) },
  inputs: [2, 3],
  outputs: [1, 3],
  compile(node): Kernel {
    const axisAttr = attr<number>(node, 'axis', -1);
    const eps = attr<number>(node, 'epsilon', 1e-5);
    return (inputs, pool) => {
      const x = need(inputs, 0, node),
        scale = need(inputs, 1, node),
        bias = inputs[2];
      requireType(x, ['float32'], node, 'input X');
      const axis = normAxis(axisAttr, x.dims.length);
      const inner = sizeOf(x.dims.slice(axis));
      const outer = inner === 0 ? 0 : x.data.length / inner;
      const S = scale.data,
        B = bias?.data;
      const sStep = S.length === 1 ? 0 : 1,
        bStep = B && B.length === 1 ? 0 : 1;
      if ((sStep && S.length !== inner) || (B && bStep && B.length !== inner)) {
        throw new Error(`LayerNormalization node "${node.name}": scale/bias of ${S.length}/${B?.length} values for ${inner} per row`);
      }
      const X = x.data;
      const out = pool.take(X.length);
      const means = new Float32Array(outer),
        inv = new Float32Array(outer);
      for (let o = 0; o < outer; o++) {
        const base = o * inner;
        let mean = 0;
        for (let i = 0; i < inner; i++) mean += X[base + i];
        mean /= inner;
        let v = 0;
        for (let i = 0; i < inner; i++) {
          const d = X[base + i] - mean;
          v += d * d;
        }
        const r = 1 / Math.sqrt(v / inner + eps);
        means[o] = mean;
        inv[o] = r;
        for (let i = 0; i < inner; i++) out[base + i] = (X[base + i] - mean) * r * S[i * sStep] + (B ? B[i * bStep] : 0);
      }
      const statDims = x.dims.map((d, i) => (i < axis ? d : 1));
      return [tensor('float32', x.dims, out), tensor('float32', statDims, means), tensor('float32', statDims, inv)];
    };
  },
};

const softmax: OpSpec = {
  attributes: { axis: isInt },
  inputs: [1, 1],
  outputs: [1, 1],
  compile(node): Kernel {
    const axisAttr = attr<number>(node, 'axis', -1);
    return (inputs, pool) => {
      const x = need(inputs, 0, node);
      requireType(x, ['float32'], node, 'the input');
      const axis = normAxis(axisAttr, x.dims.length);
      const len = x.dims[axis];
      const inner = sizeOf(x.dims.slice(axis + 1));
      const outer = sizeOf(x.dims.slice(0, axis));
      const X = x.data;
      const out = pool.take(X.length);
      for (let o = 0; o < outer; o++)
        for (let i = 0; i < inner; i++) {
          const base = o * len * inner + i;
          let max = -Infinity;
          for (let j = 0; j < len; j++) max = Math.max(max, X[base + j * inner]);
          let sum = 0;
          for (let j = 0; j < len; j++) sum += Math.exp(X[base + j * inner] - max);
          for (let j = 0; j < len; j++) out[base + j * inner] = Math.exp(X[base + j * inner] - max) / sum;
        }
      return [tensor('float32', x.dims, out)];
    };
  },
};

export const NORMALIZATION_OPS: Readonly<Record<string, OpSpec>> = { LayerNormalization: layerNorm, Softmax: softmax };
