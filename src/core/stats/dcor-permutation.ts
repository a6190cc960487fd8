/**
 * A permutation test for distance correlation, and mean ± sd over seeds (docs/science.md §3 "Correlations"). dCor
 * is the biased V-statistic of `dcor.distance_correlation` (../conformal/dcor.ts). Under H0 (x and y independent)
 * every pairing of the x values with the y values is equally likely, so p is the share of pairings whose dCor is at
 * least the observed one (Székely, Rizzo & Bakirov 2007, §4; `dcor`'s `distance_covariance_test` permutes y the
 * same way). "At least" counts values within 1e-12 (relative) as equal: pairings that give the same dCor up to
 * rounding (a reversed series) must count. `nullMean` is the mean dCor under H0: with few points dCor is far from 0
 * even for independent series (≈ 0.5 at n = 5), which is what a single 5-point dCor must be read against.
 */
import { centredDistances, distanceStatsSqr } from '../conformal/dcor';
import { forEachPermutation } from '../orderings/enumerate';
import { createDefaultRng } from '../random/default-rng';
import { mean, sampleStd } from './moments';

export interface MeanSd {
  mean: number;
  /** sample sd (ddof = 1); NaN with fewer than 2 values */
  sd: number;
  n: number;
}

/** Mean and sample sd (ddof = 1, numpy `std(ddof=1)`) of the finite values given; NaN mean for none, NaN sd for one. */
export function meanSd(values: readonly number[]): MeanSd {
  const v = values.filter((x) => Number.isFinite(x));
  return { mean: v.length ? mean(v) : NaN, sd: v.length > 1 ? sampleStd(v) : NaN, n: v.length };
}

export interface DcorTest {
  /** the observed dCor (mean over seeds for the pooled test) */
  dcor: number;
  p: number;
  /** true: every permutation enumerated; false: Monte Carlo */
  exact: boolean;
  /** permutations evaluated (n! when exact, else the resamples) */
  permutations: number;
  /** mean dCor over the permutations: its expectation under independence */
  nullMean: number;
  /** points per series */
  n: number;
}

export interface PermutationOptions {
  /** Monte Carlo resamples (default 9 999) */
  resamples?: number;
  /** seed of numpy's default_rng for the Monte Carlo draws (default 0) */
  seed?: number;
  /** enumerate every permutation up to this n (default 8; one series only) */
  exactMax?: number;
}

const REL = 1e-12;
const atLeast = (v: number, obs: number) => v >= obs - REL * Math.max(1, Math.abs(obs));

/** One series' pieces: dCor(x, y∘π) from the centred matrices, with y's rows and columns permuted by π. */
function pairing(x: readonly number[], y: readonly number[]) {
  const n = x.length;
  if (y.length !== n) throw new RangeError(`the two series differ in length: ${n} and ${y.length}.`);
  if (n < 2) throw new RangeError(`a permutation test needs at least 2 points; got ${n}.`);
  const A = centredDistances(x, 'x');
  const B = centredDistances(y, 'y');
  let vx = 0;
  let vy = 0;
  for (let k = 0; k < n * n; k++) {
    vx += A[k] * A[k];
    vy += B[k] * B[k];
  }
  const denom = Math.sqrt(Math.abs((vx / (n * n)) * (vy / (n * n))));
  const dcorOf = (perm: ArrayLike<number>): number => {
    if (denom === 0) return 0;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const pi = perm[i] * n;
      const ai = i * n;
      for (let j = 0; j < n; j++) s += A[ai + j] * B[pi + perm[j]];
    }
    return Math.sqrt(Math.max(0, s / (n * n) / denom));
  };
  return { n, dcorOf };
}

/**
 * The permutation test of dCor(x, y) for one pair of series. With n ≤ `exactMax` (default 8, 40 320 pairings) every
 * permutation of y is enumerated (Heap's algorithm): p = #{π : dCor(x, y∘π) ≥ dCor(x, y)} / n!, exact, no
 * randomness, at least 1/n! (1/120 with the CPCF paper's 6 tasks, n = 5). Larger n: `resamples` permutations from
 * numpy's `default_rng(seed).permutation(n)` and p = (1 + #{r : dCor_r ≥ dCor}) / (1 + resamples), dcor's convention.
 */
export function dcorPermutationTest(x: readonly number[], y: readonly number[], o: PermutationOptions = {}): DcorTest {
  const { n, dcorOf } = pairing(x, y);
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  const observed = dcorOf(identity);
  // the observed value as conformal/dcor.ts computes it (the table's number), so p is about that very number
  const reported = Math.sqrt(Math.max(0, distanceStatsSqr(x, y).correlationXy));
  const exactMax = o.exactMax ?? 8;
  const test = n <= exactMax ? exhaustive(n, dcorOf, observed) : monteCarlo([{ n, dcorOf }], observed, o);
  return { ...test, dcor: reported, n };
}

/** Every permutation (Heap's algorithm): p = #{dCor_π ≥ observed} / n!, exact, and the permutations' mean. */
function exhaustive(n: number, dcorOf: (perm: ArrayLike<number>) => number, observed: number): Pick<DcorTest, 'p' | 'exact' | 'permutations' | 'nullMean'> {
  let count = 0;
  let total = 0;
  let sum = 0;
  forEachPermutation(n, (p) => {
    const v = dcorOf(p);
    total++;
    sum += v;
    if (atLeast(v, observed)) count++;
  });
  return { p: count / total, exact: true, permutations: total, nullMean: sum / total };
}

function checkResamples(r: number | undefined): number {
  const v = r ?? 9999;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`resamples must be a whole number ≥ 1; got ${v}.`);
  return v;
}

/**
 * The permutation test of the mean dCor over several independent series (one per seed): under H0 each seed's y is
 * permuted independently, so each resample draws one permutation per series, in seed order, all from one
 * `default_rng(seed)` stream; p = (1 + #{r : mean_r ≥ mean}) / (1 + resamples). One series gives
 * `dcorPermutationTest` (exact when small).
 */
export function pooledDcorPermutationTest(pairs: readonly { x: readonly number[]; y: readonly number[] }[], o: PermutationOptions = {}): DcorTest {
  if (pairs.length === 0) throw new RangeError('the pooled test needs at least one series.');
  if (pairs.length === 1) return dcorPermutationTest(pairs[0].x, pairs[0].y, o);
  const parts = pairs.map((q) => pairing(q.x, q.y));
  const n = parts[0].n;
  const observed = mean(parts.map((q) => q.dcorOf(Int32Array.from({ length: q.n }, (_, i) => i))));
  const reported = mean(pairs.map((q) => Math.sqrt(Math.max(0, distanceStatsSqr(q.x, q.y).correlationXy))));
  return { ...monteCarlo(parts, observed, o), dcor: reported, n };
}

/**
 * `resamples` draws of the mean over the series of dCor under one permutation each (in series order, one
 * `default_rng(seed)` stream): p = (1 + #{mean_r ≥ observed}) / (1 + resamples), and the draws' mean.
 */
function monteCarlo(
  parts: readonly { n: number; dcorOf: (perm: ArrayLike<number>) => number }[],
  observed: number,
  o: PermutationOptions,
): Pick<DcorTest, 'p' | 'exact' | 'permutations' | 'nullMean'> {
  const resamples = checkResamples(o.resamples);
  const rng = createDefaultRng(o.seed ?? 0);
  let count = 0;
  let sum = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (const q of parts) s += q.dcorOf(rng.permutation(q.n));
    const v = s / parts.length;
    sum += v;
    if (atLeast(v, observed)) count++;
  }
  return { p: (1 + count) / (1 + resamples), exact: false, permutations: resamples, nullMean: sum / resamples };
}

/** x's least-squares line on the step index t = 0, 1, …, n − 1 and its residuals (x = fit + residual). */
export function linearTrend(x: readonly number[]): { fit: number[]; residuals: number[] } {
  const n = x.length;
  const tm = (n - 1) / 2;
  const xm = mean(x);
  let sxt = 0;
  let stt = 0;
  for (let t = 0; t < n; t++) {
    sxt += (t - tm) * (x[t] - xm);
    stt += (t - tm) * (t - tm);
  }
  const b = stt > 0 ? sxt / stt : 0;
  const fit = x.map((_, t) => xm + b * (t - tm));
  return { fit, residuals: x.map((v, t) => v - fit[t]) };
}

/**
 * The trend-matched null of dCor(x, y) (docs/science.md §3 "Correlations"): two series that both move over the tasks
 * (CPCF up, a_prev down) have a large dCor whatever links them. The null keeps x's straight-line trend over the step
 * index and shuffles its deviations from it, x' = fit + residual∘π, so a dCor beyond it says that x's ups and downs
 * around its trend follow y, not only its trend. p = share of pairings with dCor(x', y) ≥ dCor(x, y) (the observed
 * pairing among them). One series of n ≤ `exactMax` (default 8): every permutation (Heap's algorithm), exact. Else (or
 * several series, whose mean dCor is tested): `resamples` draws, each one `default_rng(seed).permutation(n)` per series
 * in order, p = (1 + #{mean_r ≥ mean}) / (1 + resamples).
 */
export function trendMatchedDcorTest(pairs: readonly { x: readonly number[]; y: readonly number[] }[], o: PermutationOptions = {}): DcorTest {
  if (pairs.length === 0) throw new RangeError('the trend-matched test needs at least one series.');
  const parts = pairs.map((q) => {
    const n = q.x.length;
    if (q.y.length !== n) throw new RangeError(`the two series differ in length: ${n} and ${q.y.length}.`);
    if (n < 3) throw new RangeError(`a trend-matched test needs at least 3 points; got ${n}.`);
    const { fit, residuals } = linearTrend(q.x);
    const xp = new Array<number>(n);
    const dcorOf = (perm: ArrayLike<number>): number => {
      for (let t = 0; t < n; t++) xp[t] = fit[t] + residuals[perm[t]];
      return Math.sqrt(Math.max(0, distanceStatsSqr(xp, q.y).correlationXy));
    };
    return { n, dcorOf, observed: Math.sqrt(Math.max(0, distanceStatsSqr(q.x, q.y).correlationXy)) };
  });
  const n = parts[0].n;
  const observed = mean(parts.map((q) => q.observed));
  const exactMax = o.exactMax ?? 8;
  const test = parts.length === 1 && n <= exactMax ? exhaustive(n, parts[0].dcorOf, observed) : monteCarlo(parts, observed, o);
  return { ...test, dcor: observed, n };
}
