/**
 * Moments of a sample (docs/science.md §2): mean, population and sample variance / standard deviation, min, max.
 *
 * The protocols' Gaussian estimates use the **population** variance (divide by L, the paper's choice);
 * the sample (Bessel-corrected, divide by L−1) versions are here for the reader who wants them.
 * Two-pass algorithm (mean first, then Σ(x−mean)²), as numpy's `var`: no cancellation for data far from 0.
 * Sums are numpy's pairwise summation (`sum`), so mean and variance agree with numpy to the last bit in practice
 * (which keeps Box-Cox's Brent search on scipy's exact path, boxcox.ts).
 * Empty input gives NaN everywhere (including min and max, rather than ±∞).
 */

function check(values: ArrayLike<number>, what: string): void {
  if (!values || typeof values.length !== 'number') throw new TypeError(`${what}: expected an array of numbers.`);
}

const PW_BLOCKSIZE = 128;

function pairwise(a: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i];
    return res;
  }
  if (n <= PW_BLOCKSIZE) {
    let r0 = a[start];
    let r1 = a[start + 1];
    let r2 = a[start + 2];
    let r3 = a[start + 3];
    let r4 = a[start + 4];
    let r5 = a[start + 5];
    let r6 = a[start + 6];
    let r7 = a[start + 7];
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      const k = start + i;
      r0 += a[k];
      r1 += a[k + 1];
      r2 += a[k + 2];
      r3 += a[k + 3];
      r4 += a[k + 4];
      r5 += a[k + 5];
      r6 += a[k + 6];
      r7 += a[k + 7];
    }
    // prettier-ignore
    let res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise(a, start, n2) + pairwise(a, start + n2, n - n2);
}

/**
 * Σ values by numpy's pairwise summation (`np.sum` of a float64 array: 8 accumulators per block of ≤ 128,
 * blocks halved recursively; rounding error O(log n) instead of O(n)).
 */
export function sum(values: ArrayLike<number>): number {
  check(values, 'sum');
  return 0 + pairwise(values, 0, values.length);
}

/** Arithmetic mean (NaN for no values). */
export function mean(values: ArrayLike<number>): number {
  check(values, 'mean');
  const n = values.length;
  if (n === 0) return NaN;
  return sum(values) / n;
}

/** Σ (x − mean)², the shared second-pass sum. */
function sumSquaredDeviations(values: ArrayLike<number>, m: number): number {
  const sq = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const d = values[i] - m;
    sq[i] = d * d;
  }
  return pairwise(sq, 0, sq.length);
}

/**
 * Variance with `ddof` delta degrees of freedom: Σ(x−mean)² / (n − ddof). ddof = 0 is the population variance
 * (numpy's default, the paper's), ddof = 1 the unbiased sample variance. NaN when n − ddof ≤ 0.
 */
export function variance(values: ArrayLike<number>, ddof = 0): number {
  check(values, 'variance');
  const n = values.length;
  if (n - ddof <= 0) return NaN;
  return sumSquaredDeviations(values, mean(values)) / (n - ddof);
}

/** Population variance (divide by n). */
export function populationVariance(values: ArrayLike<number>): number {
  return variance(values, 0);
}

/** Sample variance (divide by n − 1; NaN for fewer than 2 values). */
export function sampleVariance(values: ArrayLike<number>): number {
  return variance(values, 1);
}

/** Standard deviation with `ddof` (see `variance`). */
export function std(values: ArrayLike<number>, ddof = 0): number {
  return Math.sqrt(variance(values, ddof));
}

/** Population standard deviation (divide by n). */
export function populationStd(values: ArrayLike<number>): number {
  return std(values, 0);
}

/** Sample standard deviation (divide by n − 1). */
export function sampleStd(values: ArrayLike<number>): number {
  return std(values, 1);
}

/** Smallest value (NaN for no values or if any value is NaN). */
export function min(values: ArrayLike<number>): number {
  check(values, 'min');
  if (values.length === 0) return NaN;
  let m = Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) return NaN;
    if (v < m) m = v;
  }
  return m;
}

/** Largest value (NaN for no values or if any value is NaN). */
export function max(values: ArrayLike<number>): number {
  check(values, 'max');
  if (values.length === 0) return NaN;
  let m = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) return NaN;
    if (v > m) m = v;
  }
  return m;
}

export interface Moments {
  n: number;
  mean: number;
  /** Population variance (divide by n). */
  variance: number;
  /** Population standard deviation. */
  std: number;
  /** Sample variance (divide by n − 1); NaN for n < 2. */
  sampleVariance: number;
  /** Sample standard deviation; NaN for n < 2. */
  sampleStd: number;
  min: number;
  max: number;
}

/** All of the above at once. */
export function moments(values: ArrayLike<number>): Moments {
  check(values, 'moments');
  const n = values.length;
  const m = mean(values);
  const ss = n > 0 ? sumSquaredDeviations(values, m) : NaN;
  const v = n > 0 ? ss / n : NaN;
  const sv = n > 1 ? ss / (n - 1) : NaN;
  return { n, mean: m, variance: v, std: Math.sqrt(v), sampleVariance: sv, sampleStd: Math.sqrt(sv), min: min(values), max: max(values) };
}
