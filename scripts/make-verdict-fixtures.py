#!/usr/bin/env python3
"""Independent Python reference for src/core/verdict/ (docs/verdicts.md).

Writes tests/fixtures/verdict.json:
  - t quantiles (scipy.stats.t.ppf);
  - Fisher z intervals of Pearson's r (scipy.stats.pearsonr(x, y).confidence_interval(level)) on seeded data;
  - t intervals of a mean with the finite-population correction
    (scipy.stats.t.interval(level, n-1, loc=mean, scale=std(ddof=1)/sqrt(n)*sqrt(1-n/N)));
  - the Orderings page's default experiment (Fashion-MNIST classes 0-5, WordNet Wu-Palmer, 3 tasks of 2): EDGE hard
    and easy from the independent EDGE of scripts/make-edge-fixtures.py, RS (np.random.seed(s); permutation) and
    the median (default_rng(0).permutation), the exact extremes and the distinct values of S by brute force, and the
    range of S over the re-orderings of EDGE hard's and EDGE easy's own tasks. The Wu-Palmer matrix is written as the
    exact fractions WordNet gives (6/7, 9/11, ...), the values `cil-lab similarity --dataset fashion-mnist --subset 0-5`
    prints.

Usage: python3 scripts/make-verdict-fixtures.py
"""
import importlib.util
import itertools
import json
import os

import numpy as np
import scipy
from scipy import stats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "verdict.json")

spec = importlib.util.spec_from_file_location("edgeref", os.path.join(ROOT, "scripts", "make-edge-fixtures.py"))
edgeref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(edgeref)


def t_quantiles():
    out = []
    for df in (1, 2, 3, 5, 9, 29, 89, 499):
        for p in (0.5, 0.9, 0.95, 0.975, 0.995, 0.025):
            out.append({"p": p, "df": df, "q": float(stats.t.ppf(p, df))})
    return out


def pearson_cases():
    rng = np.random.default_rng(11)
    out = []
    for n, rho in ((4, 0.5), (5, -0.3), (10, 0.2), (46, 0.4), (90, 0.2), (500, -0.05)):
        x = rng.normal(size=n)
        y = rho * x + np.sqrt(1 - rho * rho) * rng.normal(size=n)
        res = stats.pearsonr(x, y)
        for level in (0.95, 0.9):
            ci = res.confidence_interval(confidence_level=level)
            out.append({"n": n, "r": float(res.statistic), "level": level, "lo": float(ci.low), "hi": float(ci.high)})
    return out


def mean_cases():
    rng = np.random.default_rng(12)
    out = []
    for n, N in ((2, None), (5, None), (5, 90), (46, 90), (89, 90), (90, 90), (30, 500)):
        v = rng.normal(0.3, 0.02, size=n)
        m = float(np.mean(v))
        s = float(np.std(v, ddof=1))
        fpc = 1.0 if N is None else np.sqrt(1 - n / N)
        scale = s / np.sqrt(n) * fpc
        if scale == 0:
            lo = hi = m
        else:
            lo, hi = stats.t.interval(0.95, n - 1, loc=m, scale=scale)
        out.append({"values": v.tolist(), "population": N, "level": 0.95, "lo": float(lo), "hi": float(hi)})
    return out


def default_orderings():
    from fractions import Fraction as F

    # Wu-Palmer similarities of T-shirt/top, Trouser, Pullover, Dress, Coat, Sandal (WordNet, the app's pins)
    a, b, c, d, e = F(6, 7), F(9, 11), F(16, 21), F(4, 5), F(12, 19)
    g = F(2, 3)
    rows = [
        [1, a, b, c, b, e],
        [a, 1, a, d, a, g],
        [b, a, 1, c, b, e],
        [c, d, c, 1, c, g],
        [b, a, b, c, 1, e],
        [e, g, e, g, e, 1],
    ]
    sim = np.array([[float(x) for x in r] for r in rows])
    sizes = [2, 2, 2]
    n = 6
    ed = edgeref.edge(sim, sizes)
    score = lambda tasks: edgeref.score(sim, tasks)

    def split(order):
        out, p = [], 0
        for m in sizes:
            out.append(sorted(int(x) for x in order[p : p + m]))
            p += m
        return out

    rs = {}
    for seed in (0, 42, 1993):
        np.random.seed(seed)
        rs[str(seed)] = score(split(np.random.permutation(n)))
    median = score(split(np.random.default_rng(0).permutation(n)))
    values = []
    for perm in itertools.permutations(range(n)):
        values.append(score(split(perm)))
    distinct = sorted(set(round(v, 9) for v in values))

    def reorder_range(tasks):
        s = [score([list(t) for t in p]) for p in itertools.permutations(tasks)]
        return {"min": min(s), "max": max(s)}

    return {
        "classes": ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal"],
        "sizes": sizes,
        "sim": sim.tolist(),
        "edgeHard": {"tasks": ed["hard"]["tasks"], "score": ed["hard"]["score"]},
        "edgeEasy": {"tasks": ed["easy"]["tasks"], "score": ed["easy"]["score"]},
        "rs": rs,
        "median": median,
        "omega": len(values) // 8,  # permutations(6) counts each ordering 2!^3 = 8 times
        "exactMin": min(values),
        "exactMax": max(values),
        "distinctS": len(distinct),
        "hardReorder": reorder_range(ed["hard"]["tasks"]),
        "easyReorder": reorder_range(ed["easy"]["tasks"]),
    }


def main():
    data = {
        "_note": f"Made by scripts/make-verdict-fixtures.py (numpy {np.__version__}, scipy {scipy.__version__}). "
        "Regenerate with `python3 scripts/make-verdict-fixtures.py`.",
        "tQuantiles": t_quantiles(),
        "pearson": pearson_cases(),
        "mean": mean_cases(),
        "defaultOrderings": default_orderings(),
    }
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
