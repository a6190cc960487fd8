/**
 * Distance correlation (Székely, Rizzo & Bakirov 2007), the biased V-statistic, exactly as the Python `dcor`
 * package's default `dcor.distance_correlation(x, y)` (github vnmabus/dcor, `_dcor.py`), which the CPCF paper
 * reports between the CPCF series and the a_prev series (its Tables II–III; docs/science.md §3).
 *
 * What `dcor` computes, checked in its source:
 * - `distance_covariance_sqr` = `dCov²_n(x, y) = (1/n²) Σ_ij A_ij B_ij`, with a_ij = ‖x_i − x_j‖ (exponent 1) and
 *   A the double-centred matrix `a_ij − ā_i· − ā_·j + ā_··` (the V-statistic; the U-statistic is the separate
 *   `u_distance_correlation_sqr`). For 1-D data with n > 3 the package uses an O(n log n) algorithm (AVL) that
 *   gives the same value up to rounding.
 * - `distance_correlation_sqr` = `dCov²(x, y) / sqrt(|dVar²(x) · dVar²(y)|)`, and exactly 0 when that
 *   denominator is 0 (a constant series).
 * - `distance_correlation` = the **square root** of `distance_correlation_sqr` (its `_sqrt` first replaces
 *   negative rounding residue by 0). So the default `dcor.distance_correlation` is dCor, not dCor², in [0, 1].
 *
 * Inputs are either two series (`number[]`, 1-D) or two sets of row vectors with the same number of rows (the
 * Euclidean distance between rows), as `dcor` accepts both.
 */
import { ConformalInputError } from './probs';

type Sample = ArrayLike<number> | readonly ArrayLike<number>[];

function isRows(x: Sample): x is readonly ArrayLike<number>[] {
  return x.length > 0 && typeof (x as ArrayLike<unknown>)[0] === 'object';
}

/**
 * The double-centred distance matrix of a sample (n×n, row-major); also the permutation test's (core/stats). `out`
 * (n² long) is reused instead of a new array, for simulations that compute millions of them.
 */
export function centredDistances(x: Sample, what: string, out?: Float64Array): Float64Array {
  const n = x.length;
  const d = out ? out.fill(0) : new Float64Array(n * n);
  if (isRows(x)) {
    const dim = x[0].length;
    for (let i = 0; i < n; i++) {
      if (x[i].length !== dim) throw new ConformalInputError(`${what}: row ${i} has ${x[i].length} values but row 0 has ${dim}.`);
      for (let k = 0; k < dim; k++) finiteAt(x[i][k], `${what}[${i}][${k}]`);
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        let s = 0;
        for (let k = 0; k < dim; k++) s += (x[i][k] - x[j][k]) ** 2;
        d[i * n + j] = d[j * n + i] = Math.sqrt(s);
      }
    }
  } else {
    for (let i = 0; i < n; i++) finiteAt((x as ArrayLike<number>)[i], `${what}[${i}]`);
    const v = x as ArrayLike<number>;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) d[i * n + j] = d[j * n + i] = Math.abs(v[i] - v[j]);
  }
  const rowMean = new Float64Array(n);
  let grand = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += d[i * n + j];
    rowMean[i] = s / n;
    grand += s;
  }
  grand /= n * n;
  // symmetric: column means equal row means
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) d[i * n + j] = d[i * n + j] - rowMean[i] - rowMean[j] + grand;
  return d;
}

function finiteAt(v: number, what: string): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConformalInputError(`${what} must be a finite number; got ${String(v)}.`);
}

function checkPair(x: Sample, y: Sample): void {
  if (!x || !y || typeof x.length !== 'number' || typeof y.length !== 'number') throw new ConformalInputError('distance correlation needs two arrays.');
  if (x.length !== y.length) throw new ConformalInputError(`distance correlation needs two samples of the same length; got ${x.length} and ${y.length}.`);
  if (x.length === 0) throw new ConformalInputError('distance correlation needs at least one observation.');
}

/** mean(a ⊙ b): dCov² of two centred matrices (dVar² when a = b). */
export function meanProduct(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s / a.length;
}

/** The squared distance statistics of `dcor.distance_stats_sqr`: dCov²(x,y), dCor²(x,y), dVar²(x), dVar²(y). */
export interface DistanceStatsSqr {
  covarianceXy: number;
  correlationXy: number;
  varianceX: number;
  varianceY: number;
}

export function distanceStatsSqr(x: Sample, y: Sample): DistanceStatsSqr {
  checkPair(x, y);
  const A = centredDistances(x, 'x');
  const B = centredDistances(y, 'y');
  const covarianceXy = meanProduct(A, B);
  const varianceX = meanProduct(A, A);
  const varianceY = meanProduct(B, B);
  const denominator = Math.sqrt(Math.abs(varianceX * varianceY));
  const correlationXy = denominator === 0 ? 0 : covarianceXy / denominator;
  return { covarianceXy, correlationXy, varianceX, varianceY };
}

/** `dcor.distance_covariance_sqr(x, y)`: the V-statistic dCov²_n. */
export function distanceCovarianceSqr(x: Sample, y: Sample): number {
  return distanceStatsSqr(x, y).covarianceXy;
}

/** `dcor.distance_correlation_sqr(x, y)`: dCor²_n (0 when either sample is constant). */
export function distanceCorrelationSqr(x: Sample, y: Sample): number {
  return distanceStatsSqr(x, y).correlationXy;
}

/** `dcor.distance_correlation(x, y)`: dCor_n = sqrt(max(0, dCor²_n)), in [0, 1]. */
export function distanceCorrelation(x: Sample, y: Sample): number {
  return Math.sqrt(Math.max(0, distanceCorrelationSqr(x, y)));
}
