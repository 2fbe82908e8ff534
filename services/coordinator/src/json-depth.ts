/**
 * The nesting depth of JSON text, found by scanning its bytes before it is parsed: a body of a
 * million `[` parses fine but every recursive walk over it (validation, logging) would not.
 */

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * The deepest nesting of objects and arrays in `text` (0 for a scalar), or the first depth past
 * `stopAbove` (the scan stops there). Brackets inside strings do not count. UTF-8 continuation
 * bytes are never below 0x80, so scanning bytes is exact.
 */
export function jsonDepth(text: Uint8Array, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const b = text[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}

/** A body nested deeper than the limit (a 400 on (body)). */
export class JsonTooDeepError extends Error {
  readonly status = 400;
  constructor(
    readonly depth: number,
    readonly limit: number,
  ) {
    super(`the body nests arrays and objects ${depth} levels deep (or more), over this lab's limit of ${limit} (MAX_JSON_DEPTH)`);
  }
}
