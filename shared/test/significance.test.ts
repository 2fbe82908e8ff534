/**
 * The tests of significance behind the paper verdicts (src/lab/stats/significance.ts), on values any
 * table of the normal distribution and any textbook on multiple testing gives.
 */
import { describe, expect, it } from 'vitest';
import { Z95, holmAdjust, normalUpperTail, twoSidedP } from '../src/lab/index.js';

/** Relative error: the tails are tiny far out, so an absolute tolerance would say nothing there. */
const rel = (x: number, y: number) => Math.abs(x / y - 1);

describe('the normal tail', () => {
  it('P(Z > x) to about double precision, on both sides of the switch from series to continued fraction', () => {
    const known: [number, number][] = [
      [0, 0.5],
      [1, 0.15865525393145707],
      [2, 0.02275013194817922],
      [3, 0.0013498980316300957],
      [3.5, 0.00023262907903552504],
      [4, 3.1671241833119965e-5],
      [5, 2.866515718791946e-7],
      [6, 9.865876450377012e-10],
      [8, 6.220960574271819e-16],
    ];
    for (const [x, q] of known) expect(rel(normalUpperTail(x), q), `Q(${x})`).toBeLessThan(1e-12);
    expect(rel(normalUpperTail(-1), 1 - 0.15865525393145707)).toBeLessThan(1e-14);
    expect(normalUpperTail(Z95)).toBeCloseTo(0.025, 14);
  });

  it('two-sided p: 0.05 at the 95 % quantile, 1 at zero, the same for ±z', () => {
    expect(twoSidedP(Z95)).toBeCloseTo(0.05, 14);
    expect(twoSidedP(-Z95)).toBe(twoSidedP(Z95));
    expect(twoSidedP(0)).toBe(1);
    expect(twoSidedP(1.96)).toBeCloseTo(0.04999579029644087, 14);
  });
});

describe('Holm step-down', () => {
  it('adjusts p = 0.01, 0.04, 0.03, 0.005 to 0.03, 0.06, 0.06, 0.02 (as R\'s p.adjust(…, "holm"))', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((a, i) => expect(adjusted[i]).toBeCloseTo(a, 15));
    // 0.04 < 0.05 on its own, but the step-down stopped at 0.03 > 0.05 / 2: not rejected.
    expect(adjusted.map((p) => p <= 0.05)).toEqual([true, false, false, true]);
  });

  it('caps at 1, keeps one p-value as it is, and an empty family empty', () => {
    expect(holmAdjust([0.5, 0.6])).toEqual([1, 1]);
    expect(holmAdjust([0.03])).toEqual([0.03]);
    expect(holmAdjust([])).toEqual([]);
  });
});
