/**
 * The js executor's operators against plain reference loops, on the cases the shipped model's
 * graph depends on (broadcasting, dilated padded Conv1d, LayerNormalization's axis, Gemm's transB)
 * and the kernels' block tails (odd row and column counts).
 */
import { describe, expect, it } from 'vitest';
import type { AttributeValue, OnnxNode } from '../../../src/runtime/js/onnx.js';
import { erf } from '../../../src/runtime/js/ops/elementwise.js';
import { OPS } from '../../../src/runtime/js/ops/index.js';
import { gemmNT } from '../../../src/runtime/js/ops/matmul.js';
import { BufferPool } from '../../../src/runtime/js/pool.js';
import { Reader } from '../../../src/runtime/js/protobuf.js';
import { type Tensor, tensor } from '../../../src/runtime/js/tensor.js';

const f32 = (dims: number[], values?: number[]): Tensor => {
  const n = dims.reduce((a, b) => a * b, 1);
  // Deterministic non-trivial values when none are given.
  return tensor('float32', dims, Float32Array.from(values ?? Array.from({ length: n }, (_, i) => Math.sin(i * 1.3 + 0.2) * 2)));
};
const i64 = (values: number[], dims = [values.length]): Tensor => tensor('int64', dims, Float64Array.from(values));

/** Run one operator: constants (weights) are known at compile time, as initializers are. */
function run(
  op: string,
  inputs: (Tensor | undefined)[],
  attributes: Record<string, AttributeValue> = {},
  opts: { opset?: number; constants?: number[] } = {},
): Tensor[] {
  const names = inputs.map((t, i) => (t ? `in${i}` : ''));
  const node: OnnxNode = {
    name: 'n',
    opType: op,
    domain: '',
    inputs: names,
    outputs: ['out0', 'out1', 'out2'],
    attributes: new Map(Object.entries(attributes)),
  };
  const known = new Map((opts.constants ?? []).map((i) => [names[i], inputs[i]!]));
  const kernel = OPS[op].compile(node, { opset: opts.opset ?? 17, constant: (name) => known.get(name) });
  return kernel(inputs, new BufferPool());
}

function close(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-5): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) expect(Math.abs(actual[i] - expected[i]), `index ${i}: ${actual[i]} vs ${expected[i]}`).toBeLessThanOrEqual(tol);
}

describe('js executor: broadcasting', () => {
  it('[2,3] + [3], [3] + [2,3] (a bias first, as the exported Linear layers have it)', () => {
    const a = f32([2, 3]),
      b = f32([3], [10, 20, 30]);
    const [y] = run('Add', [a, b]);
    expect(y.dims).toEqual([2, 3]);
    close(
      y.data,
      Array.from(a.data, (v, i) => v + [10, 20, 30][i % 3]),
    );
    close(run('Add', [b, a])[0].data, y.data);
  });

  it('[1,4,3] × [1,4,1] (the line mask) and a scalar', () => {
    const x = f32([1, 4, 3]),
      m = f32([1, 4, 1], [1, 0, 1, 0.5]);
    const [y] = run('Mul', [x, m]);
    close(
      y.data,
      Array.from(x.data, (v, i) => v * [1, 0, 1, 0.5][Math.floor(i / 3)]),
    );
    const [z] = run('Sub', [x, tensor('float32', [], Float32Array.of(1))]);
    expect(z.dims).toEqual([1, 4, 3]);
    close(
      z.data,
      Array.from(x.data, (v) => v - 1),
    );
  });

  it('[2,1,3] / [1,4,1] → [2,4,3], both operands broadcast', () => {
    const a = f32([2, 1, 3]),
      b = f32([1, 4, 1], [1, 2, 4, 8]);
    const [y] = run('Div', [a, b]);
    expect(y.dims).toEqual([2, 4, 3]);
    const want: number[] = [];
    for (let i = 0; i < 2; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 3; k++) want.push(a.data[i * 3 + k] / b.data[j]);
    close(y.data, want);
  });

  it('int64 division truncates toward zero; shapes that do not broadcast are an error', () => {
    expect(Array.from(run('Div', [i64([-7, 7, 9]), i64([2])])[0].data)).toEqual([-3, 3, 4]);
    expect(() => run('Add', [f32([2, 3]), f32([2])])).toThrow(/do not broadcast/);
  });
});

describe('js executor: Conv (1-D)', () => {
  /** Reference: y[n, o, t] = b[o] + Σ_i Σ_j w[o, i, j] · x[n, i, t·s + j·d − padL] (zero outside). */
  function convRef(x: Tensor, w: Tensor, b: Tensor | null, d: number, s: number, padL: number, padR: number): number[] {
    const [N, C, L] = x.dims,
      [O, , K] = w.dims;
    const lOut = Math.floor((L + padL + padR - d * (K - 1) - 1) / s) + 1;
    const out: number[] = [];
    for (let n = 0; n < N; n++)
      for (let o = 0; o < O; o++)
        for (let t = 0; t < lOut; t++) {
          let acc = b ? b.data[o] : 0;
          for (let i = 0; i < C; i++)
            for (let j = 0; j < K; j++) {
              const p = t * s + j * d - padL;
              if (p >= 0 && p < L) acc += w.data[(o * C + i) * K + j] * x.data[(n * C + i) * L + p];
            }
          out.push(acc);
        }
    return out;
  }

  for (const [d, s, padL, padR, L] of [
    [1, 1, 2, 2, 9],
    [2, 1, 4, 4, 9],
    [16, 1, 32, 32, 7], // dilation wider than the sequence: only the centre tap lands
    [2, 2, 1, 3, 10],
    [1, 1, 0, 0, 5],
  ]) {
    it(`dilation ${d}, stride ${s}, pads [${padL}, ${padR}], length ${L}`, () => {
      const x = f32([2, 5, L]),
        w = f32([7, 5, 5]),
        b = f32([7]);
      const [y] = run('Conv', [x, w, b], { dilations: [d], strides: [s], pads: [padL, padR], kernel_shape: [5], group: 1 }, { constants: [1, 2] });
      const want = convRef(x, w, b, d, s, padL, padR);
      expect(y.dims).toEqual([2, 7, want.length / 14]);
      close(y.data, want, 1e-4);
    });
  }

  it('without a bias, and weights that are not constants', () => {
    const x = f32([1, 3, 6]),
      w = f32([2, 3, 3]);
    const [y] = run('Conv', [x, w], { pads: [1, 1] });
    close(y.data, convRef(x, w, null, 1, 1, 1, 1), 1e-4);
  });
});

describe('js executor: LayerNormalization, Softmax', () => {
  function layerNormRef(x: Tensor, axis: number, scale: Tensor, bias: Tensor, eps: number): number[] {
    const inner = x.dims.slice(axis).reduce((a, b) => a * b, 1);
    const out: number[] = [];
    for (let o = 0; o < x.data.length / inner; o++) {
      const row = Array.from(x.data.subarray(o * inner, (o + 1) * inner));
      const mean = row.reduce((a, b) => a + b, 0) / inner;
      const v = row.reduce((a, b) => a + (b - mean) ** 2, 0) / inner;
      row.forEach((r, i) => out.push(((r - mean) / Math.sqrt(v + eps)) * scale.data[i] + bias.data[i]));
    }
    return out;
  }

  it('axis -1 and axis 1 of [2,3,4]', () => {
    const x = f32([2, 3, 4]);
    const s4 = f32([4], [1, 2, 0.5, -1]),
      b4 = f32([4], [0, 0.1, 0.2, 0.3]);
    close(run('LayerNormalization', [x, s4, b4], { axis: -1, epsilon: 1e-5 })[0].data, layerNormRef(x, 2, s4, b4, 1e-5));
    const s12 = f32([3, 4]),
      b12 = f32([3, 4]);
    const [y, mean] = run('LayerNormalization', [x, s12, b12], { axis: 1, epsilon: 1e-3 });
    close(y.data, layerNormRef(x, 1, s12, b12, 1e-3));
    expect(mean.dims).toEqual([2, 1, 1]);
  });

  it('Softmax along the last axis and a middle one', () => {
    const x = f32([2, 3, 2]);
    const [y] = run('Softmax', [x], { axis: -1 });
    for (let r = 0; r < 6; r++) {
      const [a, b] = [x.data[2 * r], x.data[2 * r + 1]];
      close([y.data[2 * r]], [Math.exp(a) / (Math.exp(a) + Math.exp(b))]);
    }
    const [z] = run('Softmax', [x], { axis: 1 });
    for (let n = 0; n < 2; n++)
      for (let k = 0; k < 2; k++) {
        let sum = 0;
        for (let j = 0; j < 3; j++) sum += z.data[n * 6 + j * 2 + k];
        expect(sum).toBeCloseTo(1, 6);
      }
  });
});

describe('js executor: MatMul, Gemm', () => {
  const matmulRef = (a: ArrayLike<number>, b: ArrayLike<number>, M: number, K: number, N: number, ao = 0, bo = 0) => {
    const out: number[] = [];
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let k = 0; k < K; k++) s += a[ao + i * K + k] * b[bo + k * N + j];
        out.push(s);
      }
    return out;
  };

  it('gemmNT on sizes that leave both block tails (5 × 7 · 7 × 5), with a row stride', () => {
    const a = f32([5, 12]).data as Float32Array,
      bT = f32([5, 7]).data as Float32Array;
    const out = new Float32Array(25).fill(1);
    gemmNT(a, 2, 5, 7, bT, 5, out, 0, 12); // rows 0..4 at a[2 + 12 r], K = 7: a 3-row block and 2 single rows
    const want: number[] = [];
    for (let r = 0; r < 5; r++)
      for (let n = 0; n < 5; n++) {
        let s = 1;
        for (let k = 0; k < 7; k++) s += a[2 + 12 * r + k] * bT[n * 7 + k];
        want.push(s);
      }
    close(out, want, 1e-5);
  });

  it('[1,5,3] × [3,4] with a constant B, and batched [2,2,3] × [2,3,2]', () => {
    const a = f32([1, 5, 3]),
      b = f32([3, 4]);
    const [y] = run('MatMul', [a, b], {}, { constants: [1] });
    expect(y.dims).toEqual([1, 5, 4]);
    close(y.data, matmulRef(a.data, b.data, 5, 3, 4));
    const p = f32([2, 2, 3]),
      q = f32([2, 3, 2]);
    const [z] = run('MatMul', [p, q]);
    expect(z.dims).toEqual([2, 2, 2]);
    close(z.data, [...matmulRef(p.data, q.data, 2, 3, 2, 0, 0), ...matmulRef(p.data, q.data, 2, 3, 2, 6, 6)]);
  });

  it('Gemm with transB (the doc head), alpha, beta and a [N] bias', () => {
    const a = f32([2, 6]),
      w = f32([3, 6]), // [N, K]: transB
      c = f32([3], [1, -1, 2]);
    const [y] = run('Gemm', [a, w, c], { transB: 1, alpha: 0.5, beta: 2 }, { constants: [1] });
    expect(y.dims).toEqual([2, 3]);
    const wT: number[] = [];
    for (let k = 0; k < 6; k++) for (let n = 0; n < 3; n++) wT.push(w.data[n * 6 + k]);
    close(
      y.data,
      matmulRef(a.data, wT, 2, 6, 3).map((v, i) => 0.5 * v + 2 * c.data[i % 3]),
    );
    const [z] = run('Gemm', [f32([6, 2]), f32([6, 3])], { transA: 1 });
    expect(z.dims).toEqual([2, 3]);
  });
});

describe('js executor: reductions and shape operators', () => {
  it('ReduceSum (axes input, keepdims 0) and ReduceMax (axes attribute, opset 17)', () => {
    const x = f32([2, 3, 2]);
    const [s] = run('ReduceSum', [x, i64([1])], { keepdims: 0 });
    expect(s.dims).toEqual([2, 2]);
    close(
      s.data,
      [0, 1, 2, 3].map((k) => [0, 1, 2].reduce((a, j) => a + x.data[Math.floor(k / 2) * 6 + j * 2 + (k % 2)], 0)),
    );
    const [m] = run('ReduceMax', [x], { axes: [1], keepdims: 1 });
    expect(m.dims).toEqual([2, 1, 2]);
    close(
      m.data,
      [0, 1, 2, 3].map((k) => Math.max(...[0, 1, 2].map((j) => x.data[Math.floor(k / 2) * 6 + j * 2 + (k % 2)]))),
    );
    // An axes attribute is not ReduceSum's in opset 13+.
    expect(() => run('ReduceSum', [x], { axes: [1] })).toThrow(/not part of opset/);
  });

  it('Gather of a scalar index on axis 2, Shape, ConstantOfShape, Unsqueeze, Squeeze', () => {
    const x = f32([1, 3, 4]);
    const [g] = run('Gather', [x, i64([0], [])], { axis: 2 });
    expect(g.dims).toEqual([1, 3]);
    close(g.data, [x.data[0], x.data[4], x.data[8]]);
    const [shape] = run('Shape', [g]);
    expect(shape.type).toBe('int64');
    expect(Array.from(shape.data)).toEqual([1, 3]);
    const [ones] = run('ConstantOfShape', [shape], { value: tensor('float32', [1], Float32Array.of(1)) });
    expect(ones.dims).toEqual([1, 3]);
    expect(Array.from(ones.data)).toEqual([1, 1, 1]);
    const [u] = run('Unsqueeze', [ones, i64([-1])]);
    expect(u.dims).toEqual([1, 3, 1]);
    expect(run('Squeeze', [u, i64([2])])[0].dims).toEqual([1, 3]);
    expect(run('Squeeze', [u])[0].dims).toEqual([3]);
  });

  it('Transpose (the Conv layout swap and a general permutation), Concat on the last axis', () => {
    const x = f32([2, 3, 4]);
    const [t] = run('Transpose', [x], { perm: [0, 2, 1] });
    expect(t.dims).toEqual([2, 4, 3]);
    expect(t.data[1 * 12 + 3 * 3 + 2]).toBe(x.data[1 * 12 + 2 * 4 + 3]);
    const [p] = run('Transpose', [x], { perm: [2, 0, 1] });
    expect(p.dims).toEqual([4, 2, 3]);
    expect(p.data[3 * 6 + 1 * 3 + 2]).toBe(x.data[1 * 12 + 2 * 4 + 3]);
    const [c] = run('Concat', [f32([2, 2], [1, 2, 3, 4]), f32([2, 1], [9, 8])], { axis: -1 });
    expect(c.dims).toEqual([2, 3]);
    expect(Array.from(c.data)).toEqual([1, 2, 9, 3, 4, 8]);
  });

  it('Clip with only a min, Sigmoid', () => {
    const x = f32([4], [-2, 0.5, 3, 1]);
    expect(Array.from(run('Clip', [x, tensor('float32', [], Float32Array.of(1)), undefined])[0].data)).toEqual([1, 1, 3, 1]);
    close(
      run('Sigmoid', [x])[0].data,
      [-2, 0.5, 3, 1].map((v) => 1 / (1 + Math.exp(-v))),
      1e-7,
    );
  });
});

describe('js executor: erf and the protobuf reader', () => {
  it('erf within 2e-7 of reference values', () => {
    const ref: [number, number][] = [
      [0, 0],
      [0.1, 0.1124629160182849],
      [0.5, 0.5204998778130465],
      [1, 0.8427007929497149],
      [-1.5, -0.9661051464753108],
      [2, 0.9953222650189527],
      [-3.5, -0.9999992569016276],
      [6, 1],
    ];
    for (const [x, want] of ref) expect(Math.abs(erf(x) - want), `erf(${x})`).toBeLessThan(2e-7);
  });

  it('reads negative int64 varints (10 bytes) and packed repeated fields', () => {
    const r = new Reader(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x96, 0x01));
    expect(r.varint()).toBe(-1);
    expect(r.varint()).toBe(150);
    const ints: number[] = [];
    new Reader(Uint8Array.of(0x03, 0x01, 0x96, 0x01)).varints(2, ints);
    expect(ints).toEqual([1, 150]);
  });
});

describe('js executor: uniform values (the line mask)', () => {
  it('multiplying by a tensor of ones returns the other operand; uniform operands give a uniform result', () => {
    const [ones] = run('ConstantOfShape', [i64([1, 4, 1])], { value: tensor('float32', [1], Float32Array.of(1)) });
    expect(ones.uniform).toBe(1);
    const [mask] = run('Unsqueeze', [run('Squeeze', [ones, i64([2])])[0], i64([2])]);
    expect(mask.uniform).toBe(1);
    const x = f32([1, 4, 3]);
    expect(run('Mul', [x, mask])[0]).toBe(x);
    expect(run('Mul', [mask, x])[0]).toBe(x);
    // The mask's penalty term: (m − 1) · 1e4 is all zeros, and adding it changes nothing.
    const [zero] = run('Mul', [run('Sub', [mask, tensor('float32', [], Float32Array.of(1))])[0], tensor('float32', [], Float32Array.of(1e4))]);
    expect(zero.uniform).toBe(0);
    expect(Array.from(zero.data)).toEqual([0, 0, 0, 0]);
    expect(run('Add', [x, zero])[0]).toBe(x);
    // A broadcast that changes the shape still computes: [1,4,1] × [1] keeps [1,4,1], [1,4,1] + [3] is [1,4,3].
    const [wide] = run('Add', [zero, f32([3], [1, 2, 3])]);
    expect(wide.dims).toEqual([1, 4, 3]);
    expect(Array.from(wide.data)).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
  });
});
