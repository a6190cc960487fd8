/**
 * How large dCor is by chance: its distribution for two unrelated n-point series (docs/science.md §3 "How large is
 * a 5-point dCor by chance?"). With few points dCor is far from 0 even when nothing is related (mean ≈ 0.67 at n = 5),
 * so one run's dCor is read against this band and its permutation p, never against 0.
 *
 * Simulation: `draws` pairs of independent standard normal series of n points; each normal by Box–Muller from two
 * draws of numpy's `default_rng(seed).random()` (src/core/random/default-rng.ts), `√(−2 ln(1 − u₁))·cos(2π u₂)`,
 * x's n values first, then y's. The mean and numpy's default ('linear') quantiles at `DCOR_NULL_PROBS` follow.
 * scripts/make-forgetting-fixtures.py repeats it draw for draw (and with numpy's own `standard_normal`, which gives
 * the same distribution from other draws); tests/unit/core/stats/dcor-null.test.ts compares.
 *
 * Pure; memoised per (n, draws, seed), since the UI asks for the same band on every redraw.
 */
import { centredDistances, meanProduct } from '../conformal/dcor';
import { createDefaultRng } from '../random/default-rng';
import { quantileSorted } from './quantile';

/** The quantiles reported: the 0.1 %, 1 %, 5 %, quartiles, median, 95 %, 99 % and 99.9 %. */
export const DCOR_NULL_PROBS: readonly number[] = [0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999];
/** Simulated pairs: a few hundred milliseconds, once per n; the 0.1 % quantile rests on 20 draws beyond it. */
export const DCOR_NULL_DRAWS = 20_000;
/** Seed of the simulation's default_rng. */
export const DCOR_NULL_SEED = 0;

export interface DcorNull {
  /** points per series */
  n: number;
  draws: number;
  seed: number;
  mean: number;
  /** numpy 'linear' quantiles at DCOR_NULL_PROBS, in that order */
  quantiles: { p: number; value: number }[];
}

const cache = new Map<string, DcorNull>();

/** The null distribution of dCor for two independent n-point standard normal series (n ≥ 2). */
export function dcorNullDistribution(n: number, o: { draws?: number; seed?: number } = {}): DcorNull {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`dCor's null distribution needs series of at least 2 points; got ${n}.`);
  const draws = o.draws ?? DCOR_NULL_DRAWS;
  const seed = o.seed ?? DCOR_NULL_SEED;
  if (!Number.isInteger(draws) || draws < 1) throw new RangeError(`draws must be a whole number ≥ 1; got ${draws}.`);
  const key = `${n}:${draws}:${seed}`;
  const hit = cache.get(key);
  if (hit) return structuredClone(hit);
  const rng = createDefaultRng(seed);
  const normal = () => {
    const u1 = rng.random();
    const u2 = rng.random();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  };
  const values = new Float64Array(draws);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const A = new Float64Array(n * n);
  const B = new Float64Array(n * n);
  let total = 0;
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < n; i++) x[i] = normal();
    for (let i = 0; i < n; i++) y[i] = normal();
    // distanceCorrelation(x, y), in its own arithmetic, without allocating per draw
    centredDistances(x, 'x', A);
    centredDistances(y, 'y', B);
    const denominator = Math.sqrt(Math.abs(meanProduct(A, A) * meanProduct(B, B)));
    values[d] = Math.sqrt(Math.max(0, denominator === 0 ? 0 : meanProduct(A, B) / denominator));
    total += values[d];
  }
  values.sort();
  const out: DcorNull = {
    n,
    draws,
    seed,
    mean: total / draws,
    quantiles: DCOR_NULL_PROBS.map((p) => ({ p, value: quantileSorted(values, p) })),
  };
  cache.set(key, out);
  return structuredClone(out);
}

/** The quantile of a null distribution at p (one of DCOR_NULL_PROBS). */
export function dcorNullQuantile(d: DcorNull, p: number): number {
  const q = d.quantiles.find((x) => Math.abs(x.p - p) < 1e-12);
  if (!q) throw new RangeError(`the null distribution has no ${p} quantile (it has ${DCOR_NULL_PROBS.join(', ')}).`);
  return q.value;
}
