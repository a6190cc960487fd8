/**
 * Ranks with ties averaged: `scipy.stats.rankdata(x, method='average')`. Ranks are 1-based; a run of equal values
 * gets the mean of the ranks it spans (e.g. [10, 20, 10] → [1.5, 3, 1.5]). Equality is exact (no tolerance),
 * as scipy. NaN values are not supported (rank positions would be arbitrary): they throw.
 */
export function averageRanks(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(x[i])) throw new RangeError(`averageRanks: value ${i} is NaN.`);
  }
  const idx = Array.from({ length: n }, (_, i) => i).sort((p, q) => (x[p] < x[q] ? -1 : x[p] > x[q] ? 1 : p - q));
  const r = new Float64Array(n);
  let s = 0;
  while (s < n) {
    let e = s;
    while (e + 1 < n && x[idx[e + 1]] === x[idx[s]]) e++;
    const avg = (s + e) / 2 + 1;
    for (let k = s; k <= e; k++) r[idx[k]] = avg;
    s = e + 1;
  }
  return r;
}
