#!/usr/bin/env python3
"""Reference values for src/core/clustering (linkage.ts, fcluster.ts), computed with scipy.

Writes tests/fixtures/clustering.json: for several N (2..60) a random symmetric dissimilarity matrix without
ties (uniform entries, zero diagonal), and for each linkage method (complete, average, single) scipy's
`linkage(squareform(D), method)` Z, `leaves_list(Z)` and `fcluster(Z, g, criterion="maxclust")` for several g.
A small matrix with tied distances is included too (Z with ties follows scipy's exact tie rules).

Run: python3 scripts/make-clustering-fixtures.py
"""
import json
import os
import sys

import numpy as np
import scipy
from scipy.cluster.hierarchy import fcluster, leaves_list, linkage
from scipy.spatial.distance import squareform

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "clustering.json")
METHODS = ["complete", "average", "single"]


def random_dissimilarity(rng, n):
    a = rng.random((n, n))
    d = (a + a.T) / 2
    np.fill_diagonal(d, 0.0)
    return d


def granularities(n):
    gs = {1, 2, 3, 5, 10, 20, n - 1, n, n + 1}
    return sorted(g for g in gs if g >= 1)


def case(name, d):
    n = d.shape[0]
    out = {"name": name, "n": n, "dist": d.tolist(), "methods": {}}
    for method in METHODS:
        z = linkage(squareform(d, checks=True), method)
        out["methods"][method] = {
            "Z": z.tolist(),
            "leaves": leaves_list(z).tolist(),
            "maxclust": {str(g): fcluster(z, g, criterion="maxclust").tolist() for g in granularities(n)},
        }
    return out


def main():
    rng = np.random.default_rng(20240611)
    cases = []
    for n in [2, 3, 4, 5, 7, 8, 13, 21, 34, 60]:
        cases.append(case(f"random-{n}", random_dissimilarity(rng, n)))
    # tied distances on a grid of 0.25 steps: exercises scipy's tie-breaking
    tied = np.round(random_dissimilarity(rng, 12) * 4) / 4
    np.fill_diagonal(tied, 0.0)
    cases.append(case("tied-12", tied))
    data = {
        "_note": (
            "Made by scripts/make-clustering-fixtures.py with numpy %s / scipy %s: random symmetric "
            "dissimilarities (numpy default_rng(20240611), uniform, zero diagonal), scipy "
            "linkage(squareform(D), method), leaves_list(Z) and fcluster(Z, g, 'maxclust'). "
            "Regenerate with `python3 scripts/make-clustering-fixtures.py`." % (np.__version__, scipy.__version__)
        ),
        "cases": cases,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT} ({len(cases)} cases)", file=sys.stderr)


if __name__ == "__main__":
    main()
