/**
 * The rating fits' linear algebra (src/lab/stats/linear.ts): Cholesky factor, solve and inverse of
 * random symmetric positive-definite matrices, dense and sparse (the envelope the loops skip must
 * change no number), checked against A itself: L Lᵀ = A, A x = b, A A⁻¹ = I.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cholesky, choleskyInverse, solveSpd, zeros, type Matrix } from '../src/lab/stats/linear.js';

/** A random SPD matrix: a weighted graph Laplacian (with `density` of the edges) plus a diagonal. */
function spd(n: number, density: number, seed: number): Matrix {
  let x = seed >>> 0 || 1;
  const rand = () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const A = zeros(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (rand() >= density) continue;
      const w = rand() * 3;
      A.data[i * n + j] -= w;
      A.data[j * n + i] -= w;
      A.data[i * n + i] += w;
      A.data[j * n + j] += w;
    }
    A.data[i * n + i] += 0.1 + rand();
  }
  return A;
}

const product = (A: Matrix, B: Matrix) => {
  const n = A.n;
  const C = zeros(n);
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) C.data[i * n + j] += A.data[i * n + k] * B.data[k * n + j];
  return C;
};

describe('Cholesky', () => {
  it('L Lᵀ = A, A x = b and A A⁻¹ = I on random SPD matrices, dense and sparse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.constantFrom(1, 0.3, 0.05, 0), fc.integer(), (n, density, seed) => {
        const A = spd(n, density, seed);
        const L = cholesky(A);
        const LT = zeros(n);
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) LT.data[j * n + i] = L.data[i * n + j];
        const LLT = product(L, LT);
        for (let i = 0; i < n * n; i++) expect(LLT.data[i]).toBeCloseTo(A.data[i], 9);
        const b = Array.from({ length: n }, (_, i) => Math.sin(i + seed));
        const x = solveSpd(A, b);
        for (let i = 0; i < n; i++) {
          let s = 0;
          for (let j = 0; j < n; j++) s += A.data[i * n + j] * x[j];
          expect(s).toBeCloseTo(b[i], 8);
        }
        const I = product(A, choleskyInverse(L));
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(I.data[i * n + j]).toBeCloseTo(i === j ? 1 : 0, 8);
      }),
      { numRuns: 60 },
    );
  });

  it('an arrow matrix (a star: everyone met only the last) factors without fill: L is zero off the diagonal but for its last row', () => {
    const n = 50;
    const A = zeros(n);
    for (let i = 0; i < n - 1; i++) {
      A.data[i * n + i] = 2 + i;
      A.data[i * n + n - 1] = A.data[(n - 1) * n + i] = -1;
    }
    A.data[n * n - 1] = 10 * n;
    const L = cholesky(A);
    for (let i = 0; i < n - 1; i++) for (let j = 0; j < i; j++) expect(L.data[i * n + j]).toBe(0);
    expect(L.data[(n - 1) * n]).toBeCloseTo(-1 / Math.sqrt(2), 12);
  });

  it('refuses a matrix that is not positive definite', () => {
    const A = { n: 2, data: Float64Array.from([1, 2, 2, 1]) };
    expect(() => cholesky(A)).toThrow(/not positive definite/);
  });
});
