/**
 * One-sample Kolmogorov–Smirnov test against the normal with the sample's own mean and std (docs/science.md §2
 * "Normality"; EDGE paper Table A3 "KS p"), as `scipy.stats.kstest(x, 'norm', args=(mean, std))` with method 'auto'
 * (for the two-sided test always the exact distribution `kstwo`). The std is the population one by default (ddof 0,
 * `np.std(x)`'s; the paper does not say, and §2 uses population variance throughout). Either way the parameters come
 * from the same data, so the p-value is conservative (the Lilliefors caveat); we report what scipy reports.
 * D = max(D⁺, D⁻) over the sorted sample (scipy `_compute_d`); p = `kstwoSf(D, n)`.
 */
import { normalCdf, type Gaussian } from './gaussian';
import { mean, std } from './moments';

export interface KsResult {
  /** D = sup |F_n − F|. */
  statistic: number;
  pvalue: number;
  n: number;
  /** The value x at which D is attained. */
  statisticLocation: number;
  /** +1 if D = D⁺ (empirical CDF above), −1 if D = D⁻. */
  statisticSign: 1 | -1;
  /** The normal tested against. */
  reference: Gaussian;
}

export const KS_MIN_N = 1;

const E128 = 2 ** 128;
const EM128 = 2 ** -128;
const MIN_LOG = -708;
/** Cephes MINLOG = log(2^-1074). */
const SMIRNOV_MINLOG = -7.451332191019412076235e2;
const PI2 = Math.PI ** 2;
const PI4 = Math.PI ** 4;
const PI6 = Math.PI ** 6;
const SQRT2PI = Math.sqrt(2 * Math.PI);
const LOG_2PI = Math.log(2 * Math.PI);
const STIRLING = [
  -2.955065359477124183e-2, 6.4102564102564102564e-3, -1.9175269175269175269e-3, 8.4175084175084175084e-4, -5.952380952380952381e-4, 7.9365079365079365079e-4,
  -2.7777777777777777778e-3, 8.3333333333333333333e-2,
];

function clip01(p: number): number {
  return Math.min(1, Math.max(0, p));
}

/** p·2^e without intermediate overflow/underflow of 2^e. */
function ldexp(p: number, e: number): number {
  let x = p;
  let k = e;
  while (k > 1000) {
    x *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    x *= 2 ** -1000;
    k += 1000;
  }
  return x * 2 ** k;
}

function logNFactorialDivNPowN(n: number): number {
  const rn = 1 / n;
  let poly = 0;
  const t = rn / n;
  for (const c of STIRLING) poly = poly * t + c;
  return Math.log(n) / 2 - n + LOG_2PI / 2 + rn * poly;
}

/**
 * One-sided Smirnov survival P(D⁺_n ≥ d) (scipy.special.smirnov): Birnbaum–Tingey
 * Σ_{v=0}^{⌊n(1−d)⌋} C(n,v) d (d + v/n)^{v−1} (1 − d − v/n)^{n−v}, all terms positive,
 * summed in log space (scipy's cephes `smirnov` sums the same series in double-double).
 */
export function smirnovSf(n: number, d: number): number {
  if (!(n > 0 && Number.isInteger(n) && d >= 0 && d <= 1)) return NaN;
  if (n === 1) return 1 - d;
  if (d === 0) return 1;
  if (d === 1) return 0;
  if (n * d <= 1) return 1 - d * (1 + d) ** (n - 1);
  if (-2 * n * d * d < SMIRNOV_MINLOG) return 0; // the sf underflows
  if (n * d >= n - 1) return (1 - d) ** n;
  const vmax = Math.floor(n * (1 - d));
  let logC = 0; // log C(n, v)
  let sum = 0;
  const logD = Math.log(d);
  for (let v = 0; v <= vmax; v++) {
    if (v > 0) logC += Math.log((n - v + 1) / v);
    const a = d + v / n;
    const b = 1 - d - v / n;
    if (b <= 0) {
      if (n - v === 0) sum += Math.exp(logC + logD + (v - 1) * Math.log(a));
      continue;
    }
    sum += Math.exp(logC + logD + (v - 1) * Math.log(a) + (n - v) * Math.log(b));
  }
  return clip01(sum);
}

/** Durbin's matrix method (Marsaglia–Tsang–Wang): P(D_n ≤ d). */
function kolmognDMTW(n: number, d: number): number {
  if (d >= 1) return 1;
  const nd = n * d;
  if (nd <= 0.5) return 0;
  const k = Math.ceil(nd);
  const h = k - nd;
  const m = 2 * k - 1;
  const H: Float64Array[] = Array.from({ length: m }, () => new Float64Array(m));
  const v = new Float64Array(m);
  const w = new Float64Array(m);
  let fac = 1;
  for (let j = 1; j <= m; j++) {
    v[j - 1] = 1 - h ** j;
    w[j - 1] = fac;
    fac /= j;
    v[j - 1] *= fac;
  }
  const tt = Math.max(2 * h - 1, 0) ** m - 2 * h ** m;
  v[m - 1] = (1 + tt) * fac;
  for (let i = 1; i < m; i++) {
    for (let r = i - 1; r < m; r++) H[r][i] = w[r - (i - 1)];
  }
  for (let r = 0; r < m; r++) H[r][0] = v[r];
  for (let c = 0; c < m; c++) H[m - 1][c] = v[m - 1 - c];

  const matmul = (A: Float64Array[], B: Float64Array[]): Float64Array[] => {
    const C: Float64Array[] = Array.from({ length: m }, () => new Float64Array(m));
    for (let i = 0; i < m; i++) {
      const Ai = A[i];
      const Ci = C[i];
      for (let l = 0; l < m; l++) {
        const a = Ai[l];
        if (a === 0) continue;
        const Bl = B[l];
        for (let j = 0; j < m; j++) Ci[j] += a * Bl[j];
      }
    }
    return C;
  };
  let Hp: Float64Array[] = Array.from({ length: m }, (_, i) => {
    const row = new Float64Array(m);
    row[i] = 1;
    return row;
  });
  let Hm: Float64Array[] = H;
  let nn = n;
  let expnt = 0;
  let hExpnt = 0;
  while (nn > 0) {
    if (nn % 2) {
      Hp = matmul(Hp, Hm);
      expnt += hExpnt;
    }
    Hm = matmul(Hm, Hm);
    hExpnt *= 2;
    if (Math.abs(Hm[k - 1][k - 1]) > E128) {
      for (const row of Hm) for (let j = 0; j < m; j++) row[j] /= E128;
      hExpnt += 128;
    }
    nn = Math.floor(nn / 2);
  }
  let p = Hp[k - 1][k - 1];
  for (let i = 1; i <= n; i++) {
    p = (i * p) / n;
    if (Math.abs(p) < EM128) {
      p *= E128;
      expnt -= 128;
    }
  }
  if (expnt !== 0) p = ldexp(p, expnt);
  return clip01(p);
}

function pomeranzJ1J2(i: number, n: number, ll: number, ceilf: number, roundf: number): [number, number] {
  let j1: number;
  let j2: number;
  if (i === 0) {
    j1 = -ll - ceilf - 1;
    j2 = ll + ceilf - 1;
  } else {
    const ip1div2 = Math.floor((i + 1) / 2);
    const ip1mod2 = (i + 1) % 2;
    if (ip1mod2 === 0) {
      if (ip1div2 === n + 1) {
        j1 = n - ll - ceilf - 1;
        j2 = n + ll + ceilf - 1;
      } else {
        j1 = ip1div2 - 1 - ll - roundf - 1;
        j2 = ip1div2 + ll - 1 + ceilf - 1;
      }
    } else {
      j1 = ip1div2 - 1 - ll - 1;
      j2 = ip1div2 + ll + roundf - 1;
    }
  }
  return [Math.max(j1 + 2, 0), Math.min(j2, n)];
}

/** Pomeranz's recursion: P(D_n ≤ x). */
function kolmognPomeranz(n: number, x: number): number {
  const t = n * x;
  const ll = Math.floor(t);
  const f = t - ll;
  const g = Math.min(f, 1 - f);
  const ceilf = f > 0 ? 1 : 0;
  const roundf = f > 0.5 ? 1 : 0;
  const npwrs = 2 * (ll + 1);
  const gpower = new Float64Array(npwrs);
  const twogpower = new Float64Array(npwrs);
  const onem2gpower = new Float64Array(npwrs);
  gpower[0] = 1;
  twogpower[0] = 1;
  onem2gpower[0] = 1;
  let expnt = 0;
  const gOverN = g / n;
  const twoGOverN = (2 * g) / n;
  const oneMinusTwoGOverN = (1 - 2 * g) / n;
  for (let m = 1; m < npwrs; m++) {
    gpower[m] = (gpower[m - 1] * gOverN) / m;
    twogpower[m] = (twogpower[m - 1] * twoGOverN) / m;
    onem2gpower[m] = (onem2gpower[m - 1] * oneMinusTwoGOverN) / m;
  }
  let V0 = new Float64Array(npwrs);
  let V1 = new Float64Array(npwrs);
  V1[0] = 1;
  let V0s = 0;
  let V1s = 0;
  let [j1, j2] = pomeranzJ1J2(0, n, ll, ceilf, roundf);
  for (let i = 1; i < 2 * n + 2; i++) {
    const k1 = j1;
    [V0, V1] = [V1, V0];
    [V0s, V1s] = [V1s, V0s];
    V1.fill(0);
    [j1, j2] = pomeranzJ1J2(i, n, ll, ceilf, roundf);
    const pwrs = i === 1 || i === 2 * n + 1 ? gpower : i % 2 ? twogpower : onem2gpower;
    const ln2 = j2 - k1 + 1;
    if (ln2 > 0) {
      // conv = np.convolve(V0[k1 − V0s : k1 − V0s + ln2], pwrs[:ln2]) — full convolution.
      const base = k1 - V0s;
      const convStart = j1 - k1;
      const convLen = j2 - j1 + 1;
      let maxV = 0;
      for (let c = 0; c < convLen; c++) {
        const idx = convStart + c; // index into the full convolution
        let s = 0;
        const lo = Math.max(0, idx - (ln2 - 1));
        const hi = Math.min(idx, ln2 - 1);
        for (let a = lo; a <= hi; a++) {
          const va = base + a;
          if (va < 0 || va >= npwrs || idx - a >= npwrs) continue;
          s += V0[va] * pwrs[idx - a];
        }
        V1[c] = s;
        if (s > maxV) maxV = s;
      }
      if (maxV > 0 && maxV < EM128) {
        for (let c = 0; c < npwrs; c++) V1[c] *= E128;
        expnt -= 128;
      }
      V1s = V0s + j1 - k1;
    }
  }
  let ans = V1[n - V1s];
  for (let m = 1; m <= n; m++) {
    if (Math.abs(ans) > E128) {
      ans *= EM128;
      expnt += 128;
    }
    ans *= m;
  }
  if (expnt !== 0) ans = ldexp(ans, expnt);
  return clip01(ans);
}

/** Pelz–Good asymptotic series for P(D_n ≤ x); `cdf` false gives the sf. */
function kolmognPelzGood(n: number, x: number, cdf: boolean): number {
  if (x <= 0) return cdf ? 0 : 1;
  if (x >= 1) return cdf ? 1 : 0;
  const z = Math.sqrt(n) * x;
  const z2 = z ** 2;
  const z3 = z ** 3;
  const z4 = z ** 4;
  const z6 = z ** 6;
  const qlog = -PI2 / 8 / z2;
  if (qlog < MIN_LOG) return cdf ? 0 : 1;
  let q = Math.exp(qlog);
  const k1a = -z2;
  const k1b = PI2 / 4;
  const k2a = 6 * z6 + 2 * z4;
  const k2b = ((2 * z4 - 5 * z2) * PI2) / 4;
  const k2c = (PI4 * (1 - 2 * z2)) / 16;
  const k3d = (PI6 * (5 - 30 * z2)) / 64;
  const k3c = (PI4 * (-60 * z2 + 212 * z4)) / 16;
  const k3b = (PI2 * (135 * z4 - 96 * z6)) / 4;
  const k3a = -30 * z6 - 90 * z ** 8;
  const K = [0, 0, 0, 0];
  const maxk = Math.ceil((16 * z) / Math.PI);
  for (let k = maxk; k > 0; k--) {
    const m = 2 * k - 1;
    const m2 = m ** 2;
    const m4 = m ** 4;
    const m6 = m ** 6;
    const qpower = q ** (8 * k);
    const coeffs = [1, k1a + k1b * m2, k2a + k2b * m2 + k2c * m4, k3a + k3b * m2 + k3c * m4 + k3d * m6];
    for (let i = 0; i < 4; i++) K[i] = K[i] * qpower + coeffs[i];
  }
  const div = [z, 6 * z4, 72 * z ** 7, 6480 * z ** 10];
  for (let i = 0; i < 4; i++) K[i] = (K[i] * q * SQRT2PI) / div[i];
  q = Math.exp(-PI2 / 2 / z2);
  let k2extra = 0;
  let k3extra = 0;
  const sqrt3z = Math.sqrt(3) * z;
  for (let k = maxk; k > 0; k--) {
    const ksq = k * k;
    const qp = q ** ksq;
    const kspi = Math.PI * k;
    k2extra += ksq * qp;
    k3extra += (sqrt3z + kspi) * (sqrt3z - kspi) * ksq * qp;
  }
  K[2] += k2extra * ((PI2 * SQRT2PI) / (-36 * z3));
  K[3] += k3extra * ((PI2 * SQRT2PI) / (216 * z6));
  for (let i = 0; i < 4; i++) K[i] /= n ** (i / 2);
  if (!cdf) {
    for (let i = 0; i < 4; i++) K[i] *= -1;
    K[0] += 1;
  }
  return K[0] + K[1] + K[2] + K[3];
}

/** scipy.stats._ksstats._kolmogn: P(D_n ≤ x) (cdf) or P(D_n > x) (sf). */
function kolmogn(n: number, x: number, cdf: boolean): number {
  const pick = (c: number, s: number) => clip01(cdf ? c : s);
  if (!(n > 0 && Number.isInteger(n)) || Number.isNaN(x)) return NaN;
  if (x >= 1) return pick(1, 0);
  if (x <= 0) return pick(0, 1);
  const t = n * x;
  if (t <= 1) {
    if (t <= 0.5) return pick(0, 1);
    let prob: number;
    if (n <= 140) {
      prob = 1;
      for (let i = 1; i <= n; i++) prob *= i * (1 / n) * (2 * t - 1);
    } else {
      prob = Math.exp(logNFactorialDivNPowN(n) + n * Math.log(2 * t - 1));
    }
    return pick(prob, 1 - prob);
  }
  if (t >= n - 1) {
    const prob = 2 * (1 - x) ** n;
    return pick(1 - prob, prob);
  }
  if (x >= 0.5) {
    const prob = 2 * smirnovSf(n, x);
    return pick(1 - prob, prob);
  }
  const nxsquared = t * x;
  if (n <= 140) {
    if (nxsquared <= 0.754693) {
      const prob = kolmognDMTW(n, x);
      return pick(prob, 1 - prob);
    }
    if (nxsquared <= 4) {
      const prob = kolmognPomeranz(n, x);
      return pick(prob, 1 - prob);
    }
    const prob = 2 * smirnovSf(n, x);
    return pick(1 - prob, prob);
  }
  if (!cdf) {
    if (nxsquared >= 370) return 0;
    if (nxsquared >= 2.2) return clip01(2 * smirnovSf(n, x));
  }
  let cdfprob: number;
  if (nxsquared >= 18) cdfprob = 1;
  else if (n <= 100000 && n * x ** 1.5 <= 1.4) cdfprob = kolmognDMTW(n, x);
  else cdfprob = kolmognPelzGood(n, x, true);
  return pick(cdfprob, 1 - cdfprob);
}

/**
 * P(D_n > d) for the two-sided one-sample KS statistic (scipy.stats.kstwo.sf(d, n)). With `kstwoCdf`, a port of
 * scipy.stats._ksstats `_kolmogn` (Simard & L'Ecuyer 2011's choice of method): Ruben–Gambino closed forms for
 * n·d ≤ 1 and n·d ≥ n − 1; d ≥ ½: exactly 2·smirnov(n, d); n ≤ 140: Durbin's matrix (Marsaglia–Tsang–Wang) for
 * n·d² ≤ 0.754693, Pomeranz's recursion for n·d² ≤ 4, else 2·smirnov (Miller); n > 140: the sf is 0 when n·d² ≥ 370
 * and 2·smirnov when n·d² ≥ 2.2, otherwise 1 − cdf, the cdf from Durbin's matrix when n ≤ 100000 and n·d^{3/2} ≤ 1.4,
 * else the Pelz–Good asymptotic series.
 */
export function kstwoSf(d: number, n: number): number {
  return kolmogn(n, d, false);
}

/** P(D_n ≤ d) (scipy.stats.kstwo.cdf(d, n)). */
export function kstwoCdf(d: number, n: number): number {
  return kolmogn(n, d, true);
}

/** Two-sided one-sample KS of `values` against a given continuous CDF (scipy.stats.ks_1samp). */
export function ksOneSample(values: ArrayLike<number>, cdf: (x: number) => number): Omit<KsResult, 'reference'> {
  const n = values.length;
  if (n < KS_MIN_N) throw new RangeError(`The Kolmogorov–Smirnov test needs at least ${KS_MIN_N} value; got ${n}.`);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i])) throw new RangeError(`Kolmogorov–Smirnov: value ${i} is ${values[i]}, not a finite number.`);
  }
  const x = Float64Array.from(values as ArrayLike<number>).sort();
  let dPlus = -Infinity;
  let dMinus = -Infinity;
  let locPlus = x[0];
  let locMinus = x[0];
  let nan = false;
  for (let i = 0; i < n; i++) {
    const f = cdf(x[i]);
    if (Number.isNaN(f)) nan = true;
    const dp = (i + 1) / n - f;
    const dm = f - i / n;
    if (dp > dPlus) {
      dPlus = dp;
      locPlus = x[i];
    }
    if (dm > dMinus) {
      dMinus = dm;
      locMinus = x[i];
    }
  }
  if (nan) return { statistic: NaN, pvalue: NaN, n, statisticLocation: NaN, statisticSign: 1 };
  const plus = dPlus > dMinus;
  const d = plus ? dPlus : dMinus;
  return { statistic: d, pvalue: clip01(kstwoSf(d, n)), n, statisticLocation: plus ? locPlus : locMinus, statisticSign: plus ? 1 : -1 };
}

/**
 * KS against N(mean, std²) with the sample's own mean and std (population std by default; `ddof: 1` for the
 * sample std). Constant data (std 0) gives NaN statistic and p-value, as scipy (norm with scale 0 is NaN).
 */
export function ksNormal(values: ArrayLike<number>, options: { ddof?: 0 | 1 } = {}): KsResult {
  const n = values.length;
  if (n < KS_MIN_N) throw new RangeError(`The Kolmogorov–Smirnov test needs at least ${KS_MIN_N} value; got ${n}.`);
  const ddof = options.ddof ?? 0;
  const mu = mean(values);
  const sigma = std(values, ddof);
  const reference = { mean: mu, std: sigma };
  if (!(sigma > 0)) return { statistic: NaN, pvalue: NaN, n, statisticLocation: NaN, statisticSign: 1, reference };
  const res = ksOneSample(values, (x) => normalCdf(x, reference));
  return { ...res, reference };
}
