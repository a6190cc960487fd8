/**
 * Spearman's rank correlation ρ with its two-sided p-value, as `scipy.stats.spearmanr(x, y)`: the Pearson
 * correlation of the average ranks (ties get the mean of the ranks they span, rank.ts), and the p-value of the
 * t statistic t = ρ·√((n−2)/((1+ρ)(1−ρ))) with n−2 degrees of freedom (computed as I_{1−ρ²}((n−2)/2, ½)).
 *
 * As scipy: a constant side gives NaN for both; fewer than 2 pairs gives NaN; n = 2 gives ρ = ±1 and p = NaN
 * (zero degrees of freedom). Different lengths throw.
 */
import { checkPairs, correlation, type CorrelationResult } from './pearson';
import { averageRanks } from './rank';
import { correlationPValue } from './special';

/** Spearman's ρ alone (NaN when undefined). */
export function spearmanRho(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) throw new RangeError(`spearmanRho: ${x.length} and ${y.length} values.`);
  if (x.length < 2) return NaN;
  return correlation(averageRanks(x), averageRanks(y));
}

/** Spearman's ρ and its two-sided p-value (scipy.stats.spearmanr). */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): CorrelationResult {
  checkPairs(x, y, 'spearman');
  const n = x.length;
  const rho = spearmanRho(x, y);
  return { statistic: rho, pvalue: correlationPValue(rho, n), n };
}
