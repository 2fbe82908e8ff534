/**
 * The few pieces of protobuf's wire format the lab reads ONNX models with (onnx.proto): varints
 * and the fields of a message, each as its number with a varint value or the span of its bytes.
 * Enough to walk a model's graph without a protobuf library.
 */

/** A field's bytes: [start, end) in the buffer (length-delimited, or a fixed32/fixed64 value). */
export type Span = [number, number];

export class ProtobufError extends Error {}

export function varint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 10; i++) {
    const b = bytes[i];
    value += (b & 0x7f) * scale;
    scale *= 128;
    if (b < 0x80) return [value, i + 1];
  }
  throw new ProtobufError(`a varint at byte ${at} runs past the message`);
}

/**
 * Calls `each(field, wire, span, value)` for the fields of the message in [start, end): a varint
 * field (wire 0) with its value and no span; a length-delimited (2), fixed64 (1) or fixed32 (5)
 * field with the span of its bytes.
 */
export function fields(bytes: Uint8Array, [start, end]: Span, each: (field: number, span: Span | null, value: number, wire: number) => void): void {
  let at = start;
  while (at < end) {
    const [key, next] = varint(bytes, at);
    const field = Math.floor(key / 8);
    const wire = key & 7;
    at = next;
    if (wire === 0) {
      const [value, after] = varint(bytes, at);
      each(field, null, value, wire);
      at = after;
      continue;
    }
    let length: number;
    if (wire === 2) [length, at] = varint(bytes, at);
    else if (wire === 1) length = 8;
    else if (wire === 5) length = 4;
    else throw new ProtobufError(`wire type ${wire} at byte ${at}`);
    if (at + length > end) throw new ProtobufError(`field ${field} at byte ${at} runs past its message`);
    each(field, [at, at + length], 0, wire);
    at += length;
  }
  if (at !== end) throw new ProtobufError(`a field runs past its message at byte ${end}`);
}
