#!/usr/bin/env python3
"""Fixtures for src/core/stats (docs/science.md §2): scipy's answers on many inputs, for the TypeScript statistics core
to match to 1e-6 (or tighter).

Writes tests/fixtures/stats.json with
  special      scipy.special: ndtr, ndtri, erf, erfc, gammaln, betainc, betaincc, gammainc, gammaincc,
               stdtr, chdtrc (chi-squared sf)
  samples      inputs of many shapes (normal, skewed, uniform, heavy-tailed, bimodal, with ties, with zeros,
               negative, constant; n from 3 to 500) with numpy's moments and scipy.stats' shapiro, normaltest
               (+ skewtest, kurtosistest), kstest(x, 'norm', args=(mean, std)) with the population std (np.std,
               ddof=0, our default) and with the sample std (ddof=1); then boxcox after the shift rule of
               src/core/stats/boxcox.ts (shift = 0 if min > 0, else (max - min) - min), boxcox_llf at the optimum,
               `lambdaTolerance` (how precisely the flat likelihood determines lambda, see lambda_tolerance) and
               `llfNoise` (the spread of llf evaluations within ~1e-12 of lambda-hat), and
               the same three tests on the transformed values
  boxcoxLlf    scipy.stats.boxcox_llf at given lambdas (including 0 and large |lambda|)
  brent        scipy.optimize.brent(f, brack=..., full_output=True) on closed-form functions
  kstwo        scipy.stats.kstwo.sf / .cdf on an (n, d) grid reaching every branch of _kolmogn
  smirnov      scipy.special.smirnov (one-sided KS sf)
  pearson      scipy.stats.pearsonr (r, two-sided p)
  spearman     scipy.stats.spearmanr (rho, two-sided p)
  rankdata     scipy.stats.rankdata(method='average')
  quality      JSD (bits) and W1 of a Gaussian estimate against an empirical truth, by an INDEPENDENT numpy
               implementation of docs/science.md §2's recipe:
                 sigma_truth = np.std(truth) (population); grid = np.histogram(truth, bins=64,
                 range=(min - 3 sigma_truth, max + 3 sigma_truth)); truth mass = counts / n; Gaussian mass =
                 np.diff(scipy.stats.norm.cdf(edges, mu, sigma)) (a point mass, the step 1[edge >= mu], when
                 sigma = 0); eps = 1e-12 added to both, each normalised; JSD = 0.5 KL(P||M) + 0.5 KL(Q||M) in log2
                 (cross-checked against scipy.spatial.distance.jensenshannon(p, q, base=2)**2);
                 W1 = mean over u_k = (k + 0.5)/4096 of |np.quantile(truth, u_k, method='inverted_cdf')
                 - norm.ppf(u_k, mu, sigma)|, i.e. the inverse of the empirical step CDF, x_(ceil(n u));
                 reported raw and x100 (accuracy points). The estimate is N(mean, np.std(estimate)) (population).
  rankings     min / max / population std per strategy under truth, edge and rs; ranks with
               scipy.stats.rankdata(-score) for min and max (higher is better) and rankdata(std) (lower is better),
               ties averaged; ranking error = sum |rank - rank_truth| per dimension and in total
  sampleCount  the Fig. A6 study: rng = np.random.default_rng(seed); per repeat rs = rng.permutation(n),
               extra = [i for i in rng.permutation(n) if i not in edge]; RS with L = the first L of rs;
               EDGE-plus-random with L = the 3 EDGE + the first L - 3 of extra (L >= 3); JSD / W1 as in `quality`;
               mean and population std over the repeats

Run: python3 scripts/make-stats-fixtures.py   (numpy + scipy; deterministic)
"""
import json
import math
import os
import warnings

import numpy as np
import scipy
from scipy import optimize, special, stats
from scipy.spatial.distance import jensenshannon

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "fixtures", "stats.json")
rng = np.random.default_rng(20250917)

warnings.simplefilter("ignore")


def num(v):
    """NaN -> null; +-inf -> "Infinity" / "-Infinity" (JSON has neither)."""
    v = float(v)
    if math.isnan(v):
        return None
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def arr(a):
    return [num(v) for v in np.asarray(a, dtype=float).ravel()]


# ---------------------------------------------------------------- special functions
def special_fixture():
    xs = [-38.5, -37.0, -30.0, -20.0, -10.0, -8.5, -5.0, -3.0, -1.5, -1.0, -0.7071, -0.5, -1e-5, 0.0, 1e-5, 0.3,
          0.7071, 1.0, 1.4142, 2.0, 3.5, 5.0, 8.0, 8.4, 10.0, 20.0]
    ps = [1e-300, 1e-100, 1e-20, 1.2e-14, 1e-10, 1e-5, 1e-3, 0.01, 0.05, 0.1, 0.13, 0.1353352832366127, 0.14, 0.2,
          0.3, 0.5, 0.6, 0.8, 0.86, 0.9, 0.95, 0.99, 0.999, 1 - 1e-10, 1 - 1e-15]
    zs = [-6.0, -3.0, -1.2, -1.0, -0.99, -0.5, -0.1, 0.0, 1e-3, 0.2, 0.5, 0.9, 1.0, 1.2, 2.0, 2.5, 3.0, 4.0, 6.0,
          7.9, 8.1, 12.0, 26.0, 27.5]
    gl = [1e-8, 0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 7.5, 10.0, 44.5, 100.5, 250.0, 1000.0, 1e5, 1e7, -0.5, -1.5, -2.3]
    beta_args = [(0.5, 0.5, 0.3), (1, 1, 0.42), (2, 3, 0.1), (2, 3, 0.9), (0.5, 44, 0.01), (44, 0.5, 0.999),
                 (0.5, 0.5, 1e-8), (3.5, 0.5, 0.75), (49, 0.5, 0.9), (49, 0.5, 0.2), (249, 0.5, 0.98),
                 (249, 0.5, 0.5), (10, 10, 0.5), (100, 120, 0.45), (0.5, 249, 0.001), (5, 7, 0.999999),
                 (1000, 0.5, 0.995), (2.5, 2.5, 0.5)]
    gamma_args = [(0.5, 0.1), (0.5, 2.0), (1, 1), (1, 30), (2.5, 1.0), (2.5, 10.0), (10, 5), (10, 15), (50, 45),
                  (50, 70), (0.1, 1e-3), (3, 0.0), (100, 100)]
    t_args = [(1, -3.0), (1, 2.0), (2, 0.5), (3, -0.1), (5, 2.571), (10, -4.0), (28, 2.0), (88, -1.5),
              (88, 6.0), (498, 0.3), (498, -12.0), (0.5, 1.0)]
    chi_args = [(1, 0.5), (2, 0.0), (2, 3.0), (2, 60.0), (3, 7.8), (5, 1.0), (10, 25.0), (0.5, 0.1)]
    return {
        "ndtr": [[x, num(special.ndtr(x))] for x in xs],
        "erf": [[x, num(special.erf(x))] for x in zs],
        "erfc": [[x, num(special.erfc(x))] for x in zs],
        "ndtri": [[p, num(special.ndtri(p))] for p in ps],
        "gammaln": [[x, num(special.gammaln(x))] for x in gl],
        "betainc": [[a, b, x, num(special.betainc(a, b, x))] for a, b, x in beta_args],
        "betaincc": [[a, b, x, num(special.betaincc(a, b, x))] for a, b, x in beta_args],
        "gammainc": [[a, x, num(special.gammainc(a, x))] for a, x in gamma_args],
        "gammaincc": [[a, x, num(special.gammaincc(a, x))] for a, x in gamma_args],
        "stdtr": [[df, t, num(special.stdtr(df, t))] for df, t in t_args],
        "chi2sf": [[k, x, num(special.chdtrc(k, x))] for k, x in chi_args],
    }


# ---------------------------------------------------------------- samples and normality
def boxcox_shift(x):
    lo, hi = float(np.min(x)), float(np.max(x))
    return 0.0 if lo > 0 else (hi - lo) - lo


def tests_of(x):
    n = len(x)
    out = {}
    if n >= 3:
        r = stats.shapiro(x)
        out["shapiro"] = {"statistic": num(r.statistic), "pvalue": num(r.pvalue)}
    else:
        out["shapiro"] = None
    if n >= 8:
        r = stats.normaltest(x)
        s = stats.skewtest(x)
        k = stats.kurtosistest(x)
        out["normaltest"] = {
            "statistic": num(r.statistic), "pvalue": num(r.pvalue),
            "skew": {"statistic": num(s.statistic), "pvalue": num(s.pvalue)},
            "kurtosis": {"statistic": num(k.statistic), "pvalue": num(k.pvalue)},
        }
    else:
        out["normaltest"] = None
    ks = {}
    for name, ddof in (("population", 0), ("sample", 1)):
        if n - ddof < 1:
            ks[name] = None
            continue
        mu, sd = float(np.mean(x)), float(np.std(x, ddof=ddof))
        r = stats.kstest(x, "norm", args=(mu, sd))
        ks[name] = {
            "statistic": num(r.statistic), "pvalue": num(r.pvalue), "mean": mu, "std": sd,
            "location": num(r.statistic_location), "sign": int(r.statistic_sign) if not math.isnan(r.statistic) else None,
        }
    out["ks"] = ks
    return out


def lambda_tolerance(xs, lam):
    """How precisely the data determine lambda-hat: llf is flat at its maximum, so lambda is only defined to
    ~sqrt(8 (e_f + ulp) / |llf''|), e_f = the evaluation noise of llf (its spread over 41 points within ~1e-12 of
    lambda-hat). The TS test compares lambda to max(1e-6 max(1, |lambda|), that); llf'' by central differences."""
    f = lambda t: stats.boxcox_llf(t, xs)
    h = 1e-3 * max(1.0, abs(lam))
    f2 = (f(lam + h) - 2 * f(lam) + f(lam - h)) / h ** 2
    probe = [f(lam * (1 + k * 1e-13) + k * 1e-15) for k in range(-20, 21)]
    ef = max(probe) - min(probe)
    flat = math.sqrt(8 * (ef + np.spacing(abs(f(lam)))) / abs(f2)) if f2 < 0 else 0.0
    return max(1e-6 * max(1.0, abs(lam)), flat), ef


def sample_entry(name, x, boxcox=True):
    x = np.asarray(x, dtype=float)
    n = len(x)
    e = {
        "name": name,
        "values": arr(x),
        "moments": {
            "n": n, "mean": num(np.mean(x)), "variance": num(np.var(x)), "std": num(np.std(x)),
            "sampleVariance": num(np.var(x, ddof=1)) if n > 1 else None,
            "sampleStd": num(np.std(x, ddof=1)) if n > 1 else None,
            "min": num(np.min(x)), "max": num(np.max(x)),
        },
        "raw": tests_of(x),
    }
    if boxcox and n >= 2 and not np.all(x == x[0]):
        shift = boxcox_shift(x)
        xs = x + shift
        y, lam = stats.boxcox(xs)
        lam_tol, llf_noise = lambda_tolerance(xs, float(lam))
        e["boxcox"] = {
            "shift": shift, "lambda": float(lam), "lambdaTolerance": lam_tol, "llfNoise": llf_noise,
            "llf": num(stats.boxcox_llf(lam, xs)),
            "transformed": arr(y) if n <= 60 else None,
        }
        e["after"] = tests_of(y) if np.all(np.isfinite(y)) and np.isfinite(np.std(y)) else None
    else:
        e["boxcox"] = None
        e["after"] = None
    return e


def samples_fixture():
    out = []
    for n in [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 20, 25, 30, 50, 90, 100, 150, 200, 300, 500]:
        out.append(sample_entry(f"normal n={n}", rng.normal(0.6, 0.05, n)))
    for n in [8, 20, 90, 200]:
        out.append(sample_entry(f"lognormal n={n}", rng.lognormal(0.0, 0.8, n)))
    for n in [10, 90, 500]:
        out.append(sample_entry(f"exponential n={n}", rng.exponential(2.0, n)))
    for n in [5, 12, 90, 300]:
        out.append(sample_entry(f"uniform n={n}", rng.uniform(0.2, 0.9, n)))
    for n in [10, 30, 90, 200]:
        out.append(sample_entry(f"ties (1 decimal) n={n}", np.round(rng.normal(5, 1, n), 1)))
    out.append(sample_entry("ties (small integers) n=40", rng.integers(1, 6, 40).astype(float)))
    for n in [8, 30, 90]:
        out.append(sample_entry(f"accuracies with zeros n={n}", np.round(np.clip(rng.normal(0.08, 0.08, n), 0, 1), 2)))
    acc = np.round(rng.beta(40, 10, 90), 4)
    out.append(sample_entry("final accuracies (fractions) n=90", acc))
    out.append(sample_entry("final accuracies (percent) n=90", acc * 100))
    out.append(sample_entry("negative n=20", rng.normal(-5, 2, 20)))
    out.append(sample_entry("student t df=2 n=100", rng.standard_t(2, 100)))
    out.append(sample_entry("bimodal n=90", np.concatenate([rng.normal(0.3, 0.02, 45), rng.normal(0.5, 0.02, 45)])))
    out.append(sample_entry("two values n=12", np.array([0.4] * 6 + [0.5] * 6)))
    # relative spread 1e-9: llf is flat to rounding noise over a wide range of lambda, so Box-Cox is skipped
    out.append(sample_entry("n=3 near-degenerate", np.array([1.0, 1.0, 1.0 + 1e-9]), boxcox=False))
    out.append(sample_entry("n=3 equally spaced", np.array([1.0, 2.0, 3.0])))
    out.append(sample_entry("constant n=10", np.full(10, 0.5)))
    # lambda runs away (optimum ~2e4): scipy's ymax guard constrains it so the transform stays below ~1.8e304;
    # the transformed values are then too large for the tests (their variance overflows): "after" is null
    out.append(sample_entry("large offset n=50 (ymax guard)", 1e6 + rng.normal(0, 1, 50)))
    out.append(sample_entry("small values n=30", rng.uniform(1e-6, 2e-6, 30)))
    return out


def boxcox_llf_fixture():
    cases = []
    data = [rng.lognormal(0, 0.5, 30), np.round(rng.beta(40, 10, 90), 4), rng.uniform(50, 90, 20)]
    for d in data:
        for lam in [-15.0, -2.0, -0.5, 0.0, 1e-21, 0.3, 1.0, 2.5, 12.0, 60.0]:
            cases.append({"values": arr(d), "lambda": lam, "llf": num(stats.boxcox_llf(lam, d))})
    return cases


# ---------------------------------------------------------------- brent
BRENT_FUNCS = {
    "quadratic": (lambda x: (x - 1.3) ** 2 + 0.5, (-2.0, 2.0)),
    "quartic": (lambda x: x ** 4 - 3 * x ** 3 + 2, (0.0, 1.0)),
    "cosine": (lambda x: math.cos(x), (0.0, 1.0)),
    "far": (lambda x: (x - 40.0) ** 2, (-2.0, 2.0)),
    "abs": (lambda x: abs(x + 0.75) + 0.1 * x * x, (-2.0, 2.0)),
}


def brent_fixture():
    out = []
    for name, (f, brack) in BRENT_FUNCS.items():
        x, fx, it, nfev = optimize.brent(f, brack=brack, full_output=True)
        out.append({"name": name, "brack": list(brack), "x": float(x), "fx": float(fx), "iterations": int(it),
                    "evaluations": int(nfev)})
    return out


# ---------------------------------------------------------------- KS distributions
def kstwo_fixture():
    out = []
    for n in [1, 2, 3, 4, 5, 8, 10, 20, 50, 90, 100, 140, 141, 150, 200, 300, 500, 1000, 2000, 5000]:
        ds = {0.0, 0.45 / n, 0.75 / n, 1.0 / n, 1.5 / n, 0.5, 0.55, 0.7, 0.95, 1.0}
        if n > 1:
            ds.add(1 - 1.0 / n + 1e-9)
        for z in [0.3, 0.5, 0.7, 0.85, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.4, 3.0, 4.0]:
            ds.add(z / math.sqrt(n))
        for d in sorted(ds):
            if 0 <= d <= 1:
                out.append([n, d, num(stats.kstwo.sf(d, n)), num(stats.kstwo.cdf(d, n))])
    return out


def smirnov_fixture():
    out = []
    for n in [1, 2, 5, 10, 50, 140, 500, 2000]:
        for d in [0.0, 0.3 / n, 1.0 / n, 0.05, 0.1, 0.2, 0.33, 0.5, 0.8, 1 - 0.5 / n, 1.0]:
            if 0 <= d <= 1:
                out.append([n, d, num(special.smirnov(n, d))])
    return out


# ---------------------------------------------------------------- correlation, ranks
def correlation_fixture():
    pear, spear = [], []
    for n, rho in [(2, 0.5), (3, 0.9), (4, -0.3), (5, 0.0), (10, 0.7), (30, -0.5), (90, 0.3), (90, 0.95),
                   (500, 0.05), (500, -0.999)]:
        x = rng.normal(0, 1, n)
        y = rho * x + math.sqrt(1 - rho * rho) * rng.normal(0, 1, n)
        r = stats.pearsonr(x, y)
        pear.append({"x": arr(x), "y": arr(y), "r": num(r.statistic), "p": num(r.pvalue)})
        s = stats.spearmanr(x, y)
        spear.append({"x": arr(x), "y": arr(y), "rho": num(s.statistic), "p": num(s.pvalue)})
    x = np.arange(12.0)
    for y in [2 * x + 1, -x, np.round(rng.normal(0, 1, 12), 0), np.full(12, 3.0)]:
        r = stats.pearsonr(x, y)
        pear.append({"x": arr(x), "y": arr(y), "r": num(r.statistic), "p": num(r.pvalue)})
        s = stats.spearmanr(x, y)
        spear.append({"x": arr(x), "y": arr(y), "rho": num(s.statistic), "p": num(s.pvalue)})
    # ties on both sides (similarity scores vs accuracies)
    xs = np.round(rng.normal(0, 1, 60), 1)
    ys = np.round(0.5 * xs + rng.normal(0, 1, 60), 1)
    s = stats.spearmanr(xs, ys)
    spear.append({"x": arr(xs), "y": arr(ys), "rho": num(s.statistic), "p": num(s.pvalue)})
    r = stats.pearsonr(xs, ys)
    pear.append({"x": arr(xs), "y": arr(ys), "r": num(r.statistic), "p": num(r.pvalue)})
    return pear, spear


def rankdata_fixture():
    cases = [[3.0, 1.0, 2.0], [10, 20, 10, 30, 20, 20], [5.0] * 4, [], [0.1, -0.2, 0.1, 0.3, -0.2, 0.0, 0.1],
             np.round(rng.normal(0, 1, 40), 1).tolist()]
    return [{"x": arr(c), "ranks": arr(stats.rankdata(c, method="average"))} for c in cases]


# ---------------------------------------------------------------- JSD and W1 (independent numpy implementation)
EPS = 1e-12
U = (np.arange(4096) + 0.5) / 4096


def gaussian_of(est):
    est = np.asarray(est, dtype=float)
    return float(np.mean(est)), float(np.std(est))


def jsd_ref(truth, mu, sigma):
    truth = np.asarray(truth, dtype=float)
    s = float(np.std(truth))
    if not s > 0:
        return None, None
    lo, hi = float(truth.min()) - 3 * s, float(truth.max()) + 3 * s
    counts, edges = np.histogram(truth, bins=64, range=(lo, hi))
    p = counts / counts.sum()
    cdf = stats.norm.cdf(edges, mu, sigma) if sigma > 0 else (edges >= mu).astype(float)
    q = np.diff(cdf)
    p = p + EPS
    q = q + EPS
    p = p / p.sum()
    q = q / q.sum()
    m = 0.5 * (p + q)
    js = 0.5 * np.sum(p * np.log2(p / m)) + 0.5 * np.sum(q * np.log2(q / m))
    check = jensenshannon(p, q, base=2) ** 2
    assert abs(js - check) < 1e-12, (js, check)
    return float(js), {"lo": lo, "hi": hi, "counts": counts.tolist(), "edges": arr(edges)}


def w1_ref(truth, mu, sigma):
    qt = np.quantile(np.asarray(truth, dtype=float), U, method="inverted_cdf")
    qe = stats.norm.ppf(U, mu, sigma) if sigma > 0 else np.full(U.shape, mu)
    return float(np.mean(np.abs(qt - qe)))


def quality_entry(name, truth, est):
    mu, sigma = gaussian_of(est)
    js, grid = jsd_ref(truth, mu, sigma)
    w1 = w1_ref(truth, mu, sigma)
    return {"name": name, "truth": arr(truth), "estimate": arr(est), "mean": mu, "std": sigma, "jsd": js,
            "w1Raw": w1, "w1": 100 * w1, "grid": grid if len(truth) <= 120 else None}


def quality_fixture():
    out = []
    truth = np.round(rng.beta(40, 10, 90), 4)
    srt = np.sort(truth)
    out.append(quality_entry("EDGE-like extremes + median", truth, [srt[0], srt[-1], srt[45]]))
    out.append(quality_entry("RS-like three draws", truth, truth[[3, 41, 77]]))
    out.append(quality_entry("ten draws", truth, truth[:10]))
    out.append(quality_entry("one draw (point mass)", truth, [truth[5]]))
    out.append(quality_entry("far off estimate", truth, [srt[-1] + 1.0, srt[-1] + 1.1]))
    out.append(quality_entry("wider than truth", truth, [0.3, 0.95, 0.6]))
    out.append(quality_entry("itself", truth, truth))
    big = np.round(rng.normal(0.7, 0.03, 2520), 5)
    out.append(quality_entry("2520 orderings", big, big[[0, 100, 2000]]))
    ties = np.round(rng.normal(0.55, 0.02, 90), 2)
    out.append(quality_entry("truth with ties", ties, ties[[1, 2, 3, 4]]))
    out.append(quality_entry("truth of two values", np.array([0.4, 0.6]), [0.45, 0.5, 0.58]))
    out.append(quality_entry("truth of one value", np.array([0.5]), [0.45, 0.5, 0.58]))
    exact = np.round(rng.normal(0.5, 0.1, 8192), 5)
    out.append(quality_entry("n = 8192 (n*u integer)", exact, exact[:3]))
    return out


# ---------------------------------------------------------------- rankings
def rankings_entry(name, strategies):
    dims = ["min", "max", "std"]
    protos = ["truth", "edge", "rs"]
    summ = {p: {d: [] for d in dims} for p in protos}
    for s in strategies:
        for p in protos:
            v = np.asarray(s[p], dtype=float)
            summ[p]["min"].append(float(v.min()))
            summ[p]["max"].append(float(v.max()))
            summ[p]["std"].append(float(np.std(v)))
    ranks = {p: {"min": stats.rankdata(-np.array(summ[p]["min"])).tolist(),
                 "max": stats.rankdata(-np.array(summ[p]["max"])).tolist(),
                 "std": stats.rankdata(np.array(summ[p]["std"])).tolist()} for p in protos}
    errors = {}
    for p in ["edge", "rs"]:
        e = {d: float(np.sum(np.abs(np.array(ranks[p][d]) - np.array(ranks["truth"][d])))) for d in dims}
        e["total"] = e["min"] + e["max"] + e["std"]
        errors[p] = e
    return {"name": name,
            "strategies": [{"strategy": s["name"], "values": {p: arr(s[p]) for p in protos}} for s in strategies],
            "summaries": summ, "ranks": ranks, "errors": errors}


def rankings_fixture():
    names = ["finetune", "ewc", "replay", "lwf", "icarl"]
    strategies = []
    for k, nm in enumerate(names):
        truth = rng.normal(0.5 + 0.05 * k, 0.01 + 0.01 * ((k * 3) % 5), 90)
        strategies.append({"name": nm, "truth": truth, "edge": [truth.min() + 0.002, truth.max() - 0.001, truth[7]],
                           "rs": truth[[0, 42, 89]]})
    a = rankings_entry("five strategies", strategies)
    # ties: two strategies with identical values everywhere, one tie only under RS
    t = np.round(rng.normal(0.6, 0.02, 90), 3)
    tied = [{"name": "a", "truth": t, "edge": [t.min(), t.max(), t[3]], "rs": t[[1, 2, 3]]},
            {"name": "b", "truth": t, "edge": [t.min(), t.max(), t[3]], "rs": t[[1, 2, 3]]},
            {"name": "c", "truth": t + 0.01, "edge": [t.min() + 0.01, t.max(), t[3]], "rs": t[[1, 2, 3]]}]
    b = rankings_entry("ties", tied)
    return [a, b]


# ---------------------------------------------------------------- sample-count study
def sample_count_fixture():
    truth = np.round(rng.beta(30, 12, 90), 4)
    order = np.argsort(truth, kind="stable")
    edge = [int(order[0]), int(order[-1]), 17]
    max_l, repeats, seed = 12, 6, 7
    g = np.random.default_rng(seed)
    edge_set = set(edge)
    rs_q = {L: [] for L in range(1, max_l + 1)}
    ed_q = {L: [] for L in range(1, max_l + 1)}
    n = len(truth)
    for _ in range(repeats):
        rs = g.permutation(n)
        extra = [int(i) for i in g.permutation(n) if int(i) not in edge_set]
        for L in range(1, min(max_l, n) + 1):
            est = truth[rs[:L]]
            mu, sd = gaussian_of(est)
            rs_q[L].append((jsd_ref(truth, mu, sd)[0], 100 * w1_ref(truth, mu, sd)))
        for L in range(3, max_l + 1):
            est = np.concatenate([truth[edge], truth[extra[:L - 3]]])
            mu, sd = gaussian_of(est)
            ed_q[L].append((jsd_ref(truth, mu, sd)[0], 100 * w1_ref(truth, mu, sd)))

    def agg(lst):
        if not lst:
            return None
        a = np.array(lst)
        return {"jsd": float(a[:, 0].mean()), "w1": float(a[:, 1].mean()), "jsdStd": float(a[:, 0].std()),
                "w1Std": float(a[:, 1].std())}

    points = [{"L": L, "rs": agg(rs_q[L]), "edge": agg(ed_q[L])} for L in range(1, max_l + 1)]
    return {"truth": arr(truth), "edgeIndices": edge, "maxL": max_l, "repeats": repeats, "seed": seed,
            "points": points}


def main():
    pear, spear = correlation_fixture()
    data = {
        "_note": (
            "made by `python3 scripts/make-stats-fixtures.py` with numpy " + np.__version__ + " and scipy "
            + scipy.__version__ + "; scipy.stats/special/optimize outputs on seeded inputs (default_rng(20250917)); "
            "JSD/W1 by an independent numpy implementation of docs/science.md §2 (np.histogram 64 bins over "
            "[min - 3 sigma, max + 3 sigma], norm.cdf bin masses, eps 1e-12, log2; np.quantile "
            "method='inverted_cdf' vs norm.ppf at 4096 midpoints); Box-Cox after shift = 0 if min > 0 else "
            "(max - min) - min; KS against N(np.mean, np.std) (ddof 0) and ddof 1"
        ),
        "special": special_fixture(),
        "samples": samples_fixture(),
        "boxcoxLlf": boxcox_llf_fixture(),
        "brent": brent_fixture(),
        "kstwo": kstwo_fixture(),
        "smirnov": smirnov_fixture(),
        "pearson": pear,
        "spearman": spear,
        "rankdata": rankdata_fixture(),
        "quality": quality_fixture(),
        "rankings": rankings_fixture(),
        "sampleCount": sample_count_fixture(),
    }
    with open(OUT, "w") as f:
        json.dump(data, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {os.path.relpath(OUT)} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
