/**
 * The distribution of S(O) over Ω (docs/science.md §1–2): exact when |Ω| ≤ limit (every ordering enumerated), else a
 * seeded uniform sample of orderings (labelled so). Reported as a fixed-width histogram plus moments, and used to
 * place any ordering within Ω: `fractionBelow(s)` = share of orderings with S < s (strictly lower, up to 1e-12).
 */
import { countOrderings } from './count';
import { forEachOrdering, orderingToLabels } from './enumerate';
import { sampleOrderingsByShuffle } from './sample';
import { similarityScoreOfLabels } from './score';
import type { SquareMatrix, TaskSizes } from './types';

export interface ScoreHistogramBin {
  x0: number;
  x1: number;
  count: number;
}

export interface ScoreDistribution {
  kind: 'exact' | 'sample';
  /** Orderings scored: |Ω| when exact, the sample size otherwise. */
  count: number;
  seed?: number;
  min: number;
  max: number;
  mean: number;
  std: number;
  bins: ScoreHistogramBin[];
}

export interface ScoreDistributionOptions {
  limit?: number; // enumerate when |Ω| ≤ limit (default 10^6), or when the sample would be all of Ω
  sampleSize?: number; // else draw this many distinct orderings (default 20 000)
  seed?: number; // seed of the sample (default 0)
  binCount?: number; // default 40
}

/** All scores (sorted ascending) and how they were obtained. */
export function scoreValues(sim: SquareMatrix, sizes: TaskSizes, options: ScoreDistributionOptions = {}) {
  const k = sizes.length;
  const n = sim.n;
  const scale = k < 2 ? 0 : k / ((k - 1) * n);
  const omega = countOrderings(sizes);
  const limit = options.limit ?? 1_000_000;
  const sampleSize = options.sampleSize ?? 20_000;
  let values: Float64Array;
  let kind: ScoreDistribution['kind'];
  // a sample of |Ω| or more distinct orderings is every ordering: enumerate them (a sample could not be drawn)
  if (omega <= BigInt(limit) || omega <= BigInt(sampleSize)) {
    values = new Float64Array(Number(omega));
    forEachOrdering(sizes, (labels, rank) => {
      values[rank] = similarityScoreOfLabels(labels, sim, scale);
    });
    kind = 'exact';
  } else {
    const drawn = sampleOrderingsByShuffle(sizes, sampleSize, options.seed ?? 0);
    values = Float64Array.from(drawn, (tasks) => similarityScoreOfLabels(orderingToLabels(tasks, sizes), sim, scale));
    kind = 'sample';
  }
  values.sort();
  return { kind, values, seed: kind === 'sample' ? (options.seed ?? 0) : undefined };
}

/** Share of `sorted` strictly below s (values within `tolerance` of s count as equal), in [0, 1]. */
export function fractionBelow(sorted: Float64Array, s: number, tolerance = 1e-12): number {
  return lowerBound(sorted, s - tolerance) / sorted.length;
}

function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Histogram and moments of sorted scores (population std, as docs/science.md §2 uses). */
export function summariseScores(sorted: Float64Array, kind: ScoreDistribution['kind'], binCount = 40, seed?: number): ScoreDistribution {
  const count = sorted.length;
  const min = sorted[0];
  const max = sorted[count - 1];
  let sum = 0;
  for (const v of sorted) sum += v;
  const mean = sum / count;
  let ss = 0;
  for (const v of sorted) ss += (v - mean) ** 2;
  const std = Math.sqrt(ss / count);
  const width = max > min ? (max - min) / binCount : 1;
  const bins: ScoreHistogramBin[] = Array.from({ length: max > min ? binCount : 1 }, (_, b) => ({
    x0: min + b * width,
    x1: max > min ? (b === binCount - 1 ? max : min + (b + 1) * width) : min,
    count: 0,
  }));
  for (const v of sorted) {
    const b = max > min ? Math.min(binCount - 1, Math.floor((v - min) / width)) : 0;
    bins[b].count++;
  }
  return { kind, count, seed, min, max, mean, std, bins };
}
