/**
 * A minimal ONNX model reader: ModelProto → graph (nodes, initializers, inputs, outputs), node
 * attributes, tensors (raw_data or the typed *_data fields, int64 dims), opsets and metadata.
 * Anything this executor cannot represent (external data, sparse initializers, subgraphs, other
 * element types) is an OnnxUnsupportedError, so the caller can fall back to onnxruntime.
 */
import { Reader } from './protobuf.js';
import { alloc, ONNX_TYPES, sizeOf, type Tensor, tensor } from './tensor.js';

/** The model uses something this executor does not implement; onnxruntime may still run it. */
export class OnnxUnsupportedError extends Error {
  override readonly name = 'OnnxUnsupportedError';
}

export type AttributeValue = number | number[] | string | Tensor;

export interface OnnxNode {
  name: string;
  opType: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  attributes: Map<string, AttributeValue>;
}

export interface ValueInfo {
  name: string;
  /** ONNX element type code (1 = float32), 0 when not given. */
  elemType: number;
  /** Dimensions: a number, or the symbolic name; null when the shape is not given. */
  shape: (number | string)[] | null;
}

export interface OnnxGraph {
  nodes: OnnxNode[];
  initializers: Map<string, Tensor>;
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

export interface OnnxModel {
  irVersion: number;
  /** Opset version per domain ('' = ai.onnx). */
  opsets: Map<string, number>;
  producer: string;
  graph: OnnxGraph;
  metadata: Map<string, string>;
}

const ATTR_FLOAT = 1,
  ATTR_INT = 2,
  ATTR_STRING = 3,
  ATTR_TENSOR = 4,
  ATTR_FLOATS = 6,
  ATTR_INTS = 7;

/** A copy of `bytes` in its own (aligned) buffer, as the typed array `type` needs. */
function typedFromBytes(type: Tensor['type'], bytes: Uint8Array, size: number): Tensor['data'] {
  const copy = bytes.slice().buffer;
  switch (type) {
    case 'float32':
      return new Float32Array(copy, 0, size);
    case 'int32':
      return new Int32Array(copy, 0, size);
    case 'int8':
      return new Int8Array(copy, 0, size);
    case 'int64':
      return Float64Array.from(new BigInt64Array(copy, 0, size), (v) => Number(v));
    default:
      return new Uint8Array(copy, 0, size);
  }
}

export function readTensor(r: Reader): Tensor {
  return readNamedTensor(r)[1];
}

/** A TensorProto and its name. */
export function readNamedTensor(r: Reader): [string, Tensor] {
  const dims: number[] = [];
  let dataType = 0;
  let name = '';
  let raw: Uint8Array | null = null;
  const floats: number[] = [];
  const int32s: number[] = [];
  const int64s: number[] = [];
  let external = false;
  r.fields((field, wire) => {
    switch (field) {
      case 1:
        r.varints(wire, dims);
        break;
      case 2:
        dataType = r.varint();
        break;
      case 3:
        throw new OnnxUnsupportedError('segmented tensors are not supported');
      case 4:
        r.floats(wire, floats);
        break;
      case 5:
        r.varints(wire, int32s);
        break;
      case 7:
        r.varints(wire, int64s);
        break;
      case 8:
        name = r.string();
        break;
      case 9:
        raw = r.bytes();
        break;
      case 13:
        external = true;
        r.skip(wire);
        break;
      case 14:
        if (r.varint() === 1) external = true;
        break;
    }
  });
  const label = name ? `tensor "${name}"` : 'a tensor';
  if (external) throw new OnnxUnsupportedError(`${label} keeps its data outside the model file`);
  const type = ONNX_TYPES[dataType];
  if (!type) throw new OnnxUnsupportedError(`${label} has element type ${dataType}, not one of float32, int64, int32, int8, uint8, bool`);
  const size = sizeOf(dims);
  let data: Tensor['data'];
  if (raw !== null) {
    const bytes: Uint8Array = raw;
    const width = type === 'float32' || type === 'int32' ? 4 : type === 'int64' ? 8 : 1;
    if (bytes.length !== size * width) throw new OnnxUnsupportedError(`${label}: raw_data has ${bytes.length} bytes for ${size} values`);
    data = typedFromBytes(type, bytes, size);
  } else {
    const values = type === 'float32' ? floats : type === 'int64' ? int64s : int32s;
    if (values.length !== size) throw new OnnxUnsupportedError(`${label}: ${values.length} values for shape [${dims.join(', ')}]`);
    data = alloc(type, size);
    for (let i = 0; i < size; i++) data[i] = values[i];
  }
  return [name, tensor(type, dims, data)];
}

function readAttribute(r: Reader): [string, AttributeValue] {
  let name = '';
  let type = 0;
  let f = 0,
    i = 0,
    s = '',
    t: Tensor | null = null;
  const floats: number[] = [];
  const ints: number[] = [];
  r.fields((field, wire) => {
    switch (field) {
      case 1:
        name = r.string();
        break;
      case 20:
        type = r.varint();
        break;
      case 2:
        f = r.float32();
        break;
      case 3:
        i = r.varint();
        break;
      case 4:
        s = r.string();
        break;
      case 5:
        t = readTensor(r.message());
        break;
      case 7:
        r.floats(wire, floats);
        break;
      case 8:
        r.varints(wire, ints);
        break;
      case 21:
        throw new OnnxUnsupportedError('an attribute refers to a function attribute (ref_attr_name)');
    }
  });
  switch (type) {
    case ATTR_FLOAT:
      return [name, f];
    case ATTR_INT:
      return [name, i];
    case ATTR_STRING:
      return [name, s];
    case ATTR_TENSOR:
      if (!t) throw new OnnxUnsupportedError(`attribute "${name}" has no tensor`);
      return [name, t];
    case ATTR_FLOATS:
      return [name, floats];
    case ATTR_INTS:
      return [name, ints];
    default:
      throw new OnnxUnsupportedError(`attribute "${name}" has type ${type} (only float, int, string, tensor, floats, ints are supported)`);
  }
}

function readNode(r: Reader): OnnxNode {
  const node: OnnxNode = { name: '', opType: '', domain: '', inputs: [], outputs: [], attributes: new Map() };
  r.fields((field) => {
    switch (field) {
      case 1:
        node.inputs.push(r.string());
        break;
      case 2:
        node.outputs.push(r.string());
        break;
      case 3:
        node.name = r.string();
        break;
      case 4:
        node.opType = r.string();
        break;
      case 5: {
        const [k, v] = readAttribute(r.message());
        node.attributes.set(k, v);
        break;
      }
      case 7:
        node.domain = r.string();
        break;
    }
  });
  return node;
}

function readDim(r: Reader): number | string {
  let dim: number | string = '?';
  r.fields((field) => {
    if (field === 1) dim = r.varint();
    else if (field === 2) dim = r.string();
  });
  return dim;
}

/** TypeProto → tensor_type (1) → elem_type (1), shape (2) → dim (1). */
function readTensorType(r: Reader, info: ValueInfo): void {
  r.fields((field) => {
    if (field === 1) info.elemType = r.varint();
    else if (field === 2) {
      const shape: (number | string)[] = [];
      const s = r.message();
      s.fields((f) => {
        if (f === 1) shape.push(readDim(s.message()));
      });
      info.shape = shape;
    }
  });
}

function readValueInfo(r: Reader): ValueInfo {
  const info: ValueInfo = { name: '', elemType: 0, shape: null };
  r.fields((field) => {
    if (field === 1) info.name = r.string();
    else if (field === 2) {
      const type = r.message();
      type.fields((f) => {
        if (f === 1) readTensorType(type.message(), info);
      });
    }
  });
  return info;
}

function readGraph(r: Reader): OnnxGraph {
  const graph: OnnxGraph = { nodes: [], initializers: new Map(), inputs: [], outputs: [] };
  r.fields((field, wire) => {
    switch (field) {
      case 1:
        graph.nodes.push(readNode(r.message()));
        break;
      case 5: {
        const [name, t] = readNamedTensor(r.message());
        graph.initializers.set(name, t);
        break;
      }
      case 11:
        graph.inputs.push(readValueInfo(r.message()));
        break;
      case 12:
        graph.outputs.push(readValueInfo(r.message()));
        break;
      case 15:
        throw new OnnxUnsupportedError('sparse initializers are not supported');
      default:
        void wire;
    }
  });
  return graph;
}

export function readModel(bytes: Uint8Array): OnnxModel {
  const model: OnnxModel = {
    irVersion: 0,
    opsets: new Map(),
    producer: '',
    graph: { nodes: [], initializers: new Map(), inputs: [], outputs: [] },
    metadata: new Map(),
  };
  let sawGraph = false;
  const r = new Reader(bytes);
  r.fields((field, wire) => {
    switch (field) {
      case 1:
        model.irVersion = r.varint();
        break;
      case 2:
        model.producer = r.string();
        break;
      case 7:
        model.graph = readGraph(r.message());
        sawGraph = true;
        break;
      case 8: {
        let domain = '',
          version = 0;
        const o = r.message();
        o.fields((f) => {
          if (f === 1) domain = o.string();
          else if (f === 2) version = o.varint();
        });
        model.opsets.set(domain === 'ai.onnx' ? '' : domain, version);
        break;
      }
      case 14: {
        let k = '',
          v = '';
        const m = r.message();
        m.fields((f) => {
          if (f === 1) k = m.string();
          else if (f === 2) v = m.string();
        });
        model.metadata.set(k, v);
        break;
      }
      default:
        void wire;
    }
  });
  if (!sawGraph) throw new OnnxUnsupportedError('not an ONNX model: no graph');
  return model;
}
