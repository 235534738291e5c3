/**
 * A pure-TypeScript ONNX executor for small models (in the spirit of onnxruntime-web's former
 * JavaScript 'cpu' backend): no WebAssembly, no start-up cost beyond reading the model. It runs
 * the operators of ops/ and refuses, at load, any model that needs something else (an operator,
 * an attribute value, an opset, an element type): OnnxUnsupportedError, so the caller can use
 * onnxruntime instead. Nodes run in graph order; intermediate values are dropped after their last use.
 */
import { own } from '../../util/own.js';
import { type OnnxModel, type OnnxNode, OnnxUnsupportedError, readModel, type ValueInfo } from './onnx.js';
import { FUSED_OPS, OPS } from './ops/index.js';
import { FUSED_DOMAIN, fuse } from './fuse.js';
import type { Kernel } from './ops/op.js';
import { constantValue } from './ops/shape.js';
import { BufferPool } from './pool.js';
import { ProtobufError } from './protobuf.js';
import { sizeOf, type Tensor, type TensorData } from './tensor.js';

export { OnnxUnsupportedError } from './onnx.js';
export type { Tensor } from './tensor.js';

/** ai.onnx opsets whose semantics the operators implement (13: axes as inputs; 18: reduce axes as inputs). */
export const MIN_OPSET = 13;
export const MAX_OPSET = 21;

/** A node failed while the model ran (a shape or type the model's graph did not promise). */
export class OnnxRunError extends Error {
  override readonly name = 'OnnxRunError';
}

interface Step {
  node: OnnxNode;
  kernel: Kernel;
}

export class JsModel {
  readonly inputNames: string[];
  readonly outputNames: string[];
  private readonly plans = new Map<string, { steps: Step[]; release: string[][] }>();
  /** Activation buffers, reused from one node to the next and from one run to the next. */
  private readonly pool = new BufferPool();
  /** Buffers the pool must never take back: the model's constants. */
  private readonly pinned: Set<TensorData>;

  private constructor(
    readonly model: OnnxModel,
    readonly inputs: ValueInfo[],
    private readonly constants: Map<string, Tensor>,
    private readonly steps: Step[],
    private readonly producer: Map<string, number>,
  ) {
    this.inputNames = inputs.map((i) => i.name);
    this.outputNames = model.graph.outputs.map((o) => o.name);
    this.pinned = new Set([...constants.values()].map((t) => t.data));
  }

  /**
   * Read and check a model; OnnxUnsupportedError when this executor cannot run it. `fuse: false`
   * runs the graph node by node, without fuse.ts's rewrites.
   */
  static load(bytes: Uint8Array, options: { fuse?: boolean } = {}): JsModel {
    let model: OnnxModel;
    try {
      model = readModel(bytes);
    } catch (e) {
      if (e instanceof ProtobufError) throw new OnnxUnsupportedError(`not a readable ONNX model: ${e.message}`);
      throw e;
    }
    const opset = model.opsets.get('') ?? 0;
    if (opset < MIN_OPSET || opset > MAX_OPSET) throw new OnnxUnsupportedError(`opset ${opset} (this executor implements opsets ${MIN_OPSET}–${MAX_OPSET})`);
    const g = model.graph;
    const inputs = g.inputs.filter((i) => !g.initializers.has(i.name));
    for (const i of inputs) if (i.elemType !== 1) throw new OnnxUnsupportedError(`input "${i.name}" is not float32`);
    // Nodes in an order where every input is produced first (ONNX asks for it; this checks it).
    const known = new Set<string>(['', ...g.initializers.keys(), ...inputs.map((i) => i.name)]);
    const order: OnnxNode[] = [];
    let pending = g.nodes;
    while (pending.length) {
      const next = pending.filter((n) => !n.inputs.every((i) => known.has(i)));
      const ready = pending.filter((n) => n.inputs.every((i) => known.has(i)));
      if (!ready.length) throw new OnnxUnsupportedError(`node "${next[0].name}" reads a value nothing produces (${next[0].inputs.find((i) => !known.has(i))})`);
      for (const n of ready) for (const o of n.outputs) known.add(o);
      order.push(...ready);
      pending = next;
    }
    for (const o of g.outputs) if (!known.has(o.name)) throw new OnnxUnsupportedError(`output "${o.name}" is produced by no node`);

    const constants = new Map(g.initializers);
    const nodes: OnnxNode[] = [];
    for (const node of order) {
      if (node.domain !== '' && node.domain !== 'ai.onnx') throw new OnnxUnsupportedError(`${node.opType} node "${node.name}" is in domain ${node.domain}`);
      const spec = own(OPS, node.opType);
      if (!spec) throw new OnnxUnsupportedError(`operator ${node.opType} (node "${node.name}") is not implemented`);
      for (const [name, value] of node.attributes) {
        const check = own(spec.attributes, name);
        if (!check) throw new OnnxUnsupportedError(`${node.opType} node "${node.name}": attribute ${name} is not supported`);
        const why = check(value);
        if (why) throw new OnnxUnsupportedError(`${node.opType} node "${node.name}": attribute ${name}: ${why}`);
      }
      const [minIn, maxIn] = spec.inputs,
        [, maxOut] = spec.outputs;
      if (node.inputs.length < minIn || node.inputs.length > maxIn)
        throw new OnnxUnsupportedError(`${node.opType} node "${node.name}" has ${node.inputs.length} inputs`);
      if (node.outputs.length > maxOut) throw new OnnxUnsupportedError(`${node.opType} node "${node.name}" has ${node.outputs.length} outputs`);
      // Constants are folded now: the operators that read one (weights) prepare it once.
      if (node.opType === 'Constant') constants.set(node.outputs[0], constantValue(node));
      else nodes.push({ ...node, domain: '' });
    }
    const steps: Step[] = [];
    const producer = new Map<string, number>();
    const ctx = { opset, constant: (name: string) => constants.get(name) };
    const planned =
      options.fuse === false
        ? nodes
        : fuse(
            nodes,
            constants,
            g.outputs.map((o) => o.name),
          );
    for (const node of planned) {
      const spec = node.domain === FUSED_DOMAIN ? own(FUSED_OPS, node.opType)! : own(OPS, node.opType)!;
      const kernel = spec.compile(node, ctx);
      for (const o of node.outputs) if (o) producer.set(o, steps.length);
      steps.push({ node, kernel });
    }
    return new JsModel(model, inputs, constants, steps, producer);
  }

  /** The steps `fetches` need, and after each step the values no later step (or fetch) reads. */
  private plan(fetches: readonly string[]) {
    const key = fetches.join('\0');
    let plan = this.plans.get(key);
    if (plan) return plan;
    const needed = new Set<number>();
    const stack = fetches.map((f) => this.producer.get(f)).filter((i): i is number => i !== undefined);
    while (stack.length) {
      const i = stack.pop()!;
      if (needed.has(i)) continue;
      needed.add(i);
      for (const inp of this.steps[i].node.inputs) {
        const p = this.producer.get(inp);
        if (p !== undefined) stack.push(p);
      }
    }
    const steps = this.steps.filter((_, i) => needed.has(i));
    const lastUse = new Map<string, number>();
    steps.forEach((s, i) => s.node.inputs.forEach((inp) => lastUse.set(inp, i)));
    const release: string[][] = steps.map(() => []);
    for (const [name, i] of lastUse) if (this.producer.has(name) && !fetches.includes(name)) release[i].push(name);
    plan = { steps, release };
    this.plans.set(key, plan);
    return plan;
  }

  /** The operators run, in order (fused ones included): for tests and diagnostics. */
  get operators(): string[] {
    return this.steps.map((s) => s.node.opType);
  }

  /**
   * Run the graph once on a few lines of zeros (symbolic dimensions = `size`), so that every
   * kernel has seen each of its branches before the first real call: the optimizing compiler then
   * compiles the hot loops once instead of deoptimizing on a branch it had not seen. Errors are
   * ignored here (a real call reports them).
   */
  warmUp(size = 5): void {
    try {
      const feeds: Record<string, Tensor> = {};
      for (const i of this.inputs) {
        const dims = (i.shape ?? []).map((d) => (typeof d === 'number' ? d : size));
        feeds[i.name] = { type: 'float32', dims, data: new Float32Array(dims.reduce((a, b) => a * b, 1)) };
      }
      this.run(feeds);
    } catch {
      /* the real call says what is wrong */
    }
  }

  /** Run the graph on `feeds` (by input name) and return the `fetches` (default: every output). */
  run(feeds: Readonly<Record<string, Tensor>>, fetches: readonly string[] = this.outputNames): Record<string, Tensor> {
    const values = new Map<string, Tensor>();
    for (const info of this.inputs) {
      const t = own(feeds, info.name);
      if (!t) throw new OnnxRunError(`input "${info.name}" is missing`);
      if (t.type !== 'float32') throw new OnnxRunError(`input "${info.name}" is ${t.type}, the model wants float32`);
      if (t.data.length !== sizeOf(t.dims)) throw new OnnxRunError(`input "${info.name}" has ${t.data.length} values for shape [${t.dims.join(', ')}]`);
      if (info.shape && (info.shape.length !== t.dims.length || info.shape.some((d, i) => typeof d === 'number' && d !== t.dims[i]))) {
        throw new OnnxRunError(`input "${info.name}" has shape [${t.dims.join(', ')}], the model wants [${info.shape.join(', ')}]`);
      }
      values.set(info.name, t);
    }
    for (const f of fetches) if (!this.producer.has(f) && !this.constants.has(f) && !values.has(f)) throw new OnnxRunError(`the model has no output "${f}"`);
    const { steps, release } = this.plan(fetches);
    const read = (name: string): Tensor | undefined => (name === '' ? undefined : (values.get(name) ?? this.constants.get(name)));
    // Live values per buffer (a reshape shares its input's): at 0 the buffer goes back to the pool.
    const users = new Map<TensorData, number>();
    const pinned = new Set(this.pinned);
    for (const t of values.values()) pinned.add(t.data); // the caller's inputs
    for (let i = 0; i < steps.length; i++) {
      const { node, kernel } = steps[i];
      let outs: Tensor[];
      try {
        outs = kernel(node.inputs.map(read), this.pool);
      } catch (e) {
        throw new OnnxRunError(`${node.opType} node "${node.name}": ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      node.outputs.forEach((o, k) => {
        if (!o) return;
        const t = outs[k];
        values.set(o, t);
        if (!pinned.has(t.data)) users.set(t.data, (users.get(t.data) ?? 0) + 1);
      });
      for (const name of release[i]) {
        const t = values.get(name);
        values.delete(name);
        if (!t || pinned.has(t.data)) continue;
        const left = (users.get(t.data) ?? 1) - 1;
        users.set(t.data, left);
        if (left === 0 && t.data instanceof Float32Array) this.pool.give(t.data);
      }
    }
    const out: Record<string, Tensor> = {};
    for (const f of fetches) out[f] = read(f)!;
    return out;
  }
}
