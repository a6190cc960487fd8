/**
 * The normal distribution N(μ, σ²) and the Gaussian fit the protocols' estimates use (docs/science.md §2:
 * "Gaussian N(μ̂, σ̂²) from its L orderings with the paper's population variance (divide by L)").
 *
 * pdf / cdf / sf / quantile follow scipy.stats.norm(loc=μ, scale=σ): cdf = Φ((x−μ)/σ) with Cephes `ndtr`
 * (erf/erfc, relative error ~1e-16 in the body, ~1e-14 in the far tail), quantile = μ + σ·Φ⁻¹(p) with Cephes
 * `ndtri` (special.ts).
 *
 * σ = 0 (all estimate values equal, e.g. EDGE's three orderings scoring the same) is a point mass at μ: cdf is
 * the step 1[x ≥ μ], quantile is μ for every p in (0, 1), pdf is +∞ at μ and 0 elsewhere. scipy returns NaN
 * for scale 0; we keep the limit so a degenerate estimate still has a JSD and a W1 (documented in jsd.ts, w1.ts).
 */
import { mean, populationStd } from './moments';
import { ndtr, ndtri } from './special';

export interface Gaussian {
  mean: number;
  /** Standard deviation σ ≥ 0. */
  std: number;
}

function checkGaussian(g: Gaussian): void {
  if (!Number.isFinite(g.mean) || !Number.isFinite(g.std) || g.std < 0) {
    throw new RangeError(`A Gaussian needs a finite mean and a finite std ≥ 0; got mean ${g.mean}, std ${g.std}.`);
  }
}

/** Fit N(μ̂, σ̂²) to values: μ̂ = mean, σ̂ = population std (divide by n). Needs at least one finite value. */
export function fitGaussian(values: ArrayLike<number>): Gaussian {
  if (!values || values.length === 0) throw new RangeError('fitGaussian needs at least one value.');
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`fitGaussian: value ${i} is ${values[i]}, not a finite number.`);
  }
  return { mean: mean(values), std: populationStd(values) };
}

const INV_SQRT_2PI = 0.3989422804014327;

/** Density of N(mean, std²) at x. */
export function normalPdf(x: number, g: Gaussian = { mean: 0, std: 1 }): number {
  checkGaussian(g);
  if (g.std === 0) return x === g.mean ? Infinity : 0;
  const z = (x - g.mean) / g.std;
  return (INV_SQRT_2PI * Math.exp(-0.5 * z * z)) / g.std;
}

/** P(X ≤ x) for X ~ N(mean, std²) (scipy.stats.norm.cdf). */
export function normalCdf(x: number, g: Gaussian = { mean: 0, std: 1 }): number {
  checkGaussian(g);
  if (g.std === 0) return Number.isNaN(x) ? NaN : x >= g.mean ? 1 : 0;
  return ndtr((x - g.mean) / g.std);
}

/** P(X > x) (scipy.stats.norm.sf), accurate in the upper tail. */
export function normalSf(x: number, g: Gaussian = { mean: 0, std: 1 }): number {
  checkGaussian(g);
  if (g.std === 0) return Number.isNaN(x) ? NaN : x >= g.mean ? 0 : 1;
  return ndtr(-(x - g.mean) / g.std);
}

/** The p-quantile μ + σ·Φ⁻¹(p) (scipy.stats.norm.ppf); −∞ at 0, +∞ at 1, NaN outside [0, 1]. */
export function normalQuantile(p: number, g: Gaussian = { mean: 0, std: 1 }): number {
  checkGaussian(g);
  if (!(p >= 0 && p <= 1)) return NaN;
  if (g.std === 0) return p === 0 ? -Infinity : p === 1 ? Infinity : g.mean;
  return g.mean + g.std * ndtri(p);
}
