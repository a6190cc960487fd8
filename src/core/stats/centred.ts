/**
 * The centred sums of n paired values, the part least squares and Pearson's r share: the means x̄ and ȳ (one pass),
 * then Σ(x−x̄)(y−ȳ), Σ(x−x̄)² and Σ(y−ȳ)² (a second pass, as numpy and scipy centre before they multiply).
 */
export function centredSums(x: ArrayLike<number>, y: ArrayLike<number>, n: number): { mx: number; my: number; sxy: number; sxx: number; syy: number } {
  let mx = 0;
  let my = 0;
  for (let k = 0; k < n; k++) {
    mx += x[k];
    my += y[k];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let k = 0; k < n; k++) {
    const dx = x[k] - mx;
    const dy = y[k] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return { mx, my, sxy, sxx, syy };
}
