/**
 * Dense float64 linear algebra for the pre-trained methods on frozen features (docs/science.md §9): products of
 * rows, Cholesky factor and solve, and the Householder tridiagonalisation that lets RanPAC's ridge parameter be
 * chosen from its whole grid for the price of one factorisation.
 *
 * Matrices are row-major Float64Arrays with their sizes passed alongside. Loops are plain scalar JavaScript in a
 * fixed summation order (no SIMD, no threads), so a result has the same bits on every CPU and in every browser; the
 * products work on 4×4 blocks of dot products over contiguous rows, which V8 keeps in registers (about 1 G
 * multiply-adds per second on this machine, twice a naive loop).
 */

/** A factorisation met a pivot that is not positive: the matrix is not positive definite (to rounding). */
export class SingularMatrixError extends Error {
  constructor(
    message: string,
    readonly pivot: number,
  ) {
    super(message);
    this.name = 'SingularMatrixError';
  }
}

function dot(a: Float64Array, ao: number, b: Float64Array, bo: number, k: number): number {
  let s = 0;
  for (let t = 0; t < k; t++) s += a[ao + t] * b[bo + t];
  return s;
}

/**
 * The 16 dot products of rows a[ao + r·lda …] (r < 4) with rows b[bo + s·ldb …] (s < 4) over k entries, into
 * out[r·4 + s]. Each sum runs t = 0 … k−1, the order of `dot`, so blocked and unblocked results are identical.
 */
function block44(a: Float64Array, ao: number, lda: number, b: Float64Array, bo: number, ldb: number, k: number, out: Float64Array): void {
  const a0 = ao;
  const a1 = a0 + lda;
  const a2 = a1 + lda;
  const a3 = a2 + lda;
  const b0 = bo;
  const b1 = b0 + ldb;
  const b2 = b1 + ldb;
  const b3 = b2 + ldb;
  let s00 = 0,
    s01 = 0,
    s02 = 0,
    s03 = 0,
    s10 = 0,
    s11 = 0,
    s12 = 0,
    s13 = 0,
    s20 = 0,
    s21 = 0,
    s22 = 0,
    s23 = 0,
    s30 = 0,
    s31 = 0,
    s32 = 0,
    s33 = 0;
  for (let t = 0; t < k; t++) {
    const x0 = a[a0 + t];
    const x1 = a[a1 + t];
    const x2 = a[a2 + t];
    const x3 = a[a3 + t];
    const y0 = b[b0 + t];
    const y1 = b[b1 + t];
    const y2 = b[b2 + t];
    const y3 = b[b3 + t];
    s00 += x0 * y0;
    s01 += x0 * y1;
    s02 += x0 * y2;
    s03 += x0 * y3;
    s10 += x1 * y0;
    s11 += x1 * y1;
    s12 += x1 * y2;
    s13 += x1 * y3;
    s20 += x2 * y0;
    s21 += x2 * y1;
    s22 += x2 * y2;
    s23 += x2 * y3;
    s30 += x3 * y0;
    s31 += x3 * y1;
    s32 += x3 * y2;
    s33 += x3 * y3;
  }
  out[0] = s00;
  out[1] = s01;
  out[2] = s02;
  out[3] = s03;
  out[4] = s10;
  out[5] = s11;
  out[6] = s12;
  out[7] = s13;
  out[8] = s20;
  out[9] = s21;
  out[10] = s22;
  out[11] = s23;
  out[12] = s30;
  out[13] = s31;
  out[14] = s32;
  out[15] = s33;
}

/** out (n × m) = A (n × k) · Bᵀ with B (m × k): every row of A against every row of B. */
export function multiplyABt(a: Float64Array, n: number, b: Float64Array, m: number, k: number, out = new Float64Array(n * m)): Float64Array {
  const blk = new Float64Array(16);
  const n4 = n - (n % 4);
  const m4 = m - (m % 4);
  for (let i = 0; i < n4; i += 4) {
    for (let j = 0; j < m4; j += 4) {
      block44(a, i * k, k, b, j * k, k, k, blk);
      for (let r = 0; r < 4; r++) for (let s = 0; s < 4; s++) out[(i + r) * m + j + s] = blk[r * 4 + s];
    }
    for (let r = 0; r < 4; r++) for (let j = m4; j < m; j++) out[(i + r) * m + j] = dot(a, (i + r) * k, b, j * k, k);
  }
  for (let i = n4; i < n; i++) for (let j = 0; j < m; j++) out[i * m + j] = dot(a, i * k, b, j * k, k);
  return out;
}

/** The Gram matrix of the rows, A Aᵀ (n × n) for A (n × k): the lower half computed, the upper mirrored (exactly). */
export function gramOfRows(a: Float64Array, n: number, k: number, out = new Float64Array(n * n)): Float64Array {
  const blk = new Float64Array(16);
  const n4 = n - (n % 4);
  for (let i = 0; i < n4; i += 4) {
    for (let j = 0; j <= i; j += 4) {
      block44(a, i * k, k, a, j * k, k, k, blk);
      for (let r = 0; r < 4; r++) for (let s = 0; s < 4; s++) out[(i + r) * n + j + s] = blk[r * 4 + s];
    }
  }
  for (let i = n4; i < n; i++) for (let j = 0; j <= i; j++) out[i * n + j] = dot(a, i * k, a, j * k, k);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out[i * n + j] = out[j * n + i];
  return out;
}

/** Aᵀ (k × n) of A (n × k). */
export function transpose(a: Float64Array, n: number, k: number, out = new Float64Array(n * k)): Float64Array {
  for (let i = 0; i < n; i++) {
    const ro = i * k;
    for (let t = 0; t < k; t++) out[t * n + i] = a[ro + t];
  }
  return out;
}

/**
 * Cholesky factor in place: the lower triangle of the symmetric p × p matrix `a` becomes L with A = L Lᵀ (the
 * strict upper triangle is left as it was). Row by row, each entry a dot product of two rows of L, the bulk of them
 * in 4×4 blocks. Throws a SingularMatrixError when a pivot is not positive.
 */
export function choleskyInPlace(a: Float64Array, p: number): void {
  const blk = new Float64Array(16);
  for (let ib = 0; ib < p; ib += 4) {
    const ie = Math.min(p, ib + 4);
    for (let jb = 0; jb <= ib; jb += 4) {
      const je = Math.min(p, jb + 4);
      // the part of each dot product over columns before this block column
      if (jb > 0) {
        if (ie - ib === 4 && je - jb === 4) {
          block44(a, ib * p, p, a, jb * p, p, jb, blk);
          for (let r = 0; r < 4; r++) for (let s = 0; s < 4; s++) a[(ib + r) * p + jb + s] -= blk[r * 4 + s];
        } else {
          for (let i = ib; i < ie; i++) for (let j = jb; j < je; j++) a[i * p + j] -= dot(a, i * p, a, j * p, jb);
        }
      }
      // the rest, inside the block, in order
      for (let i = ib; i < ie; i++) {
        const io = i * p;
        const jEnd = Math.min(je, i + 1);
        for (let j = jb; j < jEnd; j++) {
          const jo = j * p;
          let s = a[io + j];
          for (let t = jb; t < j; t++) s -= a[io + t] * a[jo + t];
          if (i === j) {
            if (!(s > 0) || !Number.isFinite(s)) throw new SingularMatrixError(`The matrix is not positive definite (pivot ${i} is ${s}).`, i);
            a[io + i] = Math.sqrt(s);
          } else a[io + j] = s / a[jo + j];
        }
      }
    }
  }
}

/**
 * Solves L Lᵀ X = B in place for B (p × c), with L the lower triangle of `l` (from choleskyInPlace): the columns of B
 * copied out contiguous, four at a time, L y = b as dot products of rows of L with y, then Lᵀ x = y from the last row
 * up, each finished x_i taken off the rows above it along row i of L (both contiguous). Each row of L is read once for
 * four columns; every column sees the same operations in the same order as when solved alone.
 */
export function choleskySolveInPlace(l: Float64Array, p: number, b: Float64Array, c: number): void {
  const x = new Float64Array(4 * p);
  for (let j0 = 0; j0 < c; j0 += 4) {
    const w = Math.min(4, c - j0);
    for (let q = 0; q < w; q++) for (let i = 0; i < p; i++) x[q * p + i] = b[i * c + j0 + q];
    if (w === 4) {
      const o1 = p;
      const o2 = 2 * p;
      const o3 = 3 * p;
      for (let i = 0; i < p; i++) {
        const io = i * p;
        let s0 = x[i];
        let s1 = x[o1 + i];
        let s2 = x[o2 + i];
        let s3 = x[o3 + i];
        for (let k = 0; k < i; k++) {
          const lk = l[io + k];
          s0 -= lk * x[k];
          s1 -= lk * x[o1 + k];
          s2 -= lk * x[o2 + k];
          s3 -= lk * x[o3 + k];
        }
        const d = l[io + i];
        x[i] = s0 / d;
        x[o1 + i] = s1 / d;
        x[o2 + i] = s2 / d;
        x[o3 + i] = s3 / d;
      }
      for (let i = p - 1; i >= 0; i--) {
        const io = i * p;
        const d = l[io + i];
        const x0 = x[i] / d;
        const x1 = x[o1 + i] / d;
        const x2 = x[o2 + i] / d;
        const x3 = x[o3 + i] / d;
        x[i] = x0;
        x[o1 + i] = x1;
        x[o2 + i] = x2;
        x[o3 + i] = x3;
        for (let k = 0; k < i; k++) {
          const lk = l[io + k];
          x[k] -= lk * x0;
          x[o1 + k] -= lk * x1;
          x[o2 + k] -= lk * x2;
          x[o3 + k] -= lk * x3;
        }
      }
    } else {
      for (let q = 0; q < w; q++) {
        const o = q * p;
        for (let i = 0; i < p; i++) {
          const io = i * p;
          let s = x[o + i];
          for (let k = 0; k < i; k++) s -= l[io + k] * x[o + k];
          x[o + i] = s / l[io + i];
        }
        for (let i = p - 1; i >= 0; i--) {
          const io = i * p;
          const xi = x[o + i] / l[io + i];
          x[o + i] = xi;
          for (let k = 0; k < i; k++) x[o + k] -= l[io + k] * xi;
        }
      }
    }
    for (let q = 0; q < w; q++) for (let i = 0; i < p; i++) b[i * c + j0 + q] = x[q * p + i];
  }
}

/**
 * out[r] = ‖L⁻¹ v_r‖² for the n rows v_r of `v` (n × p) and the lower-triangular L (p × p) of `l`: forward
 * substitution on four rows at a time, each row of L read once for the four.
 */
export function squaredNormsOfForwardSolves(l: Float64Array, p: number, v: Float64Array, n: number, out = new Float64Array(n)): Float64Array {
  const z = new Float64Array(4 * p);
  let r = 0;
  for (; r + 4 <= n; r += 4) {
    const v0 = r * p;
    const v1 = v0 + p;
    const v2 = v1 + p;
    const v3 = v2 + p;
    let t0 = 0,
      t1 = 0,
      t2 = 0,
      t3 = 0;
    for (let i = 0; i < p; i++) {
      const io = i * p;
      let s0 = v[v0 + i];
      let s1 = v[v1 + i];
      let s2 = v[v2 + i];
      let s3 = v[v3 + i];
      for (let k = 0; k < i; k++) {
        const lik = l[io + k];
        s0 -= lik * z[k];
        s1 -= lik * z[p + k];
        s2 -= lik * z[2 * p + k];
        s3 -= lik * z[3 * p + k];
      }
      const d = l[io + i];
      s0 /= d;
      s1 /= d;
      s2 /= d;
      s3 /= d;
      z[i] = s0;
      z[p + i] = s1;
      z[2 * p + i] = s2;
      z[3 * p + i] = s3;
      t0 += s0 * s0;
      t1 += s1 * s1;
      t2 += s2 * s2;
      t3 += s3 * s3;
    }
    out[r] = t0;
    out[r + 1] = t1;
    out[r + 2] = t2;
    out[r + 3] = t3;
  }
  const zero = new Float64Array(p);
  for (; r < n; r++) out[r] = squaredNormOfForwardSolve(l, p, v, r * p, zero, z);
  return out;
}

/** ‖L⁻¹ v‖² for the lower-triangular L (p × p) of `l` and v = x − μ, with `z` as scratch (length p). */
export function squaredNormOfForwardSolve(l: Float64Array, p: number, x: Float64Array, xo: number, mu: Float64Array, z: Float64Array): number {
  let total = 0;
  for (let i = 0; i < p; i++) {
    const io = i * p;
    let s = x[xo + i] - mu[i];
    for (let k = 0; k < i; k++) s -= l[io + k] * z[k];
    const zi = s / l[io + i];
    z[i] = zi;
    total += zi * zi;
  }
  return total;
}

/**
 * A symmetric matrix reduced to tridiagonal form by Householder reflections, A = U T Uᵀ with U = H₀ H₁ … H_{p−3}
 * and H_k = I − β_k v_k v_kᵀ acting on coordinates k+1 … p−1. T has `diag` and `off` (off[k] = T[k+1][k]).
 */
export interface Tridiagonal {
  p: number;
  diag: Float64Array;
  off: Float64Array;
  /** v_k at vectors[k·p + k + 1 …], zero elsewhere */
  vectors: Float64Array;
  betas: Float64Array;
}

/**
 * Householder tridiagonalisation of the symmetric p × p matrix `a`: only its lower triangle is read and overwritten.
 * Each step reads and updates the trailing lower triangle once, row by row (w = B v gathers from both the row and,
 * by symmetry, the column it stands for): about (2/3) p³ multiply-adds.
 */
export function tridiagonalize(a: Float64Array, p: number): Tridiagonal {
  const diag = new Float64Array(p);
  const off = new Float64Array(Math.max(0, p - 1));
  const vectors = new Float64Array(p * p);
  const betas = new Float64Array(p);
  const w = new Float64Array(p);
  for (let k = 0; k + 2 < p; k++) {
    const ko = k * p;
    // x = A[k+1 …][k], the column below the diagonal
    let sigma2 = 0;
    for (let j = k + 1; j < p; j++) sigma2 += a[j * p + k] * a[j * p + k];
    const sigma = Math.sqrt(sigma2);
    const x0 = a[(k + 1) * p + k];
    if (sigma === 0) {
      off[k] = 0;
      continue;
    }
    const alpha = x0 > 0 ? -sigma : sigma;
    for (let j = k + 1; j < p; j++) vectors[ko + j] = a[j * p + k];
    vectors[ko + k + 1] = x0 - alpha;
    const vtv = 2 * sigma2 - 2 * alpha * x0;
    if (!(vtv > 0)) {
      off[k] = x0;
      continue;
    }
    const beta = 2 / vtv;
    betas[k] = beta;
    off[k] = alpha;
    // w = β B v over the trailing block B = A[k+1 …][k+1 …], from its lower triangle, two rows at a time (each row
    // gives its own entry of w and, by symmetry, adds to the entries of the columns before it)
    w.fill(0, k + 1);
    let r = k + 1;
    for (; r + 1 < p; r += 2) {
      const ro = r * p;
      const r1 = ro + p;
      const vr = vectors[ko + r];
      const vr1 = vectors[ko + r + 1];
      let s0 = 0;
      let s1 = 0;
      for (let c = k + 1; c < r; c++) {
        const a0 = a[ro + c];
        const a1 = a[r1 + c];
        const vc = vectors[ko + c];
        s0 += a0 * vc;
        s1 += a1 * vc;
        w[c] += a0 * vr + a1 * vr1;
      }
      const a10 = a[r1 + r];
      w[r] += s0 + a[ro + r] * vr + a10 * vr1;
      w[r + 1] += s1 + a10 * vr + a[r1 + r + 1] * vr1;
    }
    if (r < p) {
      const ro = r * p;
      const vr = vectors[ko + r];
      let s0 = 0;
      for (let c = k + 1; c < r; c++) {
        const a0 = a[ro + c];
        s0 += a0 * vectors[ko + c];
        w[c] += a0 * vr;
      }
      w[r] += s0 + a[ro + r] * vr;
    }
    let kappa = 0;
    for (let r = k + 1; r < p; r++) {
      w[r] *= beta;
      kappa += vectors[ko + r] * w[r];
    }
    kappa *= beta / 2;
    for (let r = k + 1; r < p; r++) w[r] -= kappa * vectors[ko + r];
    // B −= v wᵀ + w vᵀ, lower triangle, two rows at a time
    let q = k + 1;
    for (; q + 1 < p; q += 2) {
      const ro = q * p;
      const r1 = ro + p;
      const v0 = vectors[ko + q];
      const w0 = w[q];
      const v1 = vectors[ko + q + 1];
      const w1 = w[q + 1];
      for (let c = k + 1; c <= q; c++) {
        const wc = w[c];
        const vc = vectors[ko + c];
        a[ro + c] -= v0 * wc + w0 * vc;
        a[r1 + c] -= v1 * wc + w1 * vc;
      }
      a[r1 + q + 1] -= v1 * w[q + 1] + w1 * vectors[ko + q + 1];
    }
    if (q < p) {
      const ro = q * p;
      const v0 = vectors[ko + q];
      const w0 = w[q];
      for (let c = k + 1; c <= q; c++) a[ro + c] -= v0 * w[c] + w0 * vectors[ko + c];
    }
  }
  for (let i = 0; i < p; i++) diag[i] = a[i * p + i];
  if (p >= 2) off[p - 2] = a[(p - 1) * p + p - 2];
  return { p, diag, off, vectors, betas };
}

/** R ← Uᵀ R in place, for R (p × c). */
export function applyUt(t: Tridiagonal, r: Float64Array, c: number): void {
  const { p, vectors, betas } = t;
  const s = new Float64Array(c);
  for (let k = 0; k + 2 < p; k++) {
    const beta = betas[k];
    if (beta === 0) continue;
    const ko = k * p;
    s.fill(0);
    for (let i = k + 1; i < p; i++) {
      const v = vectors[ko + i];
      const ro = i * c;
      for (let j = 0; j < c; j++) s[j] += v * r[ro + j];
    }
    for (let i = k + 1; i < p; i++) {
      const v = beta * vectors[ko + i];
      const ro = i * c;
      for (let j = 0; j < c; j++) r[ro + j] -= v * s[j];
    }
  }
}

/** B ← B U in place, for B (n × p): each row through H₀, H₁, … in turn. */
export function applyURight(t: Tridiagonal, b: Float64Array, n: number): void {
  const { p, vectors, betas } = t;
  for (let row = 0; row < n; row++) {
    const bo = row * p;
    for (let k = 0; k + 2 < p; k++) {
      const beta = betas[k];
      if (beta === 0) continue;
      const ko = k * p;
      let s = 0;
      for (let i = k + 1; i < p; i++) s += b[bo + i] * vectors[ko + i];
      s *= beta;
      for (let i = k + 1; i < p; i++) b[bo + i] -= s * vectors[ko + i];
    }
  }
}

/**
 * X = (T + λI)⁻¹ Y for Y (p × c), by the LDLᵀ (Thomas) recurrence; `out` may be Y itself. A zero pivot gives
 * non-finite values, which the caller treats as a failed λ.
 */
export function solveShiftedTridiagonal(t: Tridiagonal, lambda: number, y: Float64Array, c: number, out = new Float64Array(y.length)): Float64Array {
  const { p, diag, off } = t;
  if (out !== y) out.set(y);
  if (p === 0) return out;
  const d = new Float64Array(p);
  const l = new Float64Array(Math.max(0, p - 1));
  d[0] = diag[0] + lambda;
  for (let i = 0; i + 1 < p; i++) {
    l[i] = off[i] / d[i];
    d[i + 1] = diag[i + 1] + lambda - l[i] * off[i];
  }
  for (let i = 1; i < p; i++) {
    const li = l[i - 1];
    for (let j = 0; j < c; j++) out[i * c + j] -= li * out[(i - 1) * c + j];
  }
  for (let i = 0; i < p; i++) for (let j = 0; j < c; j++) out[i * c + j] /= d[i];
  for (let i = p - 2; i >= 0; i--) {
    const li = l[i];
    for (let j = 0; j < c; j++) out[i * c + j] -= li * out[(i + 1) * c + j];
  }
  return out;
}
