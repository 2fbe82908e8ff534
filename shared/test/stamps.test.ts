import { describe, expect, test } from 'vitest';
import { Rng } from '../src/engine/rng.js';
import { STAMP_LIMIT, nextStamp } from '../src/engine/stamps.js';

describe('stamps', () => {
  test('the next stamp is one more, the marks untouched, below the limit', () => {
    const marks = Int32Array.from([5, 6, 7]);
    expect(nextStamp(marks, 7)).toBe(8);
    expect(nextStamp(marks, STAMP_LIMIT - 1)).toBe(STAMP_LIMIT);
    expect([...marks]).toEqual([5, 6, 7]);
  });

  test('at the limit the marks are cleared and the count starts again at 1', () => {
    const marks = Int32Array.from([STAMP_LIMIT, 1, 2]);
    expect(nextStamp(marks, STAMP_LIMIT)).toBe(1);
    expect([...marks]).toEqual([0, 0, 0]);
  });

  test('with a small limit, marks say the same as a fresh set in every scan, across many wraps', () => {
    // Each scan marks a few random entries and asks, before marking each, whether it is marked
    // already in this scan: the answer must be the fresh set's. Without the clearing, a mark left
    // from before a wrap would equal a later stamp and count an entry twice-seen.
    const limit = 3;
    const marks = new Int32Array(10);
    const rng = new Rng(17);
    let stamp = 0;
    let wraps = 0;
    for (let scan = 0; scan < 2000; scan++) {
      const before = stamp;
      stamp = nextStamp(marks, stamp, limit);
      if (stamp < before) wraps++;
      const seen = new Set<number>();
      for (let k = 0, len = 1 + rng.int(7); k < len; k++) {
        const i = rng.int(marks.length);
        expect(marks[i] === stamp).toBe(seen.has(i));
        marks[i] = stamp;
        seen.add(i);
      }
    }
    expect(wraps).toBeGreaterThan(600);
  });
});
