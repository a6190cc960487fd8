import { describe, expect, it } from 'vitest';
import { createDefaultRng } from '../../../../src/core/random/default-rng';
import {
  applyURight,
  applyUt,
  choleskyInPlace,
  choleskySolveInPlace,
  gramOfRows,
  multiplyABt,
  SingularMatrixError,
  solveShiftedTridiagonal,
  squaredNormOfForwardSolve,
  squaredNormsOfForwardSolves,
  transpose,
  tridiagonalize,
} from '../../../../src/core/ptm/linalg';

const rng = createDefaultRng(11);
const random = (n: number) => Float64Array.from({ length: n }, () => rng.random() * 2 - 1);

function naiveABt(a: Float64Array, n: number, b: Float64Array, m: number, k: number): Float64Array {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) for (let t = 0; t < k; t++) out[i * m + j] += a[i * k + t] * b[j * k + t];
  return out;
}

/** A random symmetric positive definite p × p matrix, X Xᵀ + p·I. */
function spd(p: number): Float64Array {
  const x = random(p * p);
  const a = naiveABt(x, p, x, p, p);
  for (let i = 0; i < p; i++) a[i * p + i] += p;
  return a;
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

describe('products of rows', () => {
  it.each([
    [1, 1, 1],
    [4, 4, 4],
    [7, 5, 9],
    [13, 10, 3],
  ])('multiplyABt %i × %i over %i equals the naive triple loop exactly (same summation order)', (n, m, k) => {
    const a = random(n * k);
    const b = random(m * k);
    expect(multiplyABt(a, n, b, m, k)).toEqual(naiveABt(a, n, b, m, k));
  });
  it('gramOfRows is A Aᵀ, exactly symmetric', () => {
    const a = random(11 * 6);
    const g = gramOfRows(a, 11, 6);
    expect(g).toEqual(naiveABt(a, 11, a, 11, 6));
    for (let i = 0; i < 11; i++) for (let j = 0; j < 11; j++) expect(g[i * 11 + j]).toBe(g[j * 11 + i]);
  });
  it('transpose', () => {
    expect(Array.from(transpose(Float64Array.of(1, 2, 3, 4, 5, 6), 2, 3))).toEqual([1, 4, 2, 5, 3, 6]);
  });
});

describe('Cholesky', () => {
  it.each([1, 3, 4, 9, 17])('L Lᵀ = A and the solve gives A X = B (p = %i)', (p) => {
    const a = spd(p);
    const l = a.slice();
    choleskyInPlace(l, p);
    const lower = l.map((v, i) => (i % p <= Math.floor(i / p) ? v : 0));
    expect(maxAbsDiff(naiveABt(lower, p, lower, p, p), a)).toBeLessThan(1e-10 * p);
    const b = random(p * 3);
    const x = b.slice();
    choleskySolveInPlace(l, p, x, 3);
    const ax = new Float64Array(p * 3);
    for (let i = 0; i < p; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < p; k++) ax[i * 3 + j] += a[i * p + k] * x[k * 3 + j];
    expect(maxAbsDiff(ax, b)).toBeLessThan(1e-10);
  });
  it('refuses a matrix that is not positive definite, naming the pivot', () => {
    const a = Float64Array.of(1, 2, 2, 1);
    expect(() => choleskyInPlace(a, 2)).toThrow(SingularMatrixError);
    try {
      choleskyInPlace(Float64Array.of(4, 0, 0, 0, 1, 0, 0, 0, -1), 3);
    } catch (e) {
      expect((e as SingularMatrixError).pivot).toBe(2);
    }
  });
  it('many rows at once (four by four, then the rest) equal one at a time', () => {
    const p = 7;
    const l = spd(p);
    choleskyInPlace(l, p);
    const v = random(11 * p);
    const zero = new Float64Array(p);
    const one = Array.from({ length: 11 }, (_, r) => squaredNormOfForwardSolve(l, p, v, r * p, zero, new Float64Array(p)));
    expect(Array.from(squaredNormsOfForwardSolves(l, p, v, 11))).toEqual(one);
  });
  it('‖L⁻¹(x − μ)‖² is the Mahalanobis form (x − μ)ᵀ A⁻¹ (x − μ)', () => {
    const p = 6;
    const a = spd(p);
    const l = a.slice();
    choleskyInPlace(l, p);
    const x = random(p);
    const mu = random(p);
    const v = x.map((xi, i) => xi - mu[i]);
    const w = v.slice();
    choleskySolveInPlace(l, p, w, 1);
    const want = v.reduce((s, vi, i) => s + vi * w[i], 0);
    expect(squaredNormOfForwardSolve(l, p, x, 0, mu, new Float64Array(p))).toBeCloseTo(want, 10);
  });
});

describe('Householder tridiagonalisation', () => {
  it.each([2, 3, 5, 12])('U T Uᵀ = A, and (A + λI)⁻¹ R = U (T + λI)⁻¹ Uᵀ R (p = %i)', (p) => {
    const a = spd(p);
    const t = tridiagonalize(a.slice(), p);
    // U = U I: rows of I through applyURight give U
    const u = new Float64Array(p * p);
    for (let i = 0; i < p; i++) u[i * p + i] = 1;
    applyURight(t, u, p);
    const tm = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      tm[i * p + i] = t.diag[i];
      if (i + 1 < p) tm[(i + 1) * p + i] = tm[i * p + i + 1] = t.off[i];
    }
    const ut = naiveABt(u, p, transpose(tm, p, p), p, p); // U T
    expect(maxAbsDiff(naiveABt(ut, p, u, p, p), a)).toBeLessThan(1e-9 * p); // (U T) Uᵀ
    for (const lambda of [1e-3, 1, 100]) {
      const r = random(p * 2);
      const x = r.slice();
      applyUt(t, x, 2);
      solveShiftedTridiagonal(t, lambda, x, 2, x);
      // back: U x
      const ux = new Float64Array(p * 2);
      for (let i = 0; i < p; i++) for (let j = 0; j < 2; j++) for (let k = 0; k < p; k++) ux[i * 2 + j] += u[i * p + k] * x[k * 2 + j];
      const l = a.slice();
      for (let i = 0; i < p; i++) l[i * p + i] += lambda;
      choleskyInPlace(l, p);
      const direct = r.slice();
      choleskySolveInPlace(l, p, direct, 2);
      expect(maxAbsDiff(ux, direct)).toBeLessThan(1e-9);
    }
  });
  it('a zero matrix stays as it is (no reflection), and p = 1 is its own diagonal', () => {
    const t = tridiagonalize(new Float64Array(9), 3);
    expect(Array.from(t.betas)).toEqual([0, 0, 0]);
    expect(Array.from(tridiagonalize(Float64Array.of(5), 1).diag)).toEqual([5]);
  });
});
