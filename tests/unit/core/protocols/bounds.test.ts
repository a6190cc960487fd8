import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lnBigInt, log10BigInt, theorem1SampleSize, theorem2SampleSize } from '../../../../src/core/protocols/bounds';

interface BoundCase {
  theorem: 1 | 2;
  omegaName: string;
  omega: string;
  epsilon: number;
  delta: number;
  range?: number;
  log10Omega: number;
  rhs: number;
  L: string | null;
  log10Fraction?: number;
}

const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/bounds.json', import.meta.url), 'utf8')) as {
  _note: string;
  cases: BoundCase[];
};

function factorial(n: number): bigint {
  let r = 1n;
  for (let i = 2n; i <= BigInt(n); i++) r *= i;
  return r;
}

/**
 * Brute force in exact arithmetic: the double c = num/den (den a power of two) is exact as a rational, so
 * L(P−L)/(P−1) ≥ c ⇔ L(P−L)·den ≥ num·(P−1) in BigInts. Scans L = 1..P.
 */
function satisfies(P: bigint, L: bigint, c: number): boolean {
  let den = 1n;
  let x = c;
  while (!Number.isInteger(x)) {
    x *= 2;
    den *= 2n;
  }
  return L * (P - L) * den >= BigInt(x) * (P - 1n);
}

function bruteForce(P: number, c: number): bigint | null {
  const p = BigInt(P);
  for (let L = 1n; L <= p; L++) if (satisfies(p, L, c)) return L;
  return null;
}

describe('lnBigInt', () => {
  it('matches Math.log for small values and is exact-to-rounding for huge ones', () => {
    for (const x of [1n, 2n, 10n, 90n, 2520n, 113400n, 2n ** 53n, 10n ** 16n + 7n]) {
      expect(lnBigInt(x)).toBe(Math.log(Number(x)));
    }
    expect(lnBigInt(1n)).toBe(0);
    expect(lnBigInt(2n ** 1000n) / (1000 * Math.LN2)).toBeCloseTo(1, 14);
    expect(lnBigInt(10n ** 500n) / (500 * Math.LN10)).toBeCloseTo(1, 14);
    // ln(100!) = lgamma(101) = 363.73937555556347 (Python math.lgamma)
    expect(lnBigInt(factorial(100))).toBeCloseTo(363.73937555556347, 11);
    // ln(1000!) = 5912.128178488163 (Python math.lgamma(1001))
    expect(lnBigInt(factorial(1000))).toBeCloseTo(5912.128178488163, 10);
    expect(log10BigInt(10n ** 300n)).toBeCloseTo(300, 12);
    expect(log10BigInt(123n)).toBe(Math.log10(123));
  });

  it('rejects zero, negatives and non-BigInts', () => {
    expect(() => lnBigInt(0n)).toThrow(RangeError);
    expect(() => lnBigInt(-5n)).toThrow(/positive BigInt/);
    expect(() => lnBigInt(5 as unknown as bigint)).toThrow(TypeError);
  });
});

describe('theorem1SampleSize / theorem2SampleSize against brute force (small |Ω|)', () => {
  const epsilons = [0.03, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1];
  const deltas = [0.001, 0.01, 0.05, 0.1, 0.5, 0.9];
  it('Theorem 1 for |Ω| = 2..400', () => {
    let checked = 0;
    let finite = 0;
    for (let omega = 2; omega <= 400; omega += omega < 40 ? 1 : 7) {
      for (const e of epsilons)
        for (const d of deltas) {
          const r = theorem1SampleSize(BigInt(omega), e, d);
          expect(r.rhs).toBeCloseTo(Math.log((2 * omega) / d) / (2 * e * e), 10);
          const want = bruteForce(omega, r.rhs);
          expect(r.L, `|Ω|=${omega} ε=${e} δ=${d}`).toBe(want);
          if (want !== null) {
            finite++;
            expect(r.fraction).toBe(Number(want) / omega);
          } else expect(r.fraction).toBe(1);
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(2000);
    expect(finite).toBeGreaterThan(300);
  });

  it('Theorem 2 for |Ω| = 4..400 and several R', () => {
    let finite = 0;
    for (let omega = 4; omega <= 400; omega += omega < 40 ? 1 : 11) {
      for (const e of epsilons)
        for (const d of deltas)
          for (const R of [1, 0.5, 0.1]) {
            const r = theorem2SampleSize(BigInt(omega), e, d, R);
            const P = omega - 2;
            expect(r.rhs).toBeCloseTo((Math.log((2 * P) / d) * R * R) / (2 * e * e), 10);
            const want = bruteForce(P, r.rhs);
            expect(r.L, `|Ω|=${omega} ε=${e} δ=${d} R=${R}`).toBe(want);
            if (want !== null) finite++;
          }
    }
    expect(finite).toBeGreaterThan(300);
  });

  it('handles the steepest spot, where the quadratic has a double root', () => {
    // |Ω| = 90: L(90−L)/89 peaks at 2025/89 = 22.7528…; sweep c across it.
    for (let c = 22.7; c < 22.8; c += 0.001) {
      const eps = Math.sqrt(Math.log(180 / 0.05) / (2 * c));
      const r = theorem1SampleSize(90n, eps, 0.05);
      expect(r.L).toBe(bruteForce(90, r.rhs));
    }
  });

  it('default R is 1', () => {
    expect(theorem2SampleSize(2520n, 0.2, 0.05)).toEqual(theorem2SampleSize(2520n, 0.2, 0.05, 1));
  });
});

describe('against the Python reference (tests/fixtures/bounds.json)', () => {
  it('has a note saying how it was made', () => {
    expect(fixture._note).toMatch(/make-bounds-fixtures\.py/);
    expect(fixture.cases.length).toBeGreaterThan(200);
  });

  it.each(fixture.cases.map((c) => [`T${c.theorem} ${c.omegaName} ε=${c.epsilon} δ=${c.delta} R=${c.range ?? '-'}`, c]))('%s', (_label, c) => {
    const kase = c as BoundCase;
    const omega = BigInt(kase.omega);
    const r = kase.theorem === 1 ? theorem1SampleSize(omega, kase.epsilon, kase.delta) : theorem2SampleSize(omega, kase.epsilon, kase.delta, kase.range);
    expect(r.L === null ? null : r.L.toString()).toBe(kase.L);
    expect(r.rhs / kase.rhs).toBeCloseTo(1, 13);
    expect(r.log10Omega / kase.log10Omega).toBeCloseTo(1, 13);
    if (kase.L !== null) {
      expect(r.exact).toBe(true);
      expect(r.log10Fraction - kase.log10Fraction!).toBeCloseTo(0, 10);
    }
  });

  it('gives the expected magnitudes for CIFAR-100 in 10 tasks', () => {
    const omega = factorial(100) / factorial(10) ** 10n;
    expect(omega.toString().slice(0, 4)).toBe('2357');
    const r = theorem1SampleSize(omega, 0.05, 0.05);
    expect(r.log10Omega).toBeCloseTo(92.372, 3);
    // L ≈ ln(2|Ω|/δ)/(2ε²) when |Ω| ≫ L
    expect(Number(r.L)).toBe(Math.ceil(r.rhs));
    expect(r.fraction).toBeGreaterThan(0);
    expect(r.fraction).toBeLessThan(1e-80);
    const big = theorem1SampleSize(factorial(1000) / factorial(100) ** 10n, 0.05, 0.05);
    expect(big.fraction).toBe(0); // 10^-984 underflows; log10Fraction carries it
    expect(big.log10Fraction).toBeLessThan(-980);
  });
});

describe('huge L and exactness', () => {
  it('flags L ≥ 2^53 as not exact, still the right magnitude', () => {
    const omega = factorial(1000) / factorial(100) ** 10n;
    const r = theorem1SampleSize(omega, 1e-9, 0.05);
    expect(r.L).not.toBeNull();
    expect(r.L! > 2n ** 53n).toBe(true);
    expect(r.exact).toBe(false);
    expect(Number(r.L) / r.rhs).toBeCloseTo(1, 12);
  });

  it('L near |Ω|/2 for a moderately large |Ω| stays exact', () => {
    // |Ω| = 10^12 + 1, c chosen so L is in the tens of billions: the answer must satisfy the bound and L−1 must not.
    const omega = 10n ** 12n + 1n;
    const r = theorem1SampleSize(omega, 1e-5, 0.01);
    const L = r.L!;
    expect(L > 10n ** 10n).toBe(true);
    expect(satisfies(omega, L, r.rhs)).toBe(true);
    expect(satisfies(omega, L - 1n, r.rhs)).toBe(false);
    expect(r.exact).toBe(true);
  });
});

describe('validation', () => {
  it('rejects bad ε, δ, R and |Ω| with clear RangeErrors', () => {
    expect(() => theorem1SampleSize(90n, 0, 0.05)).toThrow(/ε \(epsilon\) must be a number in \(0, 1\]; got 0/);
    expect(() => theorem1SampleSize(90n, 1.5, 0.05)).toThrow(RangeError);
    expect(() => theorem1SampleSize(90n, Number.NaN, 0.05)).toThrow(/got NaN/);
    expect(() => theorem1SampleSize(90n, 0.1, 0)).toThrow(/δ \(delta\) must be a number in \(0, 1\); got 0/);
    expect(() => theorem1SampleSize(90n, 0.1, 1)).toThrow(RangeError);
    expect(() => theorem1SampleSize(1n, 0.1, 0.05)).toThrow(/Theorem 1 needs \|Ω\| ≥ 2; got 1/);
    expect(() => theorem2SampleSize(3n, 0.1, 0.05)).toThrow(/Theorem 2 needs \|Ω\| ≥ 4; got 3/);
    expect(() => theorem2SampleSize(90n, 0.1, 0.05, 0)).toThrow(/R \(range of A over Ω\) must be a finite number > 0; got 0/);
    expect(() => theorem2SampleSize(90n, 0.1, 0.05, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => theorem1SampleSize(90 as unknown as bigint, 0.1, 0.05)).toThrow(/must be a BigInt/);
    expect(theorem1SampleSize(90n, 1, 0.5).L).not.toBeNull(); // ε = 1 is allowed
  });
});
