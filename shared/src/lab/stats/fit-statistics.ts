/**
 * Scoring a reading of a paper's agent against the paper's rows: each row's z, and the sum of the
 * z² (χ²) with how much of it is our own sampling noise.
 *
 * A row's z compares our estimate (standard error se) with the paper's (sePaper):
 * z = (ours − paper) / σ, σ² = se² + sePaper². Two readings are compared on the same paper rows, so
 * the paper's own error is common to both; what can reorder them is our sampling error. With
 * ours = m + e, e ~ N(0, se²), z² = (d + e)² / σ² (d = m − paper), whose variance over our samples is
 * (4 d² se² + 2 se⁴) / σ⁴. A row far off (|z| large) therefore carries a large spread: at z = 17
 * with se ≈ 0.8 σ, one row's z² moves by about ±27.
 */

export interface FitRow {
  ours: number;
  /** Our estimate's standard error. */
  se: number;
  paper: number;
  /** The paper's standard error (its 95 % half-width / 1.96 for a rate). */
  sePaper: number;
}

/** z of the difference between our estimate and the paper's, both with their standard errors. */
export function fitZ(row: FitRow): number {
  return (row.ours - row.paper) / Math.sqrt(row.se ** 2 + row.sePaper ** 2);
}

/**
 * The variance of a row's z² over our own samples, with our estimate standing in for its mean (the
 * plug-in estimate; it is what we can know of d).
 */
export function zSquaredVariance(row: FitRow): number {
  const s2 = row.se ** 2 + row.sePaper ** 2;
  const d = row.ours - row.paper;
  return (4 * d * d * row.se ** 2 + 2 * row.se ** 4) / (s2 * s2);
}

export interface ChiSquare {
  chi2: number;
  rows: number;
  /** One standard deviation of chi2 from our sampling alone (rows taken as independent). */
  sd: number;
}

/** χ² = Σ z² over the rows, with its sampling standard deviation. */
export function chiSquare(rows: readonly FitRow[]): ChiSquare {
  let chi2 = 0;
  let variance = 0;
  for (const row of rows) {
    chi2 += fitZ(row) ** 2;
    variance += zSquaredVariance(row);
  }
  return { chi2, rows: rows.length, sd: Math.sqrt(variance) };
}

/**
 * How many standard deviations apart two readings' χ² are, their estimates taken as independent.
 * Their games share deals, so their errors can move together: that narrows the gap's spread on rows
 * where both err the same way and widens it where they err on opposite sides; pairedChiSquareGap
 * takes measured correlations into account.
 */
export function chiSquareGap(a: ChiSquare, b: ChiSquare): number {
  const sd = Math.sqrt(a.sd ** 2 + b.sd ** 2);
  return sd === 0 ? 0 : (b.chi2 - a.chi2) / sd;
}

/**
 * The covariance of two readings' z² on one row whose estimates move together with correlation
 * `rho` (they play the same deals, so a deal good for one reading's seat tends to be good for the
 * other's). For jointly normal X, Y with c = Cov(X, Y): Cov(X², Y²) = 2c² + 4 E[X] E[Y] c, here
 * with X = z_a, Y = z_b and c = rho · se_a se_b / (σ_a σ_b).
 */
export function zSquaredCovariance(a: FitRow, b: FitRow, rho: number): number {
  const sa = Math.sqrt(a.se ** 2 + a.sePaper ** 2);
  const sb = Math.sqrt(b.se ** 2 + b.sePaper ** 2);
  const c = (rho * a.se * b.se) / (sa * sb);
  return 2 * c * c + 4 * fitZ(a) * fitZ(b) * c;
}

/**
 * How many standard deviations apart two readings' χ² are over the same rows, their estimates
 * correlated row by row (`rhos[i]` for rows a[i], b[i]): positive when `a` fits better. With every
 * rho 0 it is chiSquareGap.
 */
export function pairedChiSquareGap(a: readonly FitRow[], b: readonly FitRow[], rhos: readonly number[]): number {
  if (a.length !== b.length || a.length !== rhos.length) throw new Error(`pairedChiSquareGap: ${a.length}, ${b.length} rows and ${rhos.length} correlations`);
  let gap = 0;
  let variance = 0;
  a.forEach((row, i) => {
    gap += fitZ(b[i]) ** 2 - fitZ(row) ** 2;
    variance += zSquaredVariance(row) + zSquaredVariance(b[i]) - 2 * zSquaredCovariance(row, b[i], rhos[i]);
  });
  return variance <= 0 ? 0 : gap / Math.sqrt(variance);
}
