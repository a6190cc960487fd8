/**
 * The ordinary least-squares line through paired values, as `numpy.polyfit(x, y, 1)` (slope, intercept): the
 * trend line the Ground-truth lab draws through S(O) against A(O).
 */

/** Ordinary least squares y = a + b·x; null below 2 points or when x does not vary. */
export function leastSquares(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number } | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}
