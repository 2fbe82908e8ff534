/**
 * The fit's χ² and its sampling spread (src/lab/fit-statistics.ts): concrete rows, and the variance
 * formula against the spread of z² over simulated samples.
 */
import { describe, expect, it } from 'vitest';
import { Rng, chiSquare, chiSquareGap, fitZ, zSquaredVariance, type FitRow } from '../src/index.js';

/** A standard normal draw (Box–Muller) from the seeded generator. */
function normal(rng: Rng): number {
  const u = 1 - rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

describe('fit statistics', () => {
  // Thesis Table 7.1, MCTS-100's mean VP: ours 44.7 over 630 games (sd 8), the thesis's 37.8 with
  // the standard error of 1050 games at the same spread.
  const vpRow: FitRow = { ours: 44.7, se: 8 / Math.sqrt(630), paper: 37.8, sePaper: 8 / Math.sqrt(1050) };

  it('scores a row by the difference over both errors', () => {
    expect(fitZ(vpRow)).toBeCloseTo(17.1, 1);
    expect(fitZ({ ours: 70, se: 3, paper: 74, sePaper: 4 })).toBeCloseTo(-0.8, 10);
  });

  it('gives a far-off row a wide spread and a row on the paper almost none', () => {
    // (4·6.9²·0.3187² + 2·0.3187⁴) / 0.4032⁴ ≈ 733: about ±27 on a z² of 292.
    expect(Math.sqrt(zSquaredVariance(vpRow))).toBeCloseTo(27.0, 0);
    const onPaper = zSquaredVariance({ ours: 37.8, se: 0.3, paper: 37.8, sePaper: 0.3 });
    expect(onPaper).toBeCloseTo(2 * 0.5 ** 2, 10);
  });

  it('matches the spread of z² over simulated samples', () => {
    const rng = new Rng(7);
    const truth = { mean: 41, se: 0.5, paper: 39, sePaper: 0.4 };
    const draws: number[] = [];
    for (let i = 0; i < 40_000; i++) {
      draws.push(fitZ({ ours: truth.mean + truth.se * normal(rng), se: truth.se, paper: truth.paper, sePaper: truth.sePaper }) ** 2);
    }
    const mean = draws.reduce((t, x) => t + x, 0) / draws.length;
    const variance = draws.reduce((t, x) => t + (x - mean) ** 2, 0) / (draws.length - 1);
    const predicted = zSquaredVariance({ ours: truth.mean, se: truth.se, paper: truth.paper, sePaper: truth.sePaper });
    expect(variance / predicted).toBeGreaterThan(0.95);
    expect(variance / predicted).toBeLessThan(1.05);
  });

  it('sums rows and their variances, and measures a gap in standard deviations', () => {
    const rows = [vpRow, { ours: 70, se: 3, paper: 74, sePaper: 4 }];
    const fit = chiSquare(rows);
    expect(fit.rows).toBe(2);
    expect(fit.chi2).toBeCloseTo(fitZ(rows[0]) ** 2 + 0.64, 10);
    expect(fit.sd).toBeCloseTo(Math.sqrt(zSquaredVariance(rows[0]) + zSquaredVariance(rows[1])), 10);
    const worse = { chi2: fit.chi2 + 2 * fit.sd * Math.SQRT2, rows: 2, sd: fit.sd };
    expect(chiSquareGap(fit, worse)).toBeCloseTo(2, 10);
    expect(chiSquareGap(worse, fit)).toBeCloseTo(-2, 10);
    expect(chiSquare([])).toEqual({ chi2: 0, rows: 0, sd: 0 });
  });
});
