/**
 * Zeroes the subnormal float32 weights of an ONNX model held in memory, before onnxruntime reads it.
 *
 * Why: a network trained with weight decay keeps weights of inputs its training never set, and Adam
 * drives them into float32's subnormal range (nonzero, below about 1.2e-38): a third of run
 * `strong`'s gen-3 weights. x86 cores compute with subnormals many times slower, Intel's above all:
 * one call of that network took 490 µs on an Intel Xeon and 110 µs with them zero, its outputs the
 * same to 4e-38. The trainer now exports without them (python/wonderlab/onnx_export.py); this
 * serves the networks trained before, or elsewhere, as fast. The file and its hash are unchanged.
 *
 * The model is protobuf (onnx.proto): ModelProto.graph (field 7) → GraphProto.initializer (field 5)
 * → TensorProto with data_type (field 2; 1 is FLOAT) and its values in raw_data (field 9, little-
 * endian) or float_data (field 4, packed). Values are rewritten in place, so no length changes and
 * the rest of the message stays as it was.
 */
import { fields, type Span } from './protobuf.js';

const MODEL_GRAPH = 7;
const GRAPH_INITIALIZER = 5;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_RAW_DATA = 9;
const FLOAT = 1;

/** Zeroes the subnormal little-endian float32 values in [start, end); returns how many. */
function zeroSubnormals(view: DataView, [start, end]: Span): number {
  let zeroed = 0;
  for (let at = start; at + 4 <= end; at += 4) {
    const bits = view.getUint32(at, true);
    if ((bits & 0x7f800000) === 0 && (bits & 0x007fffff) !== 0) {
      view.setUint32(at, 0, true);
      zeroed++;
    }
  }
  return zeroed;
}

/**
 * Zeroes, in place, the subnormal values of the float32 initializers of the ONNX model in `bytes`;
 * returns how many. Throws an Error for bytes that are not a protobuf message (onnxruntime then
 * reports what it finds).
 */
export function zeroSubnormalWeights(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zeroed = 0;
  fields(bytes, [0, bytes.length], (field, graph) => {
    if (field !== MODEL_GRAPH || !graph) return;
    fields(bytes, graph, (field, tensor) => {
      if (field !== GRAPH_INITIALIZER || !tensor) return;
      let type = 0;
      const data: Span[] = [];
      fields(bytes, tensor, (field, span, value) => {
        if (field === TENSOR_DATA_TYPE && !span) type = value;
        else if ((field === TENSOR_RAW_DATA || field === TENSOR_FLOAT_DATA) && span) data.push(span);
      });
      if (type === FLOAT) for (const span of data) zeroed += zeroSubnormals(view, span);
    });
  });
  return zeroed;
}
