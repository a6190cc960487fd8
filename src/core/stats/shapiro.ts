/**
 * Shapiro–Wilk W test of normality (docs/science.md §2; EDGE paper Table A3), as `scipy.stats.shapiro(x)`: a port of
 * scipy's double-precision translation of Royston's Algorithm AS R94 (`swilk`, scipy/stats/
 * _ansari_swilk_statistics.pyx), including its details:
 *   - the data are sorted and shifted by x[⌊n/2⌋] of the *unsorted* input (scipy gh-15777; W is shift-invariant,
 *     the shift only reduces rounding);
 *   - the coefficients a_i come from AS 111's low-precision `ppnd` and Royston's polynomial corrections;
 *   - n = 3: the exact p-value 1 − (6/π)·acos(√W), with W clamped to ≥ 0.75;
 *   - 4 ≤ n ≤ 11 and n ≥ 12: Royston's normalising transformations of log(1 − W), p from the upper normal tail
 *     (AS 66 `alnorm`, as swilk).
 * Valid for 3 ≤ n ≤ 5000; n > 5000 is computed but flagged (scipy warns that the p-value may be inaccurate).
 * Zero range (all values equal): W = 1, p = 1 with a warning, as scipy.
 */

export interface ShapiroResult {
  statistic: number;
  pvalue: number;
  n: number;
  /** Set when scipy would warn (n > 5000, or zero range). */
  warning?: string;
}

export const SHAPIRO_MIN_N = 3;

const SMALL = 1e-19;
const C1 = [0, 0.221157, -0.147981, -0.207119e1, 0.4434685e1, -0.2706056e1];
const C2 = [0, 0.42981e-1, -0.293762, -0.1752461e1, 0.5682633e1, -0.3582633e1];
const C3 = [0.544, -0.39978, 0.25054e-1, -0.6714e-3];
const C4 = [0.13822e1, -0.77857, 0.62767e-1, -0.20322e-2];
const C5 = [-0.15861e1, -0.31082, -0.83751e-1, 0.38915e-2];
const C6 = [-0.4803, -0.82676e-1, 0.30302e-2];
const G = [-0.2273e1, 0.459];

/** c[0] + c[1]x + c[2]x² + … (swilk's `_poly`, ascending coefficients). */
function poly(c: readonly number[], x: number): number {
  const nord = c.length;
  let res = c[0];
  if (nord === 1) return res;
  let p = x * c[nord - 1];
  if (nord === 2) return res + p;
  for (let i = nord - 2; i > 0; i--) p = (p + c[i]) * x;
  res += p;
  return res;
}

/** AS 111 `ppnd`: the inverse normal to ~7 digits, as swilk uses it (not the accurate ndtri, on purpose). */
function ppnd(p: number): number {
  const q = p - 0.5;
  if (Math.abs(q) <= 0.42) {
    const r = q * q;
    const num = q * (((-25.44106049637 * r + 41.39119773534) * r + -18.61500062529) * r + 2.50662823884);
    return num / ((((3.13082909833 * r + -21.06224101826) * r + 23.08336743743) * r + -8.4735109309) * r + 1);
  }
  let r = q > 0 ? 1 - p : p;
  if (!(r > 0)) return 0;
  r = Math.sqrt(-Math.log(r));
  const t = (((2.32121276858 * r + 4.85014127135) * r + -2.29796479134) * r + -2.78718931138) / ((1.63706781897 * r + 3.54388924762) * r + 1);
  return q < 0 ? -t : t;
}

/** AS 66 `alnorm`: the normal tail area, as swilk. */
function alnorm(x: number, upperIn: boolean): number {
  let upper = upperIn;
  let z = x;
  if (!(z > 0)) {
    upper = false;
    z = -z;
  }
  if (!(z <= 7 || (upper && z <= 38))) return upper ? 0 : 1;
  const y = 0.5 * z * z;
  let temp: number;
  if (z <= 1.28) {
    temp = 0.5 - z * (0.398942280444 - (0.399903438504 * y) / (y + 5.75885480458 - 29.8213557808 / (y + 2.62433121679 + 48.6959930692 / (y + 5.92885724438))));
  } else {
    temp =
      (0.398942280385 * Math.exp(-y)) /
      (z -
        3.8052e-8 +
        1.00000615302 /
          (z +
            3.98064794e-4 +
            1.98615381364 /
              (z - 0.151679116635 + 5.29330324926 / (z + 4.8385912808 - 15.1508972451 / (z + 0.742380924027 + 30.789933034 / (z + 3.99019417011))))));
  }
  return upper ? temp : 1 - temp;
}

/** swilk(x sorted ascending) → [W, p, ifault]. */
function swilk(x: Float64Array): [number, number, number] {
  const n = x.length;
  const nn2 = Math.floor(n / 2);
  const a = new Float64Array(nn2);
  const an = n;
  if (n === 3) {
    a[0] = Math.SQRT2 / 2;
  } else {
    const an25 = an + 0.25;
    let summ2 = 0;
    for (let i = 0; i < nn2; i++) {
      const t = ppnd((i + 1 - 0.375) / an25);
      a[i] = t;
      summ2 += t * t;
    }
    summ2 *= 2;
    const ssumm2 = Math.sqrt(summ2);
    const rsn = 1 / Math.sqrt(an);
    const a1 = poly(C1, rsn) - a[0] / ssumm2;
    let i1: number;
    let fac: number;
    if (n > 5) {
      i1 = 2;
      const a2 = -a[1] / ssumm2 + poly(C2, rsn);
      fac = Math.sqrt((summ2 - 2 * a[0] ** 2 - 2 * a[1] ** 2) / (1 - 2 * a1 ** 2 - 2 * a2 ** 2));
      a[1] = a2;
    } else {
      i1 = 1;
      fac = Math.sqrt((summ2 - 2 * a[0] ** 2) / (1 - 2 * a1 ** 2));
    }
    a[0] = a1;
    for (let i = i1; i < nn2; i++) a[i] *= -1 / fac;
  }
  const n1 = n;
  const range = x[n1 - 1] - x[0];
  if (range < SMALL) return [1, 1, 6];
  let sx = x[0] / range;
  let sa = -a[0];
  let ind2 = n - 2;
  for (let i = 1; i < n1; i++) {
    const xi = x[i] / range;
    sx += xi;
    if (i !== ind2) sa += (i < ind2 ? -1 : 1) * a[Math.min(i, ind2)];
    ind2 -= 1;
  }
  const ifault = n > 5000 ? 2 : 0;
  sa /= n1;
  sx /= n1;
  let ssa = 0;
  let ssx = 0;
  let sax = 0;
  ind2 = n - 1;
  for (let i = 0; i < n1; i++) {
    const asa = i !== ind2 ? (i < ind2 ? -1 : 1) * a[Math.min(i, ind2)] - sa : -sa;
    const xsx = x[i] / range - sx;
    ssa += asa * asa;
    ssx += xsx * xsx;
    sax += asa * xsx;
    ind2 -= 1;
  }
  const ssassx = Math.sqrt(ssa * ssx);
  const w1 = ((ssassx - sax) * (ssassx + sax)) / (ssa * ssx);
  const w = 1 - w1;
  if (n === 3) {
    if (w < 0.75) return [0.75, 0, ifault];
    return [w, 1 - (6 / Math.PI) * Math.acos(Math.sqrt(w)), ifault];
  }
  let y = Math.log(w1);
  const xx = Math.log(an);
  let m: number;
  let s: number;
  if (n <= 11) {
    const gamma = poly(G, an);
    if (y >= gamma) return [w, SMALL, ifault];
    y = -Math.log(gamma - y);
    m = poly(C3, an);
    s = Math.exp(poly(C4, an));
  } else {
    m = poly(C5, xx);
    s = Math.exp(poly(C6, xx));
  }
  return [w, alnorm((y - m) / s, true), ifault];
}

/** Shapiro–Wilk W and its p-value (scipy.stats.shapiro). Needs at least 3 finite values. */
export function shapiroWilk(values: ArrayLike<number>): ShapiroResult {
  const n = values.length;
  if (n < SHAPIRO_MIN_N) throw new RangeError(`The Shapiro–Wilk test needs at least ${SHAPIRO_MIN_N} values; got ${n}.`);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`Shapiro–Wilk: value ${i} is ${values[i]}, not a finite number.`);
  }
  const y = Float64Array.from(values as ArrayLike<number>).sort();
  const shift = values[Math.floor(n / 2)];
  for (let i = 0; i < n; i++) y[i] -= shift;
  const [w, p, ifault] = swilk(y);
  const out: ShapiroResult = { statistic: w, pvalue: p, n };
  if (ifault === 6) out.warning = 'Input data has range zero. The results may not be accurate.';
  else if (n > 5000) out.warning = 'For n > 5000 the computed p-value may not be accurate.';
  return out;
}
