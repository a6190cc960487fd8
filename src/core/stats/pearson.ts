/**
 * Pearson's correlation coefficient with its two-sided p-value (docs/science.md §2: "Pearson R between S(O) and A(O)
 * over the evaluated orderings (with its p-value)"), as `scipy.stats.pearsonr(x, y)`:
 *
 *   r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²), clipped to [−1, 1];
 *   p = P(|R| ≥ |r|) under independence, where R ~ Beta(n/2−1, n/2−1) on [−1, 1]; equivalently the t test with
 *       n−2 degrees of freedom; computed as I_{1−r²}((n−2)/2, ½) (special.ts `correlationPValue`).
 *
 * As scipy: n = 2 gives r = ±1 exactly and p = 1; a constant input gives r = NaN and p = NaN (scipy warns
 * "An input array is constant"). Fewer than 2 pairs, or different lengths, throw.
 */
import { centredSums } from './centred';
import { correlationPValue } from './special';

export interface CorrelationResult {
  /** The coefficient (NaN when undefined). */
  statistic: number;
  /** Two-sided p-value (NaN when undefined). */
  pvalue: number;
  n: number;
}

/** Paired samples of equal length and finite values, or a RangeError naming `what` and the first bad value. */
export function checkPairs(x: ArrayLike<number>, y: ArrayLike<number>, what: string): void {
  if (x.length !== y.length) throw new RangeError(`${what}: x has ${x.length} values and y has ${y.length}; they must pair up.`);
  for (const [v, name] of [
    [x, 'x'],
    [y, 'y'],
  ] as const) {
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i])) throw new RangeError(`${what}: ${name}[${i}] is ${v[i]}, not a finite number.`);
    }
  }
}

/** The correlation coefficient alone: NaN for fewer than 2 pairs or a constant side. */
export function correlation(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) throw new RangeError(`correlation: ${x.length} and ${y.length} values.`);
  const n = x.length;
  if (n < 2) return NaN;
  const { sxy, sxx, syy } = centredSums(x, y, n);
  if (sxx === 0 || syy === 0) return NaN;
  const r = sxy / Math.sqrt(sxx * syy);
  return Math.max(-1, Math.min(1, r));
}

function isConstant(v: ArrayLike<number>): boolean {
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return false;
  return true;
}

/** Pearson's r and its two-sided p-value (scipy.stats.pearsonr). */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): CorrelationResult {
  checkPairs(x, y, 'pearson');
  const n = x.length;
  if (n < 2) throw new RangeError(`pearson needs at least 2 pairs; got ${n}.`);
  if (isConstant(x) || isConstant(y)) return { statistic: NaN, pvalue: NaN, n };
  let r = correlation(x, y);
  if (n === 2) {
    r = Math.round(r);
    return { statistic: r, pvalue: Number.isNaN(r) ? NaN : 1, n };
  }
  return { statistic: r, pvalue: correlationPValue(r, n), n };
}
