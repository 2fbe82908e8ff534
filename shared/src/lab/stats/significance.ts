/**
 * Tests of significance on normal statistics: the normal tail probability, the two-sided p-value
 * of a z statistic, and Holm's step-down correction of a family of p-values. Kept apart from the
 * interval estimates (stats.ts) because the verdicts of paper-comparison.ts decide on these
 * numbers: a p-value near α must not depend on a coarse approximation, so the tail is computed
 * to about double precision rather than read off a table.
 */

const SQRT2 = Math.SQRT2;
const SQRT_PI = Math.sqrt(Math.PI);

/**
 * erfc(t) for t ≥ 0. Below 2.5 from erf's series with positive terms only
 * (erf t = 2/√π · e^{−t²} · Σ (2t²)ⁿ t / (1·3·…·(2n+1))), which loses nothing to cancellation;
 * above, erf is within 1e-3 of 1 and 1 − erf would lose digits, so erfc comes from its continued
 * fraction (e^{−t²}/√π · 1/(t + ½/(t + 1/(t + (3/2)/(t + …))))), evaluated backwards.
 */
function erfcPositive(t: number): number {
  if (t < 2.5) {
    const a = 2 * t * t;
    let term = t;
    let sum = t;
    for (let n = 1; term > 1e-17 * sum; n++) {
      term *= a / (2 * n + 1);
      sum += term;
    }
    return 1 - ((2 / SQRT_PI) * Math.exp(-t * t)) * sum;
  }
  // 80 levels: at t = 2.5 the fraction has settled to double precision well before that.
  let f = t;
  for (let k = 80; k >= 1; k--) f = t + k / 2 / f;
  return Math.exp(-t * t) / (SQRT_PI * f);
}

/** P(Z > x) for a standard normal Z. */
export function normalUpperTail(x: number): number {
  if (Number.isNaN(x)) return NaN;
  return x >= 0 ? erfcPositive(x / SQRT2) / 2 : 1 - erfcPositive(-x / SQRT2) / 2;
}

/** The x with P(Z > x) = p (0 < p < 1), by bisection on normalUpperTail: to 1e-12, slow but exact enough for a report. */
export function normalUpperQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalUpperQuantile: p must be in (0, 1), got ${p}`);
  let lo = -40;
  let hi = 40;
  while (hi - lo > 1e-12) {
    const mid = (lo + hi) / 2;
    if (normalUpperTail(mid) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The two-sided p-value of a z statistic: P(|Z| ≥ |z|). */
export function twoSidedP(z: number): number {
  return Math.min(1, 2 * normalUpperTail(Math.abs(z)));
}

/**
 * Holm's step-down adjusted p-values, in the order given: the i-th smallest of m p-values is
 * multiplied by m − i + 1, and each adjusted value is raised to the largest before it so that the
 * step-down stops at the first hypothesis it cannot reject (capped at 1). Rejecting where the
 * adjusted value is ≤ α controls the chance of any false rejection in the family at α, whatever
 * the dependence between the tests — which matters here, since rows of one table share games.
 */
export function holmAdjust(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
