/**
 * Stamps instead of clearing a set: a scan marks entry i with its own number, and an entry is in
 * the current scan's set when it holds that number. Int32 marks compare as integers (a Float64
 * mark was converted and compared as a double on the hot paths that use them: the hand's distinct
 * cards, the draw's moved slots); the count wraps every 2^31 − 1 scans, which a thread running
 * playouts reaches within the hour, and the marks are cleared then.
 */

/** The largest stamp before the marks are cleared. */
export const STAMP_LIMIT = 0x7fffffff;

/**
 * The stamp of the scan after the one stamped `last`: last + 1, or 1 after clearing `marks` once
 * `last` has reached `limit` (a test passes a small one).
 */
export function nextStamp(marks: Int32Array, last: number, limit = STAMP_LIMIT): number {
  if (last >= limit) {
    marks.fill(0);
    return 1;
  }
  return last + 1;
}
