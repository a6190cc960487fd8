/**
 * A protocol's estimate of the performance distribution and how good it is (docs/science.md §2):
 *
 *   - `gaussianEstimate(values)`: the Gaussian N(μ̂, σ̂²) fitted to the protocol's L values with the paper's
 *     population variance (divide by L) — RS from its seeds' orderings, EDGE from {hard, easy, median}, any
 *     protocol with more samples likewise — with the values' range for display.
 *   - `estimateQuality(truthValues, estimateValues)`: JSD (bits, jsd.ts) and W1 (w1.ts, in accuracy points ×100)
 *     of that Gaussian against the empirical truth.
 *   - `prepareTruth` + `qualityAgainstTruth`: the same with the truth's grid and quantiles computed once, for
 *     scoring many estimates against one truth (the sample-count study, live charts).
 */
import { fitGaussian, type Gaussian } from './gaussian';
import { jsdAgainstGrid, jsdGrid, type JsdGrid } from './jsd';
import { max, min } from './moments';
import { truthQuantiles, w1AgainstQuantiles } from './w1';

export interface GaussianEstimate extends Gaussian {
  /** Number of values (L). */
  n: number;
  /** Population variance σ̂². */
  variance: number;
  min: number;
  max: number;
}

export interface EstimateQuality {
  /** Jensen–Shannon divergence in bits, [0, 1]; NaN when the truth has no spread. */
  jsd: number;
  /** W1 in accuracy points (×100 of the values' unit). */
  w1: number;
  /** W1 in the values' own unit. */
  w1Raw: number;
}

export interface PreparedTruth {
  n: number;
  grid: JsdGrid;
  quantiles: Float64Array;
}

/** Fit the protocol's Gaussian (population variance). */
export function gaussianEstimate(values: ArrayLike<number>): GaussianEstimate {
  const g = fitGaussian(values);
  return { n: values.length, mean: g.mean, std: g.std, variance: g.std * g.std, min: min(values), max: max(values) };
}

/** The truth's JSD grid and W1 quantiles, computed once. */
export function prepareTruth(truthValues: ArrayLike<number>): PreparedTruth {
  return { n: truthValues.length, grid: jsdGrid(truthValues), quantiles: truthQuantiles(truthValues) };
}

/** JSD and W1 of a Gaussian against a prepared truth. */
export function qualityAgainstTruth(truth: PreparedTruth, g: Gaussian): EstimateQuality {
  const w1Raw = w1AgainstQuantiles(truth.quantiles, g);
  return { jsd: jsdAgainstGrid(truth.grid, g), w1: 100 * w1Raw, w1Raw };
}

/** JSD and W1 of the Gaussian fitted to `estimateValues` against the truth's values. */
export function estimateQuality(truthValues: ArrayLike<number>, estimateValues: ArrayLike<number>): EstimateQuality {
  return qualityAgainstTruth(prepareTruth(truthValues), fitGaussian(estimateValues));
}
