/**
 * 1-Wasserstein distance between a protocol's Gaussian estimate and the empirical truth (docs/science.md §2):
 *
 *   W1 = ∫₀¹ |F_truth⁻¹(u) − F_est⁻¹(u)| du  ≈  (1/4096) Σ_k |F_truth⁻¹(u_k) − F_est⁻¹(u_k)|,  u_k = (k + ½)/4096,
 *
 * the midpoint rule on `W1_MIDPOINTS` = 4096 points, reported in accuracy points (×100; accuracies are fractions
 * internally) by `w1Points`.
 *
 * Decisions (mirrored in scripts/make-stats-fixtures.py):
 *   - F_truth⁻¹ is the inverse of the empirical step CDF, Q(u) = inf{x : F_n(x) ≥ u} = x_(⌈n·u⌉) (1-based order
 *     statistic) — numpy's `np.quantile(truth, u, method='inverted_cdf')`. No interpolation: the truth is a
 *     discrete distribution over the evaluated orderings, and this is its exact quantile function, so the
 *     integral is the true W1 between that discrete law and the Gaussian (up to the midpoint rule).
 *   - F_est⁻¹(u) = μ̂ + σ̂·Φ⁻¹(u) (scipy `norm.ppf(u, μ̂, σ̂)`); σ̂ = 0 gives the constant μ̂ (a point mass).
 *   - A single truth value is allowed (W1 to a point); the truth must be finite and non-empty.
 */
import type { Gaussian } from './gaussian';
import { ndtri } from './special';

export const W1_MIDPOINTS = 4096;

let standardQuantiles: Float64Array | undefined;

/** The midpoints u_k = (k + ½)/4096. */
export function w1Midpoints(count = W1_MIDPOINTS): Float64Array {
  const u = new Float64Array(count);
  for (let k = 0; k < count; k++) u[k] = (k + 0.5) / count;
  return u;
}

/** Φ⁻¹(u_k), computed once. */
function standardNormalQuantiles(): Float64Array {
  if (!standardQuantiles) standardQuantiles = w1Midpoints().map((u) => ndtri(u));
  return standardQuantiles;
}

/** Inverse of the empirical step CDF of ascending `sorted` at u ∈ (0, 1]: x_(⌈n·u⌉) (numpy 'inverted_cdf'). */
export function empiricalQuantile(sorted: ArrayLike<number>, u: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const j = Math.min(n - 1, Math.max(0, Math.ceil(n * u) - 1));
  return sorted[j];
}

/** F_truth⁻¹ at the 4096 midpoints (computed once per truth, reused against many estimates). */
export function truthQuantiles(truth: ArrayLike<number>): Float64Array {
  if (!truth || truth.length === 0) throw new RangeError('W1 needs at least one truth value.');
  const sorted = Float64Array.from(truth as ArrayLike<number>);
  for (let i = 0; i < sorted.length; i++) {
    if (!Number.isFinite(sorted[i])) throw new RangeError(`W1 truth: value ${i} is ${sorted[i]}, not a finite number.`);
  }
  sorted.sort();
  const u = w1Midpoints();
  return u.map((v) => empiricalQuantile(sorted, v));
}

/** W1 (in the data's own units) of the Gaussian `g` against prepared truth quantiles. */
export function w1AgainstQuantiles(quantiles: Float64Array, g: Gaussian): number {
  if (!Number.isFinite(g.mean) || !Number.isFinite(g.std) || g.std < 0) {
    throw new RangeError(`W1 needs a Gaussian with a finite mean and std ≥ 0; got mean ${g.mean}, std ${g.std}.`);
  }
  const z = standardNormalQuantiles();
  let s = 0;
  for (let k = 0; k < quantiles.length; k++) s += Math.abs(quantiles[k] - (g.mean + g.std * z[k]));
  return s / quantiles.length;
}

/** W1 between the Gaussian estimate and the empirical truth, in the data's units. */
export function w1Distance(truth: ArrayLike<number>, g: Gaussian): number {
  return w1AgainstQuantiles(truthQuantiles(truth), g);
}

/** W1 in accuracy points (×100), as docs/science.md §2 reports it, for accuracies given as fractions. */
export function w1Points(truth: ArrayLike<number>, g: Gaussian): number {
  return 100 * w1Distance(truth, g);
}
