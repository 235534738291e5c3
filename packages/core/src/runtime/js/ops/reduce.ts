/**
 * ReduceSum and ReduceMax: the axes from the `axes` input (ReduceSum from opset 13, every reduce
 * from opset 18) or attribute (ReduceMax before 18), keepdims, noop_with_empty_axes.
 */
import { alloc, normAxis, stridesOf, tensor } from '../tensor.js';
import { attr, type CompileContext, isInts, type Kernel, need, oneOf, type OpSpec, requireType, unsupported } from './op.js';

function reduce(init: number, step: (acc: number, x: number) => number, axesInputFrom: number): OpSpec {
  return {
    attributes: { keepdims: oneOf(0, 1), noop_with_empty_axes: oneOf(0, 1), axes: isInts },
    inputs: [1, 2],
    outputs: [1, 1],
    compile(node, ctx: CompileContext): Kernel {
      const keepdims = attr<number>(node, 'keepdims', 1) === 1;
      const noop = attr<number>(node, 'noop_with_empty_axes', 0) === 1;
      const axesAttr = node.attributes.get('axes') as number[] | undefined;
      if (ctx.opset >= axesInputFrom && axesAttr !== undefined) throw unsupported(node, `the axes attribute is not part of opset ${ctx.opset}`);
      if (ctx.opset < axesInputFrom && node.inputs.length > 1 && node.inputs[1]) throw unsupported(node, `an axes input is not part of opset ${ctx.opset}`);
      return (inputs) => {
        const x = need(inputs, 0, node);
        requireType(x, ['float32', 'int64'], node, 'the input');
        const rank = x.dims.length;
        const given = axesAttr ?? (inputs[1] ? Array.from(inputs[1].data as ArrayLike<number>) : []);
        if (given.length === 0 && noop) return [x];
        const axes = given.length === 0 ? x.dims.map((_, i) => i) : given.map((a) => normAxis(a, rank));
        const reduced = x.dims.map((_, i) => axes.includes(i));
        const outDimsKeep = x.dims.map((d, i) => (reduced[i] ? 1 : d));
        const size = outDimsKeep.reduce((a, b) => a * b, 1);
        const out = alloc(x.type, size).fill(init);
        // Each input element adds into the output element whose coordinates drop the reduced axes.
        const outStrides = stridesOf(outDimsKeep).map((s, i) => (reduced[i] ? 0 : s));
        const X = x.data;
        const idx = new Array<number>(rank).fill(0);
        let p = 0;
        for (let i = 0; i < X.length; i++) {
          out[p] = step(out[p], X[i]);
          for (let d = rank - 1; d >= 0; d--) {
            idx[d]++;
            p += outStrides[d];
            if (idx[d] < x.dims[d]) break;
            p -= outStrides[d] * x.dims[d];
            idx[d] = 0;
          }
        }
        const dims = keepdims ? outDimsKeep : x.dims.filter((_, i) => !reduced[i]);
        return [tensor(x.type, dims, out)];
      };
    },
  };
}

export const REDUCE_OPS: Readonly<Record<string, OpSpec>> = {
  ReduceSum: reduce(0, (a, x) => a + x, 13),
  ReduceMax: reduce(-Infinity, (a, x) => (x > a || Number.isNaN(x) ? x : a), 18),
};
