/**
 * The fit's χ² and its sampling spread (src/lab/stats/fit-statistics.ts): concrete rows, and the variance
 * formula against the spread of z² over simulated samples.
 */
import { describe, expect, it } from 'vitest';
import { Rng, chiSquare, chiSquareGap, fitZ, pairedChiSquareGap, zSquaredCovariance, zSquaredVariance, type FitRow } from '../src/index.js';

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

  it('matches the covariance of two correlated readings\' z² over simulated samples', () => {
    const rng = new Rng(11);
    const rho = 0.4;
    const a = { mean: 41, se: 0.5, paper: 39, sePaper: 0.4 };
    const b = { mean: 40, se: 0.6, paper: 39, sePaper: 0.4 };
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < 80_000; i++) {
      const u = normal(rng);
      const v = rho * u + Math.sqrt(1 - rho * rho) * normal(rng);
      xs.push(fitZ({ ours: a.mean + a.se * u, se: a.se, paper: a.paper, sePaper: a.sePaper }) ** 2);
      ys.push(fitZ({ ours: b.mean + b.se * v, se: b.se, paper: b.paper, sePaper: b.sePaper }) ** 2);
    }
    const mean = (v: number[]) => v.reduce((t, x) => t + x, 0) / v.length;
    const mx = mean(xs);
    const my = mean(ys);
    const covariance = xs.reduce((t, x, i) => t + (x - mx) * (ys[i] - my), 0) / (xs.length - 1);
    const predicted = zSquaredCovariance({ ours: a.mean, se: a.se, paper: a.paper, sePaper: a.sePaper }, { ours: b.mean, se: b.se, paper: b.paper, sePaper: b.sePaper }, rho);
    expect(predicted).toBeGreaterThan(0.5);
    expect(covariance / predicted).toBeGreaterThan(0.93);
    expect(covariance / predicted).toBeLessThan(1.07);
  });

  it('narrows the gap\'s spread when two readings err the same way together, and is the unpaired gap without', () => {
    // Both readings below the paper on both rows: their errors' common part cancels in the gap.
    const a: FitRow[] = [{ ours: 70, se: 1.8, paper: 71.6, sePaper: 1.4 }, { ours: 43.4, se: 0.25, paper: 43.6, sePaper: 0.25 }];
    const b: FitRow[] = [{ ours: 66, se: 1.8, paper: 71.6, sePaper: 1.4 }, { ours: 42, se: 0.25, paper: 43.6, sePaper: 0.25 }];
    const unpaired = pairedChiSquareGap(a, b, [0, 0]);
    expect(unpaired).toBeCloseTo(chiSquareGap(chiSquare(a), chiSquare(b)), 10);
    expect(unpaired).toBeGreaterThan(0);
    expect(pairedChiSquareGap(a, b, [0.5, 0.5])).toBeGreaterThan(unpaired * 1.05);
    expect(pairedChiSquareGap(b, a, [0.5, 0.5])).toBeCloseTo(-pairedChiSquareGap(a, b, [0.5, 0.5]), 10);
    // Errors on opposite sides of the paper: moving together widens the gap's spread instead.
    const c: FitRow[] = [{ ours: 73, se: 1.8, paper: 71.6, sePaper: 1.4 }, { ours: 43.8, se: 0.25, paper: 43.6, sePaper: 0.25 }];
    expect(Math.abs(pairedChiSquareGap(c, b, [0.5, 0.5]))).toBeLessThan(Math.abs(pairedChiSquareGap(c, b, [0, 0])));
    expect(() => pairedChiSquareGap(a, b, [0.5])).toThrow(/2, 2 rows and 1 correlations/);
  });
});
