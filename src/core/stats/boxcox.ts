/**
 * Box-Cox power transformation with λ by maximum likelihood, as `scipy.stats.boxcox(x)` (docs/science.md §2
 * "Normality"; EDGE paper Table A3): y = (x^λ − 1)/λ (scipy.special.boxcox: expm1(λ·log x)/λ, log x for |λ| < 1e-19);
 * llf(λ) = (λ − 1) Σ log x − (n/2) log σ²_y(λ) (scipy.stats.boxcox_llf, the variance in log space like scipy's
 * `_log_var`, so large |λ| does not overflow); λ̂ by `scipy.optimize.brent` on −llf with bracket (−2, 2) (brent.ts).
 * Non-positive data are shifted by science.md's rule (`boxcoxShift`, which scripts/make-stats-fixtures.py applies
 * too); constant data and fewer than 2 values throw, as scipy.
 */
import { brentMinimize } from './brent';
import { populationVariance, sum } from './moments';

export interface BoxCoxResult {
  /** λ̂ (maximum likelihood). */
  lambda: number;
  /** The amount added to every value before transforming (0 when all values were positive). */
  shift: number;
  /** The transformed values, in input order. */
  transformed: Float64Array;
  /** llf(λ̂). */
  logLikelihood: number;
}

export const BOXCOX_BRACKET: [number, number] = [-2, 2];

/** One value's transform (scipy.special.boxcox(x, λ)). x must be > 0. */
export function boxcoxValue(x: number, lambda: number): number {
  if (Math.abs(lambda) < 1e-19) return Math.log(x);
  return Math.expm1(lambda * Math.log(x)) / lambda;
}

/** Transform every value with a given λ (no shift applied). */
export function boxcoxTransform(values: ArrayLike<number>, lambda: number): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = boxcoxValue(values[i], lambda);
  return out;
}

/**
 * scipy.special.logsumexp(a, b=signs, return_sign=True) as scipy 1.17 computes it: the maximal elements are taken
 * out of the sum (m = Σ of their weights), s = Σ_rest b·exp(a − a_max) / m (numpy pairwise sum),
 * log|Σ| = log1p(s) + log|m| + a_max (with s ↦ −s − 2 when s < −1); when that is not finite, the naive
 * log|Σ b·exp(a)|. Returns [log|Σ|, sign].
 */
function logSumExp(a: ArrayLike<number>, signs?: ArrayLike<number>): [number, number] {
  const n = a.length;
  let amax = -Infinity;
  for (let i = 0; i < n; i++) {
    const w = signs ? signs[i] : 1;
    if (w !== 0 && a[i] > amax) amax = a[i];
  }
  let m = 0;
  const terms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const w = signs ? signs[i] : 1;
    if (w === 0) continue;
    if (a[i] === amax) m += w;
    else terms[i] = w * Math.exp(a[i] - amax);
  }
  let s = sum(terms);
  if (s !== 0) s /= m;
  let sgn = Math.sign(s + 1) * Math.sign(m);
  if (s < -1) s = -s - 2;
  let out = Math.log1p(s) + Math.log(Math.abs(m)) + amax;
  if (!Number.isFinite(out)) {
    const naive = new Float64Array(n);
    for (let i = 0; i < n; i++) naive[i] = (signs ? signs[i] : 1) * Math.exp(a[i]);
    const t = sum(naive);
    out = Math.log(Math.abs(t));
    sgn = Math.sign(t);
  }
  return [out, sgn];
}

/** log of the population variance of exp(logx), from logx (scipy `_log_var`). */
function logVariance(logx: Float64Array): number {
  const n = logx.length;
  const logmean = logSumExp(logx)[0] - Math.log(n);
  const two = new Float64Array(n);
  const pair = new Float64Array(2);
  for (let i = 0; i < n; i++) {
    pair[0] = logx[i];
    pair[1] = logmean;
    two[i] = 2 * logSumExp(pair, PLUS_MINUS)[0];
  }
  return logSumExp(two)[0] - Math.log(n);
}

const PLUS_MINUS = [1, -1];

/** The Box-Cox log-likelihood llf(λ) of positive data (scipy.stats.boxcox_llf). */
export function boxcoxLogLikelihood(lambda: number, data: ArrayLike<number>): number {
  const n = data.length;
  if (n === 0) return NaN;
  const logdata = new Float64Array(n);
  for (let i = 0; i < n; i++) logdata[i] = Math.log(data[i]);
  const sumLog = sum(logdata);
  let logvar: number;
  if (lambda === 0) {
    logvar = Math.log(populationVariance(logdata));
  } else {
    const logx = new Float64Array(n);
    for (let i = 0; i < n; i++) logx[i] = lambda * logdata[i];
    logvar = logVariance(logx) - 2 * Math.log(Math.abs(lambda));
  }
  return (lambda - 1) * sumLog - (n / 2) * logvar;
}

function checkData(values: ArrayLike<number>): void {
  if (values.length < 2) throw new RangeError(`Box-Cox needs at least 2 values; got ${values.length}.`);
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`Box-Cox: value ${i} is ${values[i]}, not a finite number.`);
  }
  let constant = true;
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) constant = false;
  if (constant) throw new RangeError('Box-Cox needs data that are not all equal (scipy: "Data must not be constant").');
}

/**
 * scipy's `ymax` default: the largest |y| the transform may reach. scipy's overflow guard: when the transform of the
 * most extreme value (max if all ≥ 1, min if all ≤ 1, else whichever transforms to the larger |y|) exceeds it, λ
 * becomes the λ that maps that value to exactly ±ymax (scipy solves it with Lambert W; we by Newton,
 * `boxcoxInverseLambda`). It only acts on data far from 1 with a tiny relative spread (10⁶ + noise).
 */
export const BOXCOX_YMAX = Number.MAX_VALUE / 10000;

/**
 * The λ with boxcox(x, λ) = ±ymax (sign of x − 1), for x ≠ 1 (scipy `_boxcox_inv_lmbda`). Writing μ = |λ| and
 * L = |log x|, x^λ = 1 + λ·y becomes μL = log μ + log(ymax) + log1p(1/(μ·ymax)), whose large root Newton finds
 * from μ₀ = log(ymax)/L.
 */
function boxcoxInverseLambda(x: number, ymax: number): number {
  const L = Math.abs(Math.log(x));
  const logY = Math.log(ymax);
  let mu = logY / L;
  for (let i = 0; i < 100; i++) {
    const g = mu * L - Math.log(mu) - logY - Math.log1p(1 / (mu * ymax));
    const step = g / (L - 1 / mu);
    mu -= step;
    if (Math.abs(step) <= 4 * Number.EPSILON * mu) break;
  }
  return x > 1 ? mu : -mu;
}

/**
 * λ̂ of positive data (scipy.stats.boxcox_normmax(x, method='mle'), including its overflow guard). Sums are numpy's
 * pairwise sums and logsumexp is scipy's, so llf agrees with scipy to an ulp or two (V8's log/exp are not always
 * correctly rounded); as λ̂ sits where llf is flat, that moves Brent's stop by ≤ ~1e-6 relative to max(1, |λ|),
 * which is how precisely the data determine λ̂ at all (scipy's own λ carries the same noise). Tests check λ to that,
 * and that our llf(λ̂) is at least scipy's.
 */
export function boxcoxLambda(data: ArrayLike<number>): number {
  checkData(data);
  let xmin = Infinity;
  let xmax = -Infinity;
  for (let i = 0; i < data.length; i++) {
    if (!(data[i] > 0)) throw new RangeError(`Box-Cox needs positive data; value ${i} is ${data[i]}.`);
    xmin = Math.min(xmin, data[i]);
    xmax = Math.max(xmax, data[i]);
  }
  const lambda = brentMinimize((l) => -boxcoxLogLikelihood(l, data), BOXCOX_BRACKET).x;
  let xt: number;
  if (xmin >= 1) xt = xmax;
  else if (xmax <= 1) xt = xmin;
  else xt = boxcoxValue(xmax, lambda) > Math.abs(boxcoxValue(xmin, lambda)) ? xmax : xmin;
  if (Math.abs(boxcoxValue(xt, lambda)) > BOXCOX_YMAX) return boxcoxInverseLambda(xt, BOXCOX_YMAX);
  return lambda;
}

/** The shift applied before Box-Cox: 0 if all values are > 0, else (max − min) − min (data span [r, 2r]). */
export function boxcoxShift(values: ArrayLike<number>): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    lo = Math.min(lo, values[i]);
    hi = Math.max(hi, values[i]);
  }
  if (lo > 0) return 0;
  return hi - lo - lo;
}

/**
 * Box-Cox with λ by maximum likelihood (scipy.stats.boxcox(x + shift)). `shift` defaults to `boxcoxShift(values)`;
 * an explicit shift must make every value positive.
 */
export function boxcox(values: ArrayLike<number>, options: { shift?: number } = {}): BoxCoxResult {
  checkData(values);
  const shift = options.shift ?? boxcoxShift(values);
  const data = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = values[i] + shift;
  const lambda = boxcoxLambda(data);
  return { lambda, shift, transformed: boxcoxTransform(data, lambda), logLikelihood: boxcoxLogLikelihood(lambda, data) };
}
