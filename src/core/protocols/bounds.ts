/**
 * Sample-size bounds of [EDGE] Theorems 1 and 2 (docs/science.md §1 "Sample-size bounds"): how many orderings L,
 * drawn without replacement from Ω, make the sample mean ε-close to the mean over Ω with probability ≥ 1 − δ.
 * Both are one problem, the smallest L with L·(P−L)/(P−1) ≥ c on P = |Ω| (Theorem 1) or |Ω| − 2 with c scaled by
 * R² (Theorem 2), solved exactly for |Ω| far beyond a double (`smallestSampleSize`). L = null when no L ≤ P meets
 * it (the left side peaks at P/2): the whole Ω is needed, `fraction` 1 and `log10Fraction` 0.
 */

/** Result of a sample-size bound. */
export interface SampleSizeBound {
  /** Smallest sample size L, exact; null when no L ≤ |Ω| (|Ω|−2 for Theorem 2) satisfies the bound. */
  L: bigint | null;
  /** L/|Ω| as a double (1 when L is null; underflows to 0 when |Ω| > ~1e308 — use log10Fraction then). */
  fraction: number;
  /** log10(L/|Ω|) (0 when L is null). */
  log10Fraction: number;
  /** log10|Ω|. */
  log10Omega: number;
  /** The right-hand side c of the inequality, as computed. */
  rhs: number;
  /** False only when L ≥ 2^53: then its last digits are below the precision of c. */
  exact: boolean;
}

const TWO_53 = 2n ** 53n;

/** Leading decimal mantissa m ∈ [1, 10) and exponent e with x ≈ m·10^e (x > 0, at least 18 digits). */
function decimalParts(s: string): { mantissa: number; exponent: number } {
  // Number('d.ddd…') with 25 significant digits is the correctly rounded mantissa.
  return { mantissa: Number(`${s[0]}.${s.slice(1, 25)}`), exponent: s.length - 1 };
}

function requirePositiveBigInt(x: bigint, what: string): void {
  if (typeof x !== 'bigint') throw new TypeError(`${what} must be a BigInt; got ${typeof x}`);
  if (x <= 0n) throw new RangeError(`${what} needs a positive BigInt; got ${x}`);
}

/**
 * Natural logarithm of a positive BigInt of any size: exact-to-rounding below 2^53, else from the decimal
 * digit count and the leading 25 digits, ln x = ln(m) + e·ln 10. Relative error a few ulp.
 */
export function lnBigInt(x: bigint): number {
  requirePositiveBigInt(x, 'lnBigInt');
  const s = x.toString();
  if (s.length <= 17) return Math.log(Number(x)); // Number(x) is correctly rounded
  const { mantissa, exponent } = decimalParts(s);
  return Math.log(mantissa) + exponent * Math.LN10;
}

/** log10 of a positive BigInt of any size (as lnBigInt, in base 10). */
export function log10BigInt(x: bigint): number {
  requirePositiveBigInt(x, 'log10BigInt');
  const s = x.toString();
  if (s.length <= 17) return Math.log10(Number(x));
  const { mantissa, exponent } = decimalParts(s);
  return Math.log10(mantissa) + exponent;
}

/** A positive finite double as an exact dyadic rational num·2^exp. */
function toDyadic(x: number): { num: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return { num: fraction, exp: -1074 }; // subnormal
  return { num: fraction | (1n << 52n), exp: biased - 1075 };
}

/**
 * Smallest integer L in [1, P] with L·(P−L)/(P−1) ≥ c, exactly for the double c; null if there is none.
 * P ≥ 2, c > 0, lnP = ln P (from the BigInt's digits, `lnBigInt`, so c is a double within a few ulp).
 * The inequality is L² − P·L + c(P−1) ≤ 0; its smaller root, divided through by P to avoid cancellation, is
 * L₋ = 2c(1−1/P) / (1 + √(1 − 4c(1−1/P)/P)) (1/P = e^(−ln P) underflows harmlessly for huge P); no real root when
 * 4c(P−1)/P² > 1. ⌈L₋⌉ is a candidate, settled exactly: c is a dyadic rational num·2^e, so L·(P−L)·2^(−e) ≥
 * num·(P−1) is a BigInt comparison, and a galloping + binary search on [1, ⌊P/2⌋] moves to the smallest L. L can
 * differ from the true one only if the true c lies within c's ~1e-15 rounding of an integer step (the 80-digit
 * Python reference, tests/fixtures/bounds.json, agrees on every case). `exact` is false when L ≥ 2^53 (ε below
 * ~1e-7): then its trailing digits are below c's precision and L is the right magnitude only.
 */
function smallestSampleSize(P: bigint, lnP: number, c: number): { L: bigint | null; exact: boolean } {
  const { num, exp } = toDyadic(c);
  const right = exp >= 0 ? (num * (P - 1n)) << BigInt(exp) : num * (P - 1n);
  const leftShift = exp >= 0 ? 0n : BigInt(-exp);
  /** L·(P−L)/(P−1) ≥ c, exactly. */
  const ok = (L: bigint): boolean => (L * (P - L)) << leftShift >= right;

  const mid = P / 2n; // L·(P−L) peaks at ⌊P/2⌋ (and ⌈P/2⌉, with the same value)
  if (!ok(mid)) return { L: null, exact: true };

  // Candidate from the closed form.
  const invP = P <= TWO_53 ? 1 / Number(P) : Math.exp(-lnP);
  const t = 4 * c * invP * (1 - invP);
  const root = (2 * c * (1 - invP)) / (1 + Math.sqrt(Math.max(0, 1 - t)));
  let cand = Number.isFinite(root) ? BigInt(Math.max(1, Math.ceil(root))) : mid;
  if (cand > mid) cand = mid;

  // ok is false…false true…true on [0, mid] (ok(0) is false since c > 0): bracket the switch, then bisect.
  let lo: bigint; // !ok(lo)
  let hi: bigint; // ok(hi)
  let step = 1n;
  if (ok(cand)) {
    hi = cand;
    for (;;) {
      const x = hi - step;
      if (x < 1n) {
        lo = 0n;
        break;
      }
      if (!ok(x)) {
        lo = x;
        break;
      }
      hi = x;
      step *= 2n;
    }
  } else {
    lo = cand;
    for (;;) {
      const x = lo + step;
      if (x >= mid) {
        hi = mid;
        break;
      }
      if (ok(x)) {
        hi = x;
        break;
      }
      lo = x;
      step *= 2n;
    }
  }
  while (hi - lo > 1n) {
    const m = (lo + hi) / 2n;
    if (ok(m)) hi = m;
    else lo = m;
  }
  return { L: hi, exact: hi < TWO_53 };
}

function validateEpsilonDelta(epsilon: number, delta: number): void {
  if (typeof epsilon !== 'number' || !(epsilon > 0 && epsilon <= 1)) throw new RangeError(`ε (epsilon) must be a number in (0, 1]; got ${String(epsilon)}`);
  if (typeof delta !== 'number' || !(delta > 0 && delta < 1)) throw new RangeError(`δ (delta) must be a number in (0, 1); got ${String(delta)}`);
}

function validateOmega(omega: bigint, min: bigint, theorem: string): void {
  if (typeof omega !== 'bigint') throw new TypeError(`|Ω| must be a BigInt; got ${typeof omega}`);
  if (omega < min) throw new RangeError(`${theorem} needs |Ω| ≥ ${min}; got ${omega}`);
}

function finish(omega: bigint, lnOmega: number, solved: { L: bigint | null; exact: boolean }, rhs: number): SampleSizeBound {
  const log10Omega = omega <= TWO_53 ? Math.log10(Number(omega)) : lnOmega / Math.LN10;
  const { L, exact } = solved;
  if (L === null) return { L, fraction: 1, log10Fraction: 0, log10Omega, rhs, exact };
  const log10Fraction = log10BigInt(L) - log10Omega;
  const fraction = omega <= TWO_53 ? Number(L) / Number(omega) : 10 ** log10Fraction;
  return { L, fraction, log10Fraction, log10Omega, rhs, exact };
}

/**
 * Theorem 1: smallest L with L·(|Ω|−L)/(|Ω|−1) ≥ ln(2|Ω|/δ) / (2ε²).
 * @param omega |Ω| ≥ 2, exact. @param epsilon ε ∈ (0, 1]. @param delta δ ∈ (0, 1).
 */
export function theorem1SampleSize(omega: bigint, epsilon: number, delta: number): SampleSizeBound {
  validateOmega(omega, 2n, 'Theorem 1');
  validateEpsilonDelta(epsilon, delta);
  const lnOmega = lnBigInt(omega);
  const rhs = (Math.LN2 + lnOmega - Math.log(delta)) / (2 * epsilon * epsilon);
  return finish(omega, lnOmega, smallestSampleSize(omega, lnOmega, rhs), rhs);
}

/**
 * Theorem 2: smallest L with L·(|Ω|−2−L)/(|Ω|−3) ≥ ln(2(|Ω|−2)/δ)·R² / (2ε²), R = A(ω+) − A(ω−).
 * @param omega |Ω| ≥ 4, exact. @param epsilon ε ∈ (0, 1]. @param delta δ ∈ (0, 1). @param range R > 0 (default 1).
 */
export function theorem2SampleSize(omega: bigint, epsilon: number, delta: number, range = 1): SampleSizeBound {
  validateOmega(omega, 4n, 'Theorem 2');
  validateEpsilonDelta(epsilon, delta);
  if (typeof range !== 'number' || !(range > 0 && Number.isFinite(range)))
    throw new RangeError(`R (range of A over Ω) must be a finite number > 0; got ${String(range)}`);
  const P = omega - 2n;
  const lnP = lnBigInt(P);
  const rhs = ((Math.LN2 + lnP - Math.log(delta)) * range * range) / (2 * epsilon * epsilon);
  return finish(omega, lnBigInt(omega), smallestSampleSize(P, lnP, rhs), rhs);
}
