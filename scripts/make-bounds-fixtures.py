#!/usr/bin/env python3
"""Reference values for src/core/protocols/bounds.ts (docs/science.md §1, "Sample-size bounds").

Writes tests/fixtures/bounds.json. |Ω| is an exact Python int; the right-hand side c is computed with mpmath
at 80 significant digits (Python's decimal module if mpmath is missing), and L is the smallest integer with
L·(P−L) ≥ c·(P−1), compared at that precision (P = |Ω| for Theorem 1, |Ω|−2 for Theorem 2), found by bisection
over [1, ⌊P/2⌋] — no closed form, so it checks the TypeScript solver independently.

Run: python3 scripts/make-bounds-fixtures.py
"""
import json
import math
import os
from fractions import Fraction

try:
    import mpmath

    mpmath.mp.dps = 80
    BACKEND = f"mpmath {mpmath.__version__} at 80 digits"

    def ln(x):  # x: int or Fraction
        if isinstance(x, Fraction):
            return mpmath.log(mpmath.mpf(x.numerator)) - mpmath.log(mpmath.mpf(x.denominator))
        return mpmath.log(mpmath.mpf(x))

    def num(x):
        if isinstance(x, Fraction):
            return mpmath.mpf(x.numerator) / mpmath.mpf(x.denominator)
        return mpmath.mpf(x)

    def to_float(x):
        return float(x)

except ImportError:  # pragma: no cover
    import decimal

    decimal.getcontext().prec = 80
    D = decimal.Decimal
    BACKEND = "Python decimal at 80 digits"

    def ln(x):
        if isinstance(x, Fraction):
            return D(x.numerator).ln() - D(x.denominator).ln()
        return D(x).ln()

    def num(x):
        if isinstance(x, Fraction):
            return D(x.numerator) / D(x.denominator)
        return D(x)

    def to_float(x):
        return float(x)


def exact(x: float) -> Fraction:
    """The double x as the exact rational it is (ε, δ, R are doubles in TypeScript too)."""
    return Fraction(x)


def smallest_l(P: int, c):
    """Smallest integer L in [1, P] with L(P−L)/(P−1) ≥ c, or None."""
    cP = c * num(P - 1)
    ok = lambda L: num(L * (P - L)) >= cP  # noqa: E731
    mid = P // 2
    if not ok(mid):
        return None, None
    lo, hi = 0, mid  # not ok(lo), ok(hi)
    while hi - lo > 1:
        m = (lo + hi) // 2
        if ok(m):
            hi = m
        else:
            lo = m
    # relative margin of the decision at L and L−1 (how far c is from the nearest step)
    margin = min(abs(num(hi * (P - hi)) - cP), abs(num(lo * (P - lo)) - cP)) / cP
    return hi, margin


def log10_int(x: int):
    return ln(x) / ln(10)


def case(theorem: int, omega_name: str, omega: int, eps: float, delta: float, R: float = 1.0):
    P = omega if theorem == 1 else omega - 2
    c = ln(2 * P) - ln(exact(delta))
    if theorem == 2:
        c = c * num(exact(R)) ** 2
    c = c / (2 * num(exact(eps)) ** 2)
    L, margin = smallest_l(P, c)
    out = {
        "theorem": theorem,
        "omegaName": omega_name,
        "omega": str(omega),
        "epsilon": eps,
        "delta": delta,
        "log10Omega": to_float(log10_int(omega)),
        "rhs": to_float(c),
        "L": None if L is None else str(L),
    }
    if theorem == 2:
        out["range"] = R
    if L is not None:
        out["log10Fraction"] = to_float(log10_int(L) - log10_int(omega))
        out["relativeMargin"] = to_float(margin)
    return out


def main():
    f = math.factorial
    omegas = [
        ("90 (6 classes / 3 tasks)", 90),
        ("2520 (8/4)", 2520),
        ("113400 (10/5)", 113400),
        ("100!/(10!)^10", f(100) // f(10) ** 10),
        ("1000!/(100!)^10", f(1000) // f(100) ** 10),
    ]
    cases = []
    for name, omega in omegas:
        for eps in (0.05, 0.1, 0.2, 0.5):
            for delta in (0.01, 0.05, 0.1):
                cases.append(case(1, name, omega, eps, delta))
                for R in (1.0, 0.3, 0.05):
                    cases.append(case(2, name, omega, eps, delta, R))
    data = {
        "_note": (
            "Made by scripts/make-bounds-fixtures.py with " + BACKEND + ": |Ω| exact Python ints, "
            "c = ln(2P/δ)·R²/(2ε²) (P = |Ω| for Theorem 1, |Ω|−2 for Theorem 2, R = 1 for Theorem 1), "
            "L = smallest integer with L(P−L) ≥ c(P−1) by bisection at that precision, null if none. "
            "relativeMargin = distance of c(P−1) from the nearest step L(P−L), relative."
        ),
        "cases": cases,
    }
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "fixtures", "bounds.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
