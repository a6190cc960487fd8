/**
 * Uncertainty of the Ground-truth lab's statistics while a run is partial (docs/verdicts.md §"Partial results"):
 *
 * - **Pearson R**: the Fisher z interval, tanh(atanh(r) ± z_{1−α/2} / √(n − 3)), as scipy's
 *   `pearsonr(x, y).confidence_interval(confidence_level)` (its default, non-bootstrap method). Needs n ≥ 4.
 * - **The truth's mean**: the t interval x̄ ± t_{n−1, 1−α/2} · s/√n, with s the sample (n − 1) standard deviation,
 *   times the finite-population correction √(1 − n/N) when the n values are a uniform sample without replacement of
 *   N planned orderings (the mean asked about is the mean of those N: at n = N the interval is the point). As
 *   `scipy.stats.t.interval(cl, n − 1, loc=x̄, scale=s/√n · √(1 − n/N))`. Needs n ≥ 2.
 *
 * The t quantile is found by bisection on the t distribution's CDF (regularised incomplete beta, stats/special.ts),
 * to |Δp| < 1e-14 — the figures are checked against scipy in tests/unit/core/verdict/intervals.test.ts.
 */
import { betainc, ndtri } from '../stats/special';

export interface Interval {
  lo: number;
  hi: number;
  /** e.g. 0.95 */
  level: number;
}

/** The CDF of Student's t with `df` degrees of freedom at x. */
export function tCdf(x: number, df: number): number {
  if (!(df > 0) || Number.isNaN(x)) return NaN;
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  const tail = 0.5 * betainc(df / 2, 0.5, df / (df + x * x));
  return x >= 0 ? 1 - tail : tail;
}

/** The p-quantile of Student's t with `df` degrees of freedom (= scipy.stats.t.ppf(p, df)). */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return NaN;
  if (p === 0.5) return 0;
  if (p < 0.5) return -tQuantile(1 - p, df);
  // p > 0.5: the quantile is positive; grow the bracket, then bisect
  let lo = 0;
  let hi = 1;
  while (tCdf(hi, df) < p) {
    lo = hi;
    hi *= 2;
    if (hi > 1e12) return Infinity;
  }
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Fisher z interval of Pearson's r from n pairs; null when n < 4 or r is not in (−1, 1). */
export function pearsonInterval(r: number, n: number, level = 0.95): Interval | null {
  if (!(n >= 4) || !Number.isFinite(r) || Math.abs(r) >= 1) return null;
  const z = Math.atanh(r);
  const half = ndtri(1 - (1 - level) / 2) / Math.sqrt(n - 3);
  return { lo: Math.tanh(z - half), hi: Math.tanh(z + half), level };
}

/**
 * t interval of the mean of `values`; with `population` N (the number of orderings the values are a uniform sample
 * of, without replacement), the finite-population correction √(1 − n/N). null when n < 2.
 */
export function meanInterval(values: readonly number[], level = 0.95, population?: number): Interval | null {
  const n = values.length;
  if (n < 2) return null;
  let m = 0;
  for (const v of values) m += v;
  m /= n;
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  const s = Math.sqrt(ss / (n - 1));
  const fpc = population !== undefined && population >= n ? Math.sqrt(1 - n / population) : 1;
  const half = tQuantile(1 - (1 - level) / 2, n - 1) * (s / Math.sqrt(n)) * fpc;
  return { lo: m - half, hi: m + half, level };
}

/** Mean ± sd of a few seeds' values, with the t interval of the mean (null with fewer than 2 values). */
export interface Spread {
  mean: number;
  /** sample sd (ddof = 1); NaN for one value */
  sd: number;
  n: number;
  interval: Interval | null;
}

/** The spread of one value per seed (non-finite values are left out). */
export function spreadOf(values: readonly number[], level = 0.95): Spread {
  const v = values.filter((x) => Number.isFinite(x));
  const n = v.length;
  const mean = n ? v.reduce((a, b) => a + b, 0) / n : NaN;
  const sd = n > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (n - 1)) : NaN;
  return { mean, sd, n, interval: meanInterval(v, level) };
}
