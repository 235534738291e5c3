/**
 * Operators that move or make values without arithmetic: Constant, Identity, Shape,
 * ConstantOfShape, Gather, Unsqueeze, Squeeze, Concat, Transpose (opset 13+ forms: axes as inputs).
 */
import { OnnxUnsupportedError, type OnnxNode } from '../onnx.js';
import { alloc, ints, normAxis, sizeOf, stridesOf, type Tensor, tensor } from '../tensor.js';
import { transposeInto } from './matmul.js';
import { any, attr, isFloat, isInt, isInts, type Kernel, need, type OpSpec, unsupported } from './op.js';

/** A Constant node's value (the executor folds these at load). */
export function constantValue(node: OnnxNode): Tensor {
  if (node.attributes.size !== 1) throw unsupported(node, 'exactly one value attribute is expected');
  const [name, v] = [...node.attributes][0];
  switch (name) {
    case 'value':
      return v as Tensor;
    case 'value_float':
      return tensor('float32', [], Float32Array.of(v as number));
    case 'value_floats':
      return tensor('float32', [(v as number[]).length], Float32Array.from(v as number[]));
    case 'value_int':
      return tensor('int64', [], Float64Array.of(v as number));
    case 'value_ints':
      return tensor('int64', [(v as number[]).length], Float64Array.from(v as number[]));
    default:
      throw new OnnxUnsupportedError(`Constant node "${node.name}": ${name} is not supported`);
  }
}

const constant: OpSpec = {
  attributes: { value: any, value_float: isFloat, value_floats: isInts, value_int: isInt, value_ints: isInts },
  inputs: [0, 0],
  outputs: [1, 1],
  compile(node): Kernel {
    const value = constantValue(node);
    return () => [value];
  },
};

const identity: OpSpec = {
  attributes: {},
  inputs: [1, 1],
  outputs: [1, 1],
  compile: (node) => (inputs) => [need(inputs, 0, node)],
};

const shape: OpSpec = {
  attributes: { start: isInt, end: isInt },
  inputs: [1, 1],
  outputs: [1, 1],
  compile(node): Kernel {
    const start = node.attributes.get('start') as number | undefined;
    const end = node.attributes.get('end') as number | undefined;
    return (inputs) => {
      const dims = need(inputs, 0, node).dims;
      const r = dims.length;
      const clamp = (v: number) => Math.min(r, Math.max(0, v < 0 ? v + r : v));
      const picked = dims.slice(start === undefined ? 0 : clamp(start), end === undefined ? r : clamp(end));
      return [tensor('int64', [picked.length], Float64Array.from(picked))];
    };
  },
};

const constantOfShape: OpSpec = {
  attributes: { value: (v) => (typeof v === 'object' && !Array.isArray(v) && v.data.length === 1 ? null : 'a one-value tensor is expected') },
  inputs: [1, 1],
  outputs: [1, 1],
  compile(node): Kernel {
    const value = node.attributes.get('value') as Tensor | undefined;
    const type = value?.type ?? 'float32';
    const fill = value ? value.data[0] : 0;
    return (inputs) => {
      const dims = ints(need(inputs, 0, node));
      return [{ ...tensor(type, dims, alloc(type, sizeOf(dims)).fill(fill)), uniform: fill }];
    };
  },
};

const gather: OpSpec = {
  attributes: { axis: isInt },
  inputs: [2, 2],
  outputs: [1, 1],
  compile(node): Kernel {
    const axisAttr = attr<number>(node, 'axis', 0);
    return (inputs) => {
      const data = need(inputs, 0, node),
        indices = need(inputs, 1, node);
      if (indices.type !== 'int64' && indices.type !== 'int32') throw new Error(`Gather node "${node.name}": indices are ${indices.type}`);
      const axis = normAxis(axisAttr, data.dims.length);
      const len = data.dims[axis];
      const outer = sizeOf(data.dims.slice(0, axis)),
        inner = sizeOf(data.dims.slice(axis + 1));
      const idx = ints(indices).map((i) => {
        const j = i < 0 ? i + len : i;
        if (!(j >= 0 && j < len)) throw new Error(`Gather node "${node.name}": index ${i} out of range for an axis of ${len}`);
        return j;
      });
      const out = alloc(data.type, outer * idx.length * inner);
      const D = data.data;
      let p = 0;
      for (let o = 0; o < outer; o++)
        for (const j of idx) {
          const base = (o * len + j) * inner;
          for (let i = 0; i < inner; i++) out[p++] = D[base + i];
        }
      return [tensor(data.type, [...data.dims.slice(0, axis), ...indices.dims, ...data.dims.slice(axis + 1)], out)];
    };
  },
};

/** The same values under other dims (no copy). */
const reshaped = (t: Tensor, dims: number[]): Tensor => ({ ...tensor(t.type, dims, t.data), uniform: t.uniform });

const unsqueeze: OpSpec = {
  attributes: {},
  inputs: [2, 2],
  outputs: [1, 1],
  compile: (node) => (inputs) => {
    const x = need(inputs, 0, node);
    const rank = x.dims.length;
    const axes = ints(need(inputs, 1, node)).map((a) => normAxis(a, rank + inputs[1]!.data.length));
    const dims: number[] = [];
    let k = 0;
    for (let i = 0; i < rank + axes.length; i++) dims.push(axes.includes(i) ? 1 : x.dims[k++]);
    return [reshaped(x, dims)];
  },
};

const squeeze: OpSpec = {
  attributes: {},
  inputs: [1, 2],
  outputs: [1, 1],
  compile: (node) => (inputs) => {
    const x = need(inputs, 0, node);
    const axes = inputs[1] ? ints(inputs[1]).map((a) => normAxis(a, x.dims.length)) : null;
    if (axes?.some((a) => x.dims[a] !== 1)) throw new Error(`Squeeze node "${node.name}": an axis to squeeze is not of size 1`);
    return [
      reshaped(
        x,
        x.dims.filter((d, i) => (axes ? !axes.includes(i) : d !== 1)),
      ),
    ];
  },
};

const concat: OpSpec = {
  attributes: { axis: isInt },
  inputs: [1, Infinity],
  outputs: [1, 1],
  compile(node): Kernel {
    if (!node.attributes.has('axis')) throw unsupported(node, 'the axis attribute is required');
    const axisAttr = attr<number>(node, 'axis', 0);
    return (inputs, pool) => {
      const parts = inputs.map((_, i) => need(inputs, i, node));
      const first = parts[0];
      const axis = normAxis(axisAttr, first.dims.length);
      for (const p of parts)
        if (p.type !== first.type || p.dims.length !== first.dims.length || p.dims.some((d, i) => i !== axis && d !== first.dims[i])) {
          throw new Error(`Concat node "${node.name}": inputs of shapes [${first.dims.join(', ')}] and [${p.dims.join(', ')}]`);
        }
      const outer = sizeOf(first.dims.slice(0, axis));
      const widths = parts.map((p) => sizeOf(p.dims.slice(axis)));
      const total = widths.reduce((a, b) => a + b, 0);
      const out = first.type === 'float32' ? pool.take(outer * total) : alloc(first.type, outer * total);
      for (let o = 0; o < outer; o++) {
        let off = o * total;
        for (let k = 0; k < parts.length; k++) {
          const w = widths[k];
          (out as Float64Array).set(parts[k].data.subarray(o * w, (o + 1) * w), off);
          off += w;
        }
      }
      const dims = [...first.dims];
      dims[axis] = parts.reduce((a, p) => a + p.dims[axis], 0);
      return [tensor(first.type, dims, out)];
    };
  },
};

const transpose: OpSpec = {
  attributes: { perm: isInts },
  inputs: [1, 1],
  outputs: [1, 1],
  compile(node): Kernel {
    const permAttr = node.attributes.get('perm') as number[] | undefined;
    return (inputs, pool) => {
      const x = need(inputs, 0, node);
      const rank = x.dims.length;
      const perm = permAttr ?? x.dims.map((_, i) => rank - 1 - i);
      if (perm.length !== rank || [...perm].sort((a, b) => a - b).some((p, i) => p !== i))
        throw new Error(`Transpose node "${node.name}": perm ${JSON.stringify(perm)} for rank ${rank}`);
      const dims = perm.map((p) => x.dims[p]);
      const X = x.data;
      // Swapping the last two axes (the Conv1d layout change): one 2-D transpose per batch.
      if (x.type === 'float32' && rank >= 2 && perm.every((p, i) => (i < rank - 2 ? p === i : p === 2 * rank - 3 - i))) {
        const r = x.dims[rank - 2],
          c = x.dims[rank - 1];
        const out = pool.take(X.length);
        for (let b = 0; b < X.length; b += r * c) transposeInto(X as Float32Array, b, r, c, out, b);
        return [tensor('float32', dims, out)];
      }
      const out = alloc(x.type, X.length);
      const inStrides = stridesOf(x.dims);
      const step = perm.map((p) => inStrides[p]); // input stride along each output axis
      const idx = new Array<number>(rank).fill(0);
      let p = 0;
      for (let o = 0; o < X.length; o++) {
        out[o] = X[p];
        for (let d = rank - 1; d >= 0; d--) {
          idx[d]++;
          p += step[d];
          if (idx[d] < dims[d]) break;
          p -= step[d] * dims[d];
          idx[d] = 0;
        }
      }
      return [tensor(x.type, dims, out)];
    };
  },
};

export const SHAPE_OPS: Readonly<Record<string, OpSpec>> = {
  Constant: constant,
  Identity: identity,
  Shape: shape,
  ConstantOfShape: constantOfShape,
  Gather: gather,
  Unsqueeze: unsqueeze,
  Squeeze: squeeze,
  Concat: concat,
  Transpose: transpose,
};
