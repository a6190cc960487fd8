/**
 * Special functions for the statistics core (docs/science.md §2): the error function and the normal distribution
 * function, the inverse normal, log-gamma, the regularised incomplete beta and gamma functions, and the Student t
 * and χ² tails built on them. Plain double-precision functions, no dependencies.
 *
 * Where scipy's own code is a published algorithm we port it, so results agree with scipy to rounding:
 * - `erf`, `erfc`, `ndtr`: Cephes (Moshier) rational approximations, as scipy.special (xsf/cephes/ndtr.h).
 * - `ndtri`: Cephes inverse normal (xsf/cephes/ndtri.h), relative error ≤ 7.2e-16 — what `scipy.stats.norm.ppf`
 *   evaluates.
 * Elsewhere we use textbook algorithms accurate to ~1e-14 relative, far inside the 1e-6 the stats core promises:
 * - `gammaln`: Lanczos-type series of Numerical Recipes 3rd ed. (`gammln`, 14 terms, g = 671/128), reflection
 *   for x < 0.5.
 * - `betainc`: the continued fraction for I_x(a, b) evaluated by the modified Lentz method, on the side of
 *   x < (a+1)/(a+b+2) where it converges fast (the other side by symmetry I_x(a,b) = 1 − I_{1−x}(b,a));
 *   `betaincc` computes the complement directly so small upper tails keep their relative accuracy.
 * - `gammainc` / `gammaincc`: the series for x < a+1, the Legendre continued fraction (Lentz) otherwise.
 */

const MAXLOG = 7.09782712893383996843e2;
const SQRT1_2 = Math.SQRT1_2;
const SQRT2PI = 2.50662827463100050242;
const EPS = 2.220446049250313e-16;
const FPMIN = 1e-300;

function polevl(x: number, coef: readonly number[]): number {
  let ans = coef[0];
  for (let i = 1; i < coef.length; i++) ans = ans * x + coef[i];
  return ans;
}

/** Cephes p1evl: the leading coefficient 1 is implied. */
function p1evl(x: number, coef: readonly number[]): number {
  let ans = x + coef[0];
  for (let i = 1; i < coef.length; i++) ans = ans * x + coef[i];
  return ans;
}

const ERFC_P = [
  2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687, 4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
  9.3452852717195760754e2, 1.02755188689515710272e3, 5.57535335369399327526e2,
];
const ERFC_Q = [
  1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2, 9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
  1.65666309194161350182e3, 5.57535340817727675546e2,
];
const ERFC_R = [
  5.64189583547755073984e-1, 1.27536670759978104416, 5.01905042251180477414, 6.16021097993053585195, 7.4097426995044893916, 2.9788666537210024067,
];
const ERFC_S = [
  2.2605286322011727659, 9.39603524938001434673, 1.20489539808096656605e1, 1.70814450747565897222e1, 9.60896809063285878198, 3.3690764510008151605,
];
const ERF_T = [9.60497373987051638749, 9.00260197203842689217e1, 2.23200534594684319226e3, 7.00332514112805075473e3, 5.55923013010394962768e4];
const ERF_U = [3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3, 2.26290000613890934246e4, 4.92673942608635921086e4];

/** Complementary error function erfc(a) = 1 − erf(a), accurate in the upper tail (Cephes). */
export function erfc(a: number): number {
  if (Number.isNaN(a)) return NaN;
  const x = Math.abs(a);
  if (x < 1) return 1 - erf(a);
  const z0 = -a * a;
  if (z0 < -MAXLOG) return a < 0 ? 2 : 0;
  const z = Math.exp(z0);
  let p: number;
  let q: number;
  if (x < 8) {
    p = polevl(x, ERFC_P);
    q = p1evl(x, ERFC_Q);
  } else {
    p = polevl(x, ERFC_R);
    q = p1evl(x, ERFC_S);
  }
  let y = (z * p) / q;
  if (a < 0) y = 2 - y;
  if (y !== 0) return y;
  return a < 0 ? 2 : 0;
}

/** Error function (Cephes). */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return -erf(-x);
  if (Math.abs(x) > 1) return 1 - erfc(x);
  const z = x * x;
  return (x * polevl(z, ERF_T)) / p1evl(z, ERF_U);
}

/** Standard normal distribution function Φ(a) (Cephes `ndtr`, = scipy.special.ndtr). */
export function ndtr(a: number): number {
  if (Number.isNaN(a)) return NaN;
  const x = a * SQRT1_2;
  const z = Math.abs(x);
  if (z < 1) return 0.5 + 0.5 * erf(x);
  const y = 0.5 * erfc(z);
  return x > 0 ? 1 - y : y;
}

const NDTRI_P0 = [-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1, 1.39312609387279679503e1, -1.23916583867381258016];
const NDTRI_Q0 = [
  1.95448858338141759834, 4.67627912898881538453, 8.63602421390890590575e1, -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
  1.59056225126211695515e1, -1.18331621121330003142,
];
const NDTRI_P1 = [
  4.05544892305962419923, 3.15251094599893866154e1, 5.71628192246421288162e1, 4.408050738932008347e1, 1.46849561928858024014e1, 2.18663306850790267539,
  -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4,
];
const NDTRI_Q1 = [
  1.57799883256466749731e1, 4.53907635128879210584e1, 4.1317203825467203044e1, 1.50425385692907503408e1, 2.50464946208309415979, -1.42182922854787788574e-1,
  -3.80806407691578277194e-2, -9.33259480895457427372e-4,
];
const NDTRI_P2 = [
  3.2377489177694603597, 6.91522889068984211695, 3.93881025292474443415, 1.33303460815807542389, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
  3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.2397453918498329373e-9,
];
const NDTRI_Q2 = [
  6.02427039364742014255, 3.67983563856160859403, 1.37702099489081330271, 2.1623699359449663589e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
  2.89247864745380683936e-6, 6.79019408009981274425e-9,
];
const EXP_M2 = 0.13533528323661269189;

/** Inverse of Φ (Cephes `ndtri`, = scipy.special.ndtri / scipy.stats.norm.ppf). */
export function ndtri(y0: number): number {
  if (y0 === 0) return -Infinity;
  if (y0 === 1) return Infinity;
  if (!(y0 > 0 && y0 < 1)) return NaN;
  let code = true;
  let y = y0;
  if (y > 1 - EXP_M2) {
    y = 1 - y;
    code = false;
  }
  if (y > EXP_M2) {
    y -= 0.5;
    const y2 = y * y;
    const x = y + y * ((y2 * polevl(y2, NDTRI_P0)) / p1evl(y2, NDTRI_Q0));
    return x * SQRT2PI;
  }
  const x = Math.sqrt(-2 * Math.log(y));
  const x0 = x - Math.log(x) / x;
  const z = 1 / x;
  const x1 = x < 8 ? (z * polevl(z, NDTRI_P1)) / p1evl(z, NDTRI_Q1) : (z * polevl(z, NDTRI_P2)) / p1evl(z, NDTRI_Q2);
  const r = x0 - x1;
  return code ? -r : r;
}

const GAMMALN_COF = [
  57.1562356658629235, -59.5979603554754912, 14.1360979747417471, -0.491913816097620199, 0.339946499848118887e-4, 0.465236289270485756e-4,
  -0.983744753048795646e-4, 0.158088703224912494e-3, -0.210264441724104883e-3, 0.217439618115212643e-3, -0.16431810653676389e-3, 0.844182239838527433e-4,
  -0.261908384015814087e-4, 0.368991826595316234e-5,
];

/** log|Γ(x)| (= scipy.special.gammaln); +∞ at the poles x = 0, −1, −2, …, as scipy. */
export function gammaln(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x <= 0 && Number.isInteger(x)) return Infinity;
  if (x < 0.5) {
    // Reflection: Γ(x)Γ(1−x) = π / sin(πx).
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - gammaln(1 - x);
  }
  let y = x;
  let tmp = x + 5.2421875;
  tmp = (x + 0.5) * Math.log(tmp) - tmp;
  let ser = 0.999999999999997092;
  for (let j = 0; j < 14; j++) ser += GAMMALN_COF[j] / ++y;
  return tmp + Math.log((2.5066282746310005 * ser) / x);
}

/** log B(a, b) for a, b > 0. */
export function betaln(a: number, b: number): number {
  return gammaln(a) + gammaln(b) - gammaln(a + b);
}

/** Continued fraction for I_x(a,b) (Numerical Recipes `betacf`, modified Lentz). */
function betacf(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < FPMIN) d = FPMIN;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 100000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) <= EPS) return h;
  }
  return h; // not converged (does not happen for the a, b of n ≤ 10^6 samples)
}

function checkBetaArgs(a: number, b: number, x: number): boolean {
  return a > 0 && b > 0 && x >= 0 && x <= 1 && Number.isFinite(a) && Number.isFinite(b);
}

/** The prefactor x^a (1−x)^b / B(a,b), in log space. */
function betaFront(a: number, b: number, x: number): number {
  return Math.exp(a * Math.log(x) + b * Math.log1p(-x) - betaln(a, b));
}

/** Regularised incomplete beta I_x(a, b) (= scipy.special.betainc). */
export function betainc(a: number, b: number, x: number): number {
  if (!checkBetaArgs(a, b, x)) return NaN;
  if (x === 0) return 0;
  if (x === 1) return 1;
  if (x < (a + 1) / (a + b + 2)) return (betaFront(a, b, x) * betacf(a, b, x)) / a;
  return 1 - (betaFront(b, a, 1 - x) * betacf(b, a, 1 - x)) / b;
}

/** Complement 1 − I_x(a, b) = I_{1−x}(b, a), computed without cancellation (= scipy.special.betaincc). */
export function betaincc(a: number, b: number, x: number): number {
  if (!checkBetaArgs(a, b, x)) return NaN;
  if (x === 0) return 1;
  if (x === 1) return 0;
  if (x < (a + 1) / (a + b + 2)) return 1 - (betaFront(a, b, x) * betacf(a, b, x)) / a;
  return (betaFront(b, a, 1 - x) * betacf(b, a, 1 - x)) / b;
}

function gammaSeries(a: number, x: number): number {
  // P(a, x) by its power series.
  let ap = a;
  let sum = 1 / a;
  let del = sum;
  for (let n = 0; n < 100000; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - gammaln(a));
}

function gammaContinuedFraction(a: number, x: number): number {
  // Q(a, x) by Legendre's continued fraction (modified Lentz).
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) <= EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - gammaln(a)) * h;
}

/** Regularised lower incomplete gamma P(a, x) (= scipy.special.gammainc). */
export function gammainc(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) return NaN;
  if (x === 0) return 0;
  if (x === Infinity) return 1;
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x);
}

/** Regularised upper incomplete gamma Q(a, x) = 1 − P(a, x) (= scipy.special.gammaincc). */
export function gammaincc(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) return NaN;
  if (x === 0) return 1;
  if (x === Infinity) return 0;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

/** χ²_k survival function P(X > x) (= scipy.special.chdtrc(k, x)); exactly exp(−x/2) for k = 2. */
export function chi2Sf(x: number, k: number): number {
  if (Number.isNaN(x) || !(k > 0)) return NaN;
  if (x <= 0) return 1;
  if (k === 2) return Math.exp(-x / 2);
  return gammaincc(k / 2, x / 2);
}

/** Student t distribution function P(T ≤ t) with `df` degrees of freedom (= scipy.special.stdtr(df, t)). */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * betainc(df / 2, 0.5, df / (df + t * t));
  return t < 0 ? tail : 1 - tail;
}

/**
 * Two-sided p-value of a correlation coefficient r from n pairs under the null of no correlation:
 * P(|T| ≥ |t|) for t = r·√((n−2)/(1−r²)) with n−2 degrees of freedom, computed as I_{1−r²}((n−2)/2, 1/2) —
 * the same number as scipy's beta(n/2−1, n/2−1, loc=−1, scale=2) tail (pearsonr) and 2·stdtr(n−2, −|t|)
 * (spearmanr), without forming t. NaN for n < 3 or r NaN; 0 for |r| = 1.
 */
export function correlationPValue(r: number, n: number): number {
  if (Number.isNaN(r) || !(n >= 3)) return NaN;
  const ar = Math.min(1, Math.abs(r));
  if (ar === 1) return 0;
  const x = (1 - ar) * (1 + ar); // 1 − r², without cancellation near |r| = 1
  return Math.min(1, betainc((n - 2) / 2, 0.5, x));
}
