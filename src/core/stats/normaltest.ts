/**
 * D'Agostino–Pearson K² omnibus test of normality (docs/science.md §2; EDGE paper Table A3 "D'Agostino's p"), as
 * `scipy.stats.normaltest(x)`: K² = Z_skew² + Z_kurt², p = P(χ²₂ > K²) = exp(−K²/2).
 *
 *   - `skewTest` (scipy.stats.skewtest): D'Agostino's transformation of the biased sample skewness
 *     b₁ = m₃/m₂^{3/2}; needs n ≥ 8.
 *   - `kurtosisTest` (scipy.stats.kurtosistest): Anscombe & Glynn's transformation of the biased sample kurtosis
 *     b₂ = m₄/m₂²; needs n ≥ 5, and scipy warns below n = 20 ("kurtosistest only valid for n>=20") — we pass
 *     that warning on.
 *   - The omnibus test therefore needs n ≥ 8 (scipy returns NaN below; we throw a RangeError naming the test).
 * Central moments m_k = mean((x − x̄)^k), as scipy's `_moment`. Constant data (m₂ ≤ (ε·x̄)²): NaN statistic and
 * p-value, as scipy.
 */
import { ndtr } from './special';

export interface ZTestResult {
  statistic: number;
  /** Two-sided normal p-value 2·Φ(−|Z|). */
  pvalue: number;
}

export interface NormalTestResult {
  /** K² = skew.statistic² + kurtosis.statistic². */
  statistic: number;
  /** P(χ²₂ > K²). */
  pvalue: number;
  n: number;
  skew: ZTestResult;
  kurtosis: ZTestResult;
  warning?: string;
}

export const SKEWTEST_MIN_N = 8;
export const KURTOSISTEST_MIN_N = 5;
export const NORMALTEST_MIN_N = 8;

function checkValues(values: ArrayLike<number>, minN: number, test: string): number {
  const n = values.length;
  if (n < minN) throw new RangeError(`${test} needs at least ${minN} values; got ${n}.`);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`${test}: value ${i} is ${values[i]}, not a finite number.`);
  }
  return n;
}

/** Central moments m2, m3, m4 and the mean. */
function centralMoments(values: ArrayLike<number>): { mean: number; m2: number; m3: number; m4: number } {
  const n = values.length;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i];
  const mean = s / n;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean;
    const d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  return { mean, m2: m2 / n, m3: m3 / n, m4: m4 / n };
}

function isZeroSpread(m2: number, mean: number): boolean {
  return m2 <= (Number.EPSILON * mean) ** 2;
}

/** Biased sample skewness m₃/m₂^{3/2} (scipy.stats.skew); NaN for constant data. */
export function sampleSkewness(values: ArrayLike<number>): number {
  const { mean, m2, m3 } = centralMoments(values);
  return isZeroSpread(m2, mean) ? NaN : m3 / m2 ** 1.5;
}

/** Biased sample kurtosis m₄/m₂² (Pearson's, not excess: scipy.stats.kurtosis(fisher=False)); NaN for constant data. */
export function sampleKurtosis(values: ArrayLike<number>): number {
  const { mean, m2, m4 } = centralMoments(values);
  return isZeroSpread(m2, mean) ? NaN : m4 / m2 ** 2;
}

function twoSided(z: number): number {
  return 2 * ndtr(-Math.abs(z));
}

/** D'Agostino's skewness test (scipy.stats.skewtest). */
export function skewTest(values: ArrayLike<number>): ZTestResult {
  const n = checkValues(values, SKEWTEST_MIN_N, "D'Agostino's skewness test");
  const b2 = sampleSkewness(values);
  let y = b2 * Math.sqrt(((n + 1) * (n + 3)) / (6.0 * (n - 2)));
  const beta2 = (3.0 * (n ** 2 + 27 * n - 70) * (n + 1) * (n + 3)) / ((n - 2.0) * (n + 5) * (n + 7) * (n + 9));
  const w2 = -1 + Math.sqrt(2 * (beta2 - 1));
  const delta = 1 / Math.sqrt(0.5 * Math.log(w2));
  const alpha = Math.sqrt(2.0 / (w2 - 1));
  if (y === 0) y = 1;
  const z = delta * Math.log(y / alpha + Math.sqrt((y / alpha) ** 2 + 1));
  return { statistic: z, pvalue: twoSided(z) };
}

/** Anscombe–Glynn kurtosis test (scipy.stats.kurtosistest). */
export function kurtosisTest(values: ArrayLike<number>): ZTestResult & { warning?: string } {
  const n = checkValues(values, KURTOSISTEST_MIN_N, 'The Anscombe–Glynn kurtosis test');
  const b2 = sampleKurtosis(values);
  const e = (3.0 * (n - 1)) / (n + 1);
  const varb2 = (24.0 * n * (n - 2) * (n - 3)) / ((n + 1) * (n + 1.0) * (n + 3) * (n + 5));
  const x = (b2 - e) / varb2 ** 0.5;
  const sqrtbeta1 = ((6.0 * (n * n - 5 * n + 2)) / ((n + 7) * (n + 9))) * ((6.0 * (n + 3) * (n + 5)) / (n * (n - 2) * (n - 3))) ** 0.5;
  const a = 6.0 + (8.0 / sqrtbeta1) * (2.0 / sqrtbeta1 + (1 + 4.0 / sqrtbeta1 ** 2) ** 0.5);
  const term1 = 1 - 2 / (9.0 * a);
  const denom = 1 + x * (2 / (a - 4.0)) ** 0.5;
  const term2 = denom === 0 ? NaN : Math.sign(denom) * ((1 - 2.0 / a) / Math.abs(denom)) ** (1 / 3);
  const z = (term1 - term2) / (2 / (9.0 * a)) ** 0.5;
  const out: ZTestResult & { warning?: string } = { statistic: z, pvalue: twoSided(z) };
  if (n < 20) out.warning = `The kurtosis test is only valid for n ≥ 20 (scipy warns); n = ${n}.`;
  return out;
}

/** D'Agostino–Pearson K² and its χ²₂ p-value (scipy.stats.normaltest). Needs at least 8 values. */
export function dagostinoPearson(values: ArrayLike<number>): NormalTestResult {
  const n = checkValues(values, NORMALTEST_MIN_N, "The D'Agostino–Pearson K² test (normaltest)");
  const skew = skewTest(values);
  const kurt = kurtosisTest(values);
  const k2 = skew.statistic * skew.statistic + kurt.statistic * kurt.statistic;
  const out: NormalTestResult = {
    statistic: k2,
    pvalue: Number.isNaN(k2) ? NaN : Math.exp(-k2 / 2),
    n,
    skew,
    kurtosis: { statistic: kurt.statistic, pvalue: kurt.pvalue },
  };
  if (kurt.warning) out.warning = kurt.warning;
  return out;
}
