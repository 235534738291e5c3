/**
 * Tensors of the JavaScript executor. int64 values are held as exact integers in a Float64Array
 * (exact up to 2^53: shapes, axes and indices, never large ids); the other types in their own
 * typed arrays.
 */

export type DataType = 'float32' | 'int64' | 'int32' | 'int8' | 'uint8' | 'bool';
export type TensorData = Float32Array | Float64Array | Int32Array | Int8Array | Uint8Array;

export interface Tensor {
  readonly type: DataType;
  readonly dims: readonly number[];
  readonly data: TensorData;
  /**
   * Every value equals this one: set by ConstantOfShape, kept by reshapes and by element-wise
   * operators on such values. The exported models' line mask is one (a tensor of ones built from
   * the input's shape): element-wise operators skip multiplying by it.
   */
  readonly uniform?: number;
}

/** The value every element of `t` has, when that is known without reading them all. */
export function uniformOf(t: Tensor): number | undefined {
  return t.uniform ?? (t.data.length === 1 ? t.data[0] : undefined);
}

/** ONNX TensorProto.DataType codes of the types above. */
export const ONNX_TYPES: Readonly<Record<number, DataType>> = { 1: 'float32', 2: 'uint8', 3: 'int8', 6: 'int32', 7: 'int64', 9: 'bool' };

export function sizeOf(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

export function alloc(type: DataType, size: number): TensorData {
  switch (type) {
    case 'float32':
      return new Float32Array(size);
    case 'int64':
      return new Float64Array(size);
    case 'int32':
      return new Int32Array(size);
    case 'int8':
      return new Int8Array(size);
    default:
      return new Uint8Array(size);
  }
}

export function tensor(type: DataType, dims: readonly number[], data: TensorData): Tensor {
  if (data.length !== sizeOf(dims)) throw new Error(`tensor of shape [${dims.join(', ')}] needs ${sizeOf(dims)} values, got ${data.length}`);
  return { type, dims: [...dims], data };
}

/**
 * The values of a small integer tensor (axes, shapes, indices), as small integers where they fit
 * in int32 (a value read from a Float64Array is a boxed double: dims built from it would make the
 * kernels' index arithmetic deoptimize).
 */
export function ints(t: Tensor): number[] {
  return Array.from(t.data as ArrayLike<number>, (v) => (v === (v | 0) ? v | 0 : v));
}

/** Row-major strides. */
export function stridesOf(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length);
  let acc = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= dims[i];
  }
  return s;
}

/** A possibly negative axis, checked against the rank. */
export function normAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (!(a >= 0 && a < rank)) throw new Error(`axis ${axis} out of range for rank ${rank}`);
  return a;
}
