/** numpy's default ('linear') quantile of values already sorted ascending, p in [0, 1] (numpy's own _lerp). */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('the quantile of an empty set of values is undefined.');
  const virtual = (n - 1) * p;
  const lo = Math.max(0, Math.min(n - 1, Math.floor(virtual)));
  const hi = Math.min(lo + 1, n - 1);
  const g = virtual - lo;
  const diff = sorted[hi] - sorted[lo];
  return g >= 0.5 ? sorted[hi] - diff * (1 - g) : sorted[lo] + diff * g;
}
