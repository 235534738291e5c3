/**
 * Graph rewrites for speed, exact up to float rounding (as onnxruntime's own fusions are):
 *
 * - GELU: the five nodes PyTorch exports for `F.gelu` (Div by √2 → Erf → Add 1 → Mul by x → Mul
 *   by 0.5), with scalar constants, become one `Gelu` pass instead of five.
 * - Conv1d layers: Transpose(0, 2, 1) → Conv → Transpose(0, 2, 1) becomes one sequence-major
 *   `ConvSequenceMajor` ([N, L, C] in and out), which is the convolution's own layout: four
 *   transposes per layer fewer.
 *
 * Only chains whose intermediate values nothing else reads (and that are no graph output) are
 * rewritten. The fused nodes are in FUSED_DOMAIN, a domain no model file can use.
 */
import type { OnnxNode } from './onnx.js';
import type { Tensor } from './tensor.js';

export const FUSED_DOMAIN = 'ctxprune.fused';

export function fuse(nodes: readonly OnnxNode[], constants: ReadonlyMap<string, Tensor>, outputs: readonly string[]): OnnxNode[] {
  const readers = new Map<string, OnnxNode[]>();
  for (const n of nodes)
    for (const i of n.inputs) {
      if (!readers.has(i)) readers.set(i, []);
      readers.get(i)!.push(n);
    }
  const isOutput = new Set(outputs);
  /** The one node that reads `value`, when exactly one does and it is no graph output. */
  const soleReader = (value: string, opType: string): OnnxNode | null => {
    const r = readers.get(value);
    return !isOutput.has(value) && r?.length === 1 && r[0].opType === opType && r[0].domain === '' ? r[0] : null;
  };
  const scalar = (name: string): number | null => {
    const t = constants.get(name);
    return t && t.type === 'float32' && t.data.length === 1 ? t.data[0] : null;
  };
  /** The operand of a binary node other than `value`, and whether one is `value`. */
  const other = (n: OnnxNode, value: string): string | null => (n.inputs[0] === value ? n.inputs[1] : n.inputs[1] === value ? n.inputs[0] : null);
  const isSwap = (n: OnnxNode | null) => {
    const perm = n?.attributes.get('perm');
    return Array.isArray(perm) && perm.length === 3 && perm[0] === 0 && perm[1] === 2 && perm[2] === 1;
  };

  const removed = new Set<OnnxNode>();
  const replaced = new Map<OnnxNode, OnnxNode>();
  for (const div of nodes) {
    if (div.opType !== 'Div' || div.domain !== '' || removed.has(div)) continue;
    const [x, d] = div.inputs;
    const divisor = scalar(d);
    const erf = soleReader(div.outputs[0], 'Erf');
    const add = erf && soleReader(erf.outputs[0], 'Add');
    const offset = add && scalar(other(add, erf.outputs[0]) ?? '');
    const mul = add && soleReader(add.outputs[0], 'Mul');
    const mul2 = mul && other(mul, add.outputs[0]) === x ? soleReader(mul.outputs[0], 'Mul') : null;
    const scale = mul2 && scalar(other(mul2, mul!.outputs[0]) ?? '');
    if (divisor === null || offset == null || scale == null || !mul2) continue;
    for (const n of [div, erf!, add!, mul!]) removed.add(n);
    replaced.set(mul2, {
      name: `${div.name}/gelu`,
      opType: 'Gelu',
      domain: FUSED_DOMAIN,
      inputs: [x],
      outputs: [mul2.outputs[0]],
      attributes: new Map([
        ['divisor', divisor],
        ['offset', offset],
        ['scale', scale],
      ]),
    });
  }
  for (const conv of nodes) {
    if (conv.opType !== 'Conv' || conv.domain !== '') continue;
    const before = nodes.find((n) => n.outputs[0] === conv.inputs[0] && n.opType === 'Transpose' && n.domain === '') ?? null;
    if (!isSwap(before) || soleReader(before!.outputs[0], 'Conv') !== conv) continue;
    const after = soleReader(conv.outputs[0], 'Transpose');
    if (!isSwap(after)) continue;
    removed.add(before!);
    removed.add(conv);
    replaced.set(after!, {
      name: `${conv.name}/sequence-major`,
      opType: 'ConvSequenceMajor',
      domain: FUSED_DOMAIN,
      inputs: [before!.inputs[0], ...conv.inputs.slice(1)],
      outputs: [after!.outputs[0]],
      attributes: conv.attributes,
    });
  }
  return nodes.filter((n) => !removed.has(n)).map((n) => replaced.get(n) ?? n);
}
