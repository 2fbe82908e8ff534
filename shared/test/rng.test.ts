/**
 * Rng.int draws Lemire's multiply-shift in two ways: in 32-bit integers for small n (every draw
 * and shuffle of a game) and in doubles above. Both must give exactly the numbers of the exact
 * arithmetic — the high 32 bits of x·n, with x rejected where the low 32 bits fall below
 * 2^32 mod n — or every seeded game changes. Checked against BigInt arithmetic over the same
 * stream of 32-bit outputs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../src/engine/index.js';

/** Rng.int(n) in exact integer arithmetic, drawing from `r`'s outputs. */
function exactInt(r: Rng, n: number): number {
  if (n <= 1) return 0;
  for (;;) {
    const m = BigInt(r.nextU32()) * BigInt(n);
    const low = Number(m & 0xffffffffn);
    if (low >= n || low >= (2 ** 32 - n) % n) return Number(m >> 32n);
  }
}

describe('Rng.int', () => {
  it('gives the exact multiply-shift draws, for small and large n', () => {
    const edges = [1, 2, 3, 7, 21, 2 ** 15 - 1, 2 ** 15, 2 ** 15 + 1, 2 ** 16, 2 ** 21];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 1, max: 2 ** 21 })), (seed, n) => {
        const r = new Rng(seed);
        const reference = r.clone();
        for (let k = 0; k < 200; k++) expect(r.int(n)).toBe(exactInt(reference, n));
      }),
      { numRuns: 500 },
    );
  });
});
