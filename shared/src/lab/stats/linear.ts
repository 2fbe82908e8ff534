/**
 * The dense linear algebra the rating fits need, on flat row-major Float64Arrays. Their matrices
 * are symmetric positive definite (an information matrix with one θ held fixed), so one Cholesky
 * factorization — n³/6 multiply-adds at most — serves a Newton step, and one inverse the
 * covariance: O(n³) a fit at worst, never the O(n⁴) of a fresh elimination per column. Loops start
 * at each row's first non-zero, so the sparse matrices of sweeps (most configurations meet only a
 * common opponent) cost far less.
 */

/** An n × n matrix, row-major: element (i, j) at i · n + j. */
export interface Matrix {
  n: number;
  data: Float64Array;
}

export function zeros(n: number): Matrix {
  return { n, data: new Float64Array(n * n) };
}

/**
 * The lower-triangular L with A = L Lᵀ (A symmetric positive definite; only its lower half is
 * read). L has no entry left of A's first non-zero in a row (its envelope), so the sums start
 * there: ordered with the best-connected row last (a sweep's common opponent, which met
 * everyone), a star's information matrix factors in O(n), not n³/6.
 */
export function cholesky(A: Matrix): Matrix {
  const { n } = A;
  const a = A.data;
  const L = new Float64Array(n * n);
  const first = envelope(A);
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let d = a[rj + j];
    for (let k = first[j]; k < j; k++) d -= L[rj + k] * L[rj + k];
    if (!(d > 0)) throw new Error(`matrix not positive definite (pivot ${j}: ${d})`);
    const ljj = Math.sqrt(d);
    L[rj + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      if (first[i] > j) continue;
      const ri = i * n;
      let s = a[ri + j];
      for (let k = Math.max(first[i], first[j]); k < j; k++) s -= L[ri + k] * L[rj + k];
      L[ri + j] = s / ljj;
    }
  }
  return { n, data: L };
}

/** Each row's first non-zero column at or left of the diagonal. */
function envelope(A: Matrix): Int32Array {
  const { n, data } = A;
  const first = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let j = 0;
    while (j < i && data[i * n + j] === 0) j++;
    first[i] = j;
  }
  return first;
}

/** x with L Lᵀ x = b. */
export function choleskySolve(L: Matrix, b: ArrayLike<number>): Float64Array {
  const { n, data: l } = L;
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= l[i * n + k] * x[k];
    x[i] = s / l[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= l[k * n + i] * x[k];
    x[i] = s / l[i * n + i];
  }
  return x;
}

/** (L Lᵀ)⁻¹ = L⁻ᵀ L⁻¹: L inverted (n³/6 at most), then the product (n³/6 at most). */
export function choleskyInverse(L: Matrix): Matrix {
  const { n, data: l } = L;
  // M = L⁻¹, lower triangular, row by row (M[i][j] = −Σ_{j ≤ k < i} L[i][k] M[k][j] / L[i][i]),
  // summed along rows so that every inner loop reads memory in order, and from each row's first
  // non-zero (zeros of L stay zeros of M left of the envelope).
  const M = new Float64Array(n * n);
  const first = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    first[i] = i;
    for (let k = 0; k < i; k++) {
      const lik = l[ri + k];
      if (lik === 0) continue;
      const rk = k * n;
      first[i] = Math.min(first[i], first[k]);
      for (let j = first[k]; j <= k; j++) M[ri + j] -= lik * M[rk + j];
    }
    const d = l[ri + i];
    for (let j = first[i]; j < i; j++) M[ri + j] /= d;
    M[ri + i] = 1 / d;
  }
  // A⁻¹[i][j] = Σ_{k ≥ max(i, j)} M[k][i] M[k][j], filled symmetrically.
  const inv = new Float64Array(n * n);
  for (let k = 0; k < n; k++) {
    const rk = k * n;
    for (let i = first[k]; i <= k; i++) {
      const mki = M[rk + i];
      if (mki === 0) continue;
      const ri = i * n;
      for (let j = first[k]; j <= i; j++) inv[ri + j] += mki * M[rk + j];
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) inv[j * n + i] = inv[i * n + j];
  return { n, data: inv };
}

/** x with A x = b for a symmetric positive definite A. */
export function solveSpd(A: Matrix, b: ArrayLike<number>): Float64Array {
  return choleskySolve(cholesky(A), b);
}
