/**
 * What an operator implementation is: the attributes it accepts (anything else refuses the model
 * at load) and a compile step that reads them once and returns the kernel run for each call.
 */
import { type AttributeValue, type OnnxNode, OnnxUnsupportedError } from '../onnx.js';
import type { BufferPool } from '../pool.js';
import type { Tensor } from '../tensor.js';

/**
 * Inputs by position (an omitted optional input, empty name, is undefined). float32 outputs take
 * their buffers from `pool`; an output may share an input's buffer (a reshape).
 */
export type Kernel = (inputs: (Tensor | undefined)[], pool: BufferPool) => Tensor[];

export interface CompileContext {
  /** The ai.onnx opset the model imports. */
  opset: number;
  /** The value of an input known at load (an initializer or a Constant node's output). */
  constant(name: string): Tensor | undefined;
}

export interface OpSpec {
  /** Accepted attributes: a check returning null when the value is supported, else why not. */
  attributes: Readonly<Record<string, (v: AttributeValue) => string | null>>;
  /** Inputs [min, max] and outputs [min, max] (outputs beyond those the kernel returns are refused). */
  inputs: readonly [number, number];
  outputs: readonly [number, number];
  compile(node: OnnxNode, ctx: CompileContext): Kernel;
}

/** Attribute checks. */
export const any = (): string | null => null;
export const isInt = (v: AttributeValue): string | null => (typeof v === 'number' && Number.isInteger(v) ? null : 'an integer is expected');
export const isFloat = (v: AttributeValue): string | null => (typeof v === 'number' ? null : 'a number is expected');
export const isInts = (v: AttributeValue): string | null => (Array.isArray(v) ? null : 'a list of integers is expected');
export const oneOf =
  (...allowed: (number | string)[]) =>
  (v: AttributeValue): string | null =>
    allowed.includes(v as number | string) ? null : `only ${allowed.map((a) => JSON.stringify(a)).join(' or ')} is supported`;

export function attr<T extends AttributeValue>(node: OnnxNode, name: string, fallback: T): T {
  const v = node.attributes.get(name);
  return (v === undefined ? fallback : v) as T;
}

export function unsupported(node: OnnxNode, why: string): OnnxUnsupportedError {
  return new OnnxUnsupportedError(`${node.opType} node "${node.name}": ${why}`);
}

/** Input `i`, which the kernel requires. */
export function need(inputs: (Tensor | undefined)[], i: number, node: OnnxNode): Tensor {
  const t = inputs[i];
  if (!t) throw new Error(`${node.opType} node "${node.name}": input ${i} is missing`);
  return t;
}

export function requireType(t: Tensor, types: readonly Tensor['type'][], node: OnnxNode, what: string): void {
  if (!types.includes(t.type)) throw new Error(`${node.opType} node "${node.name}": ${what} is ${t.type}, expected ${types.join(' or ')}`);
}
