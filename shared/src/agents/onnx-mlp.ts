/**
 * Reads an ONNX model as a multilayer perceptron, when it is one: the observation (optionally
 * divided or multiplied by a constant, as `python -m wonderlab.train` exports it: its inputs
 * scaled to about 0–1), then fully connected layers (Gemm), each optionally followed by a ReLU,
 * and one or two outputs that are layers (the logits; the values). Anything else — another
 * operator, a Gemm with alpha, beta or a transposed input, a ReLU whose layer feeds another node
 * too — is not one: undefined, and the network is run by onnxruntime (network.ts).
 *
 * ONNX is protobuf (onnx.proto): ModelProto.graph (7); GraphProto: node (1), initializer (5),
 * input (11), output (12); NodeProto: input (1), output (2), op_type (4), attribute (5);
 * AttributeProto: name (1), f (2), i (3), t (5); TensorProto: dims (1), data_type (2),
 * float_data (4), name (8), raw_data (9); ValueInfoProto: name (1).
 */
import { fields, varint, type Span } from './protobuf.js';

/** A fully connected layer: out = bias + x · W (then ReLU), W as [inputs][outputs]. */
export interface MlpLayer {
  /** The tensor it reads: the (scaled) observation, or another layer's output. */
  readonly input: 'observation' | number;
  readonly inputs: number;
  readonly outputs: number;
  /** inputs × outputs, a row per input. */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
  readonly relu: boolean;
}

export interface MlpPlan {
  readonly inputSize: number;
  /** Applied to the observation in order, each rounded to float32 as onnxruntime computes it. */
  readonly scale: readonly { readonly op: 'div' | 'mul'; readonly by: number }[];
  /** In the order they are computed (each reads the observation or an earlier layer). */
  readonly layers: readonly MlpLayer[];
  /** The layers of the model's outputs: the logits, then the values when it has them. */
  readonly outputs: readonly number[];
}

interface Tensor {
  name: string;
  dims: number[];
  type: number;
  values?: Float32Array;
}

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes: Map<string, { f?: number; i?: number; t?: Tensor }>;
}

const FLOAT = 1;
const text = (bytes: Uint8Array, [a, b]: Span): string => Buffer.from(bytes.buffer, bytes.byteOffset + a, b - a).toString('utf8');

function floatsAt(bytes: Uint8Array, [a, b]: Span): Float32Array {
  // A copy: the model's bytes need not be 4-byte aligned.
  return new Float32Array(Uint8Array.from(bytes.subarray(a, b)).buffer);
}

function readTensor(bytes: Uint8Array, span: Span): Tensor {
  const t: Tensor = { name: '', dims: [], type: 0 };
  const floats: Float32Array[] = [];
  fields(bytes, span, (field, s, value, wire) => {
    if (field === 1) {
      if (wire === 0) t.dims.push(value);
      else if (s) for (let at = s[0]; at < s[1]; ) {
        const [d, next] = varint(bytes, at);
        t.dims.push(d);
        at = next;
      }
    } else if (field === 2 && wire === 0) t.type = value;
    else if ((field === 4 || field === 9) && s) floats.push(floatsAt(bytes, s));
    else if (field === 8 && s) t.name = text(bytes, s);
  });
  if (t.type === FLOAT && floats.length > 0) {
    const n = floats.reduce((k, f) => k + f.length, 0);
    t.values = new Float32Array(n);
    let at = 0;
    for (const f of floats) {
      t.values.set(f, at);
      at += f.length;
    }
  }
  return t;
}

function readNode(bytes: Uint8Array, span: Span): Node {
  const node: Node = { op: '', inputs: [], outputs: [], attributes: new Map() };
  fields(bytes, span, (field, s) => {
    if (!s) return;
    if (field === 1) node.inputs.push(text(bytes, s));
    else if (field === 2) node.outputs.push(text(bytes, s));
    else if (field === 4) node.op = text(bytes, s);
    else if (field === 5) {
      let name = '';
      const a: { f?: number; i?: number; t?: Tensor } = {};
      fields(bytes, s, (f, as, value, wire) => {
        if (f === 1 && as) name = text(bytes, as);
        else if (f === 2 && as && wire === 5) a.f = new DataView(bytes.buffer, bytes.byteOffset + as[0], 4).getFloat32(0, true);
        else if (f === 3 && wire === 0) a.i = value;
        else if (f === 5 && as) a.t = readTensor(bytes, as);
      });
      node.attributes.set(name, a);
    }
  });
  return node;
}

/** The model in `bytes` as an MlpPlan, or undefined when it is not one (or not a model at all). */
export function readMlp(bytes: Uint8Array): MlpPlan | undefined {
  try {
    return planOf(bytes);
  } catch {
    return undefined;
  }
}

function planOf(bytes: Uint8Array): MlpPlan | undefined {
  const nodes: Node[] = [];
  const initializers = new Map<string, Tensor>();
  const inputs: string[] = [];
  const outputs: string[] = [];
  fields(bytes, [0, bytes.length], (field, graph) => {
    if (field !== 7 || !graph) return;
    fields(bytes, graph, (field, s) => {
      if (!s) return;
      if (field === 1) nodes.push(readNode(bytes, s));
      else if (field === 5) {
        const t = readTensor(bytes, s);
        initializers.set(t.name, t);
      } else if (field === 11 || field === 12) {
        let name = '';
        fields(bytes, s, (f, ns) => {
          if (f === 1 && ns) name = text(bytes, ns);
        });
        (field === 11 ? inputs : outputs).push(name);
      }
    });
  });
  const observation = inputs.filter((name) => !initializers.has(name));
  if (observation.length !== 1 || outputs.length < 1 || outputs.length > 2) return undefined;

  // What each tensor is: the observation (scaled or not), a constant, or a layer's output.
  const constants = new Map<string, number>();
  for (const [name, t] of initializers) if (t.values?.length === 1) constants.set(name, t.values[0]);
  // The observation and its scaled copies, each with the scaling that made it from the observation.
  const scaledBy = new Map<string, { op: 'div' | 'mul'; by: number }[]>([[observation[0], []]]);
  // The one of them the layers read (every layer that reads the observation reads the same tensor).
  let fed: string | undefined;
  const layerOf = new Map<string, number>();
  const beforeRelu = new Set<string>();
  const readers = new Map<string, number>();
  for (const n of nodes) for (const i of n.inputs) readers.set(i, (readers.get(i) ?? 0) + 1);
  const layers: MlpLayer[] = [];
  let inputSize = 0;

  for (const n of nodes) {
    const [a, b, c] = n.inputs;
    if (n.op === 'Constant') {
      const v = n.attributes.get('value')?.t?.values;
      if (n.attributes.size !== 1 || v?.length !== 1) return undefined;
      constants.set(n.outputs[0], v[0]);
    } else if ((n.op === 'Div' || n.op === 'Mul') && scaledBy.has(a) && constants.has(b)) {
      // The observation (or a scaled copy) divided or multiplied by a constant: a scaled copy.
      scaledBy.set(n.outputs[0], [...scaledBy.get(a)!, { op: n.op === 'Div' ? 'div' : 'mul', by: constants.get(b)! }]);
    } else if (n.op === 'Gemm') {
      const attr = (key: string, unset: number): number => n.attributes.get(key)?.f ?? n.attributes.get(key)?.i ?? unset;
      if (attr('alpha', 1) !== 1 || attr('beta', 1) !== 1 || attr('transA', 0) !== 0) return undefined;
      const transB = attr('transB', 0);
      const w = initializers.get(b);
      const bias = c === undefined || c === '' ? undefined : initializers.get(c);
      if (!w?.values || w.dims.length !== 2 || (c && !bias?.values)) return undefined;
      const [rows, cols] = w.dims;
      const [nIn, nOut] = transB ? [cols, rows] : [rows, cols];
      if (scaledBy.has(a) && (fed ??= a) !== a) return undefined;
      const input = scaledBy.has(a) ? 'observation' : layerOf.get(a);
      if (input === undefined) return undefined;
      if (input === 'observation') {
        if (inputSize !== 0 && inputSize !== nIn) return undefined;
        inputSize = nIn;
      } else if (layers[input].outputs !== nIn) return undefined;
      if (bias && bias.values!.length !== nOut) return undefined;
      const weights = new Float32Array(nIn * nOut);
      const wv = w.values;
      for (let i = 0; i < nIn; i++) for (let j = 0; j < nOut; j++) weights[i * nOut + j] = transB ? wv[j * nIn + i] : wv[i * nOut + j];
      layerOf.set(n.outputs[0], layers.length);
      layers.push({ input, inputs: nIn, outputs: nOut, weights, bias: bias?.values ?? new Float32Array(nOut), relu: false });
    } else if (n.op === 'Relu') {
      const k = layerOf.get(a);
      if (k === undefined || layers[k].relu || readers.get(a) !== 1) return undefined;
      layers[k] = { ...layers[k], relu: true };
      beforeRelu.add(a);
      layerOf.set(n.outputs[0], k);
    } else return undefined;
  }
  const outputLayers = outputs.map((name) => layerOf.get(name));
  // An output read before its layer's ReLU would be given after it.
  if (inputSize === 0 || fed === undefined || outputLayers.some((k) => k === undefined) || outputs.some((name) => beforeRelu.has(name))) return undefined;
  return { inputSize, scale: scaledBy.get(fed)!, layers, outputs: outputLayers as number[] };
}
