/**
 * The ordinary least-squares line through paired values, as `numpy.polyfit(x, y, 1)` (slope, intercept): the
 * trend line the Ground-truth lab draws through S(O) against A(O).
 */
import { centredSums } from './centred';

/** Ordinary least squares y = a + b·x; null below 2 points or when x does not vary. */
export function leastSquares(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number } | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return null;
  const { mx, my, sxy, sxx } = centredSums(xs, ys, n);
  if (!(sxx > 0)) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}
