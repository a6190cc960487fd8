#!/usr/bin/env python3
"""Reference values for src/core/stats/dcor-permutation.ts (docs/science.md §3 "Correlations"): the permutation
test of distance correlation (one series, exact; one series and several seeds pooled, Monte Carlo) and mean ± sd.

An independent numpy implementation written from docs/science.md §3, not a translation of the TypeScript:
- dCor: the biased V-statistic from double-centred |x_i − x_j| matrices (numpy broadcasting),
  dCor = sqrt(max(0, dCov²(x,y) / sqrt(dVar²(x)·dVar²(y)))), 0 when a series is constant — what the Python `dcor`
  package's default `distance_correlation` computes. `dcor` is not installed here (and scipy has no dCor), so it is
  written out; src/core/conformal's own fixtures pin values from dcor's test suite.
- exact p (n ≤ 8): every permutation of y from itertools.permutations, p = #{dCor(x, y[π]) ≥ observed} / n!;
- Monte Carlo p: numpy.random.default_rng(seed); resample r draws rng.permutation(n) for each series in order;
  p = (1 + #{stat_r ≥ observed}) / (1 + R), with stat = mean dCor over the series;
- "≥" with a relative tolerance of 1e-12 (ties up to rounding count);
- mean ± sd: np.mean and np.std(ddof=1);
- the trend-matched null (dcor-permutation.ts trendMatchedDcorTest): x's straight line on t = 0..n−1 from np.polyfit(t,
  x, 1), null series x' = fit + residual[π]; exact p over itertools.permutations for one series, Monte Carlo for
  several (rng.permutation(n) per series in order, mean dCor), the same conventions as above;
- dCor's null distribution for two unrelated n-point series (src/core/stats/dcor-null.ts): `draws` pairs of standard
  normal series by Box–Muller from np.random.default_rng(0).random() (u1, u2 per value; x's n values, then y's),
  the mean and np.quantile (default 'linear'); and, as a check of the distribution rather than of the draws, the same
  from 200 000 pairs of numpy's own standard_normal (default_rng(1)).

The CPCF/a_prev series of the first case are from a real run: `node bin/cil-lab.mjs cpcf --dataset fashion-mnist
--classes 0-9 --task-sizes 5,1,1,1,1,1 --strategy finetune --hidden 256,128 --epochs 3 --first-epochs 8 --lr 2e-5
--batch-size 64 --head all --seed 0` (full data); the others are drawn below with a fixed seed.

Run: python3 scripts/make-forgetting-fixtures.py   (writes tests/fixtures/forgetting-dcor.json)
"""
import itertools
import json
import math
import os

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "forgetting-dcor.json")
REL = 1e-12


def centred(x):
    x = np.asarray(x, dtype=np.float64)
    d = np.abs(x[:, None] - x[None, :])
    return d - d.mean(axis=0, keepdims=True) - d.mean(axis=1, keepdims=True) + d.mean()


def dcor(x, y):
    A, B = centred(x), centred(y)
    vx, vy = (A * A).mean(), (B * B).mean()
    den = math.sqrt(abs(vx * vy))
    if den == 0:
        return 0.0
    return math.sqrt(max(0.0, (A * B).mean() / den))


def at_least(v, obs):
    return v >= obs - REL * max(1.0, abs(obs))


def exact_test(x, y):
    y = np.asarray(y, dtype=np.float64)
    obs = dcor(x, y)
    vals = [dcor(x, y[list(p)]) for p in itertools.permutations(range(len(y)))]
    return {"dcor": obs, "p": sum(at_least(v, obs) for v in vals) / len(vals), "permutations": len(vals), "nullMean": float(np.mean(vals))}


def mc_test(pairs, resamples, seed):
    rng = np.random.default_rng(seed)
    obs = float(np.mean([dcor(x, y) for x, y in pairs]))
    count, total = 0, 0.0
    for _ in range(resamples):
        s = np.mean([dcor(x, np.asarray(y, dtype=np.float64)[rng.permutation(len(y))]) for x, y in pairs])
        total += s
        count += at_least(s, obs)
    return {"dcor": obs, "p": (1 + count) / (1 + resamples), "permutations": resamples, "nullMean": total / resamples}


def trend_parts(x):
    t = np.arange(len(x), dtype=np.float64)
    b, a = np.polyfit(t, np.asarray(x, dtype=np.float64), 1)
    fit = a + b * t
    return fit, np.asarray(x, dtype=np.float64) - fit


def trend_exact(x, y):
    fit, res = trend_parts(x)
    obs = dcor(x, y)
    vals = [dcor(fit + res[list(p)], y) for p in itertools.permutations(range(len(x)))]
    return {"dcor": obs, "p": sum(at_least(v, obs) for v in vals) / len(vals), "permutations": len(vals), "nullMean": float(np.mean(vals))}


def trend_mc(pairs, resamples, seed):
    rng = np.random.default_rng(seed)
    parts = [(trend_parts(x), y) for x, y in pairs]
    obs = float(np.mean([dcor(x, y) for x, y in pairs]))
    count, total = 0, 0.0
    for _ in range(resamples):
        s = np.mean([dcor(fit + res[rng.permutation(len(res))], y) for (fit, res), y in parts])
        total += s
        count += at_least(s, obs)
    return {"dcor": obs, "p": (1 + count) / (1 + resamples), "permutations": resamples, "nullMean": total / resamples}


def trend_cases():
    """The trend-matched null: the measured digits run (seeds 0-2, make-verdict-fixtures.py's FORGETTING_MEASURED),
    two straight lines (every residual 0: p = 1), and series that share a trend and also their deviations."""
    seeds = [
        ([3.355556, 3.847222, 3.960317, 5.569444, 6.213622], [0.983333, 0.683333, 0.551852, 0.465278, 0.173333]),
        ([4.372222, 4.527778, 5.123016, 5.868056, 5.024768], [0.988889, 0.586111, 0.401852, 0.404167, 0.18]),
        ([3.255556, 3.319444, 4.436508, 5.09375, 6.842105], [0.955556, 0.5, 0.357407, 0.406944, 0.151111]),
    ]
    g = np.random.default_rng(44)
    dev = g.normal(size=6)
    shared_x = (np.arange(6) * 0.5 + dev).tolist()
    shared_y = (1 - np.arange(6) * 0.1 - 0.2 * dev).tolist()
    exact = [{"name": f"digits-seed{k}", "x": x, "y": y, **trend_exact(x, y)} for k, (x, y) in enumerate(seeds)]
    exact.append({"name": "straight-lines", "x": [1.0, 2.0, 3.0, 4.0, 5.0], "y": [0.9, 0.7, 0.5, 0.3, 0.1], **trend_exact([1.0, 2.0, 3.0, 4.0, 5.0], [0.9, 0.7, 0.5, 0.3, 0.1])})
    exact.append({"name": "shared-deviations", "x": shared_x, "y": shared_y, **trend_exact(shared_x, shared_y)})
    pooled = {"name": "digits-seeds0-2", "pairs": [{"x": x, "y": y} for x, y in seeds], "resamples": 999, "seed": 0, **trend_mc(seeds, 999, 0)}
    return {"exact": exact, "pooled": pooled}


def dcor_batch(x, y):
    """dCor of each row pair of x, y (draws × n), vectorised."""
    def centre(v):
        d = np.abs(v[:, :, None] - v[:, None, :])
        return d - d.mean(axis=1, keepdims=True) - d.mean(axis=2, keepdims=True) + d.mean(axis=(1, 2), keepdims=True)

    A, B = centre(x), centre(y)
    vx, vy = (A * A).mean(axis=(1, 2)), (B * B).mean(axis=(1, 2))
    den = np.sqrt(np.abs(vx * vy))
    r = np.where(den == 0, 0.0, (A * B).mean(axis=(1, 2)) / np.where(den == 0, 1, den))
    return np.sqrt(np.maximum(0.0, r))


NULL_PROBS = [0.001, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999]


def dcor_null(n, draws=20000, seed=0):
    u = np.random.default_rng(seed).random(draws * 4 * n).reshape(draws, 2 * n, 2)
    z = np.sqrt(-2 * np.log(1 - u[:, :, 0])) * np.cos(2 * np.pi * u[:, :, 1])
    vals = np.array([dcor(z[d, :n], z[d, n:]) for d in range(draws)])
    g = np.random.default_rng(1)
    ref = dcor_batch(g.standard_normal((200000, n)), g.standard_normal((200000, n)))
    return {
        "n": n,
        "draws": draws,
        "seed": seed,
        "mean": float(vals.mean()),
        "quantiles": [{"p": p, "value": float(np.quantile(vals, p))} for p in NULL_PROBS],
        "standardNormal200k": {"mean": float(ref.mean()), "quantiles": [{"p": p, "value": float(np.quantile(ref, p))} for p in NULL_PROBS]},
    }


def main():
    g = np.random.default_rng(20251125)
    cpcf = [6.5522, 7.364333333333334, 7.8991428571428575, 8.65325, 9.300777777777778]
    aprev = [0.1498, 0.242, 0.06346666666666667, 0.04755, 0.036]
    monotone_x = [1.0, 2.0, 3.0, 4.0, 5.0]
    monotone_y = [0.9, 0.7, 0.6, 0.3, 0.1]
    rx, ry = g.normal(size=5).tolist(), g.normal(size=5).tolist()
    six_x, six_y = g.normal(size=6).tolist(), g.uniform(size=6).tolist()
    exact = []
    for name, x, y in [("cpcf-fashion-seed0", cpcf, aprev), ("monotone", monotone_x, monotone_y), ("random5", rx, ry), ("random6", six_x, six_y), ("constant-y", monotone_x, [0.5] * 5)]:
        exact.append({"name": name, "x": x, "y": y, **exact_test(x, y)})
    big_x = g.normal(size=12)
    big_y = (big_x ** 2 + 0.5 * g.normal(size=12)).tolist()
    mc_single = {"name": "quadratic12", "x": big_x.tolist(), "y": big_y, "resamples": 999, "seed": 3, **mc_test([(big_x.tolist(), big_y)], 999, 3)}
    pairs = []
    for _ in range(3):
        x = g.normal(size=5)
        pairs.append((x.tolist(), (-x + 0.3 * g.normal(size=5)).tolist()))
    mc_pooled = {"name": "pooled3x5", "pairs": [{"x": x, "y": y} for x, y in pairs], "resamples": 999, "seed": 7, **mc_test(pairs, 999, 7)}
    values = [0.8533524752953111, 0.61, 0.92, 0.47, 0.77]
    msd = {"values": values, "mean": float(np.mean(values)), "sd": float(np.std(values, ddof=1))}
    with open(OUT, "w") as f:
        json.dump({"note": "made by scripts/make-forgetting-fixtures.py (numpy, independent of the TypeScript)", "exact": exact, "mcSingle": mc_single, "mcPooled": mc_pooled, "meanSd": msd, "null": [dcor_null(n) for n in (3, 5, 8)], "trend": trend_cases()}, f, indent=1)
    print("wrote", OUT)
    for e in exact:
        print(e["name"], round(e["dcor"], 4), "p", round(e["p"], 4), "null mean", round(e["nullMean"], 4))
    print("mc single p", mc_single["p"], "pooled p", mc_pooled["p"], mc_pooled["dcor"])
    tr = trend_cases()
    for e in tr["exact"]:
        print("trend", e["name"], round(e["dcor"], 4), "p", round(e["p"], 4), "null mean", round(e["nullMean"], 4))
    print("trend pooled p", tr["pooled"]["p"], "dcor", round(tr["pooled"]["dcor"], 4), "null mean", round(tr["pooled"]["nullMean"], 4))
    with open(OUT) as f:
        for d in json.load(f)["null"]:
            print("null n", d["n"], "mean", round(d["mean"], 4), [round(q["value"], 4) for q in d["quantiles"]], "200k normal mean", round(d["standardNormal200k"]["mean"], 4), [round(q["value"], 4) for q in d["standardNormal200k"]["quantiles"]])


if __name__ == "__main__":
    main()
