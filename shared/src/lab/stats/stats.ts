/**
 * Interval estimates for win rates. The papers quote p ± 1.96·√(p(1−p)/n) (the normal
 * approximation); the Wilson score interval is better behaved near 0 and 1 and with small n, so
 * we report both.
 */
import { mean, quantile, sampleStandardDeviation } from 'simple-statistics';

export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/** Half-width of the normal-approximation interval for k successes in n trials. */
export function normalHalfWidth(k: number, n: number, z = Z95): number {
  if (n === 0) return NaN;
  const p = k / n;
  return z * Math.sqrt((p * (1 - p)) / n);
}

/** Half-width of the normal 95 % interval of a mean, from the sample sd and n (NaN below 2). */
export function meanHalfWidth(sd: number, n: number, z = Z95): number {
  return n > 1 ? (z * sd) / Math.sqrt(n) : NaN;
}

/** Wilson score interval for k successes in n trials. */
export function wilson(k: number, n: number, z = Z95): Interval {
  if (n === 0) return { low: NaN, high: NaN };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface Summary {
  n: number;
  mean: number;
  sd: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

/** Mean, sample standard deviation and the five numbers of a box plot. */
export function describe(xs: readonly number[]): Summary {
  if (xs.length === 0) return { n: 0, mean: NaN, sd: NaN, min: NaN, q1: NaN, median: NaN, q3: NaN, max: NaN };
  const sorted = [...xs].sort((a, b) => a - b);
  return {
    n: xs.length,
    mean: mean(sorted),
    sd: xs.length > 1 ? sampleStandardDeviation(sorted) : 0,
    min: sorted[0],
    q1: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    q3: quantile(sorted, 0.75),
    max: sorted[sorted.length - 1],
  };
}
