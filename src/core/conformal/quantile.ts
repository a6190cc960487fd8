/**
 * The split-conformal threshold (docs/science.md §3; the CPCF paper's Eq. 2 and Algorithm 1, step 3):
 * `q = the ⌈(n+1)(1−α)⌉-th smallest of the n calibration scores`, and `q = +∞` when that index exceeds n
 * (too few calibration points for the level α: the prediction set is then every class).
 *
 * The paper writes it as `Quantile(E, ⌈(n+1)(1−α)⌉/n)`; read as the empirical quantile that takes the higher
 * order statistic (numpy's `method='higher'`/`'inverted_cdf'`), that is the same k-th smallest score.
 *
 * Decision (floating point): `(n+1)(1−α)` is computed in float64, where e.g. n = 9, α = 0.7 gives
 * 3.0000000000000004 and a naive ceiling would pick the 4th score instead of the 3rd. A product within
 * `1e-12·(n+1)` of a whole number counts as that whole number (thousands of ulps of margin, far below any
 * meaningful change of α), so the index is the one exact arithmetic gives for the α the user wrote. (For the
 * paper's α ∈ {0.05, 0.10, 0.15, 0.20} no n < 100 000 is affected.)
 */
import { checkAlpha, ConformalInputError } from './probs';

/** k = ⌈(n+1)(1−α)⌉ (1-based rank of the threshold among the sorted scores); may exceed n. */
export function conformalQuantileIndex(n: number, alpha: number): number {
  checkAlpha(alpha);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`the number of calibration scores must be a whole number ≥ 0; got ${String(n)}.`);
  const x = (n + 1) * (1 - alpha);
  const whole = Math.round(x);
  return Math.abs(x - whole) <= 1e-12 * (n + 1) ? whole : Math.ceil(x);
}

/** The conformal threshold q of `scores` at level α; `Infinity` when ⌈(n+1)(1−α)⌉ > n (including n = 0). */
export function conformalQuantile(scores: ArrayLike<number>, alpha: number): number {
  const n = scores.length;
  const k = conformalQuantileIndex(n, alpha);
  if (k > n) return Infinity;
  const sorted = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = scores[i];
    if (typeof s !== 'number' || Number.isNaN(s)) throw new ConformalInputError(`calibration score ${i} is not a number (${String(s)}).`);
    sorted[i] = s;
  }
  sorted.sort();
  return sorted[k - 1];
}

/** The smallest number of calibration scores for which q is finite at level α: ⌈1/α⌉ − 1 (checked by search). */
export function minCalibrationSize(alpha: number): number {
  checkAlpha(alpha);
  let n = Math.max(0, Math.ceil(1 / alpha) - 2);
  while (conformalQuantileIndex(n, alpha) > n) n++;
  return n;
}
