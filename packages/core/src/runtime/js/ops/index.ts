/** Every operator the JavaScript executor implements, by ONNX op type (domain ai.onnx). */
import { CONV_OPS, FUSED_CONV_OPS } from './conv.js';
import { ELEMENTWISE_OPS, FUSED_ELEMENTWISE_OPS } from './elementwise.js';
import { MATMUL_OPS } from './matmul.js';
import { NORMALIZATION_OPS } from './normalization.js';
import type { OpSpec } from './op.js';
import { REDUCE_OPS } from './reduce.js';
import { SHAPE_OPS } from './shape.js';

export const OPS: Readonly<Record<string, OpSpec>> = {
  ...ELEMENTWISE_OPS,
  ...MATMUL_OPS,
  ...CONV_OPS,
  ...NORMALIZATION_OPS,
  ...REDUCE_OPS,
  ...SHAPE_OPS,
};

/** Operators of fuse.ts's rewrites (domain "ctxprune.fused"): a model file cannot name them. */
export const FUSED_OPS: Readonly<Record<string, OpSpec>> = { ...FUSED_CONV_OPS, ...FUSED_ELEMENTWISE_OPS };
