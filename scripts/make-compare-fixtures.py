#!/usr/bin/env python3
"""Fixtures for src/core/similarity/compare.ts: agreement between two similarity sources (docs/science.md §6; EDGE paper
App. E.3.1) — MAE and Spearman's rho over the off-diagonal pairs i < j, and the task-matching step of CSG.

Writes
  tests/fixtures/compare.json      matrix pairs with MAE (numpy) and Spearman rho (scipy.stats.spearmanr, average
                                   ranks for ties; null where it is undefined), and task-partition pairs with the
                                   share of classes in matched tasks (tasks matched by maximum total overlap:
                                   brute force over all K! matchings for K <= 7, cross-checked there against
                                   scipy.optimize.linear_sum_assignment, which alone is used for larger K)
  tests/fixtures/compare/sim-a.json   10 classes, `{"classes", "matrix"}` as `cil-lab similarity` writes it
  tests/fixtures/compare/sim-b.csv    a second matrix for the same classes, in ANOTHER class order, as a CSV with
                                      a header row and a first column of names (an upload format)
  (compare.json's "cli" entry holds the MAE / Spearman of sim-a vs sim-b after aligning the classes)

The EDGE orderings themselves are not computed here (they are tested in tests/fixtures/edge.json); the CSG
fixture checks only the matching + share step on given partitions.

Run: python3 scripts/make-compare-fixtures.py   (numpy + scipy; deterministic)
"""
import itertools
import json
import math
import os

import numpy as np
from scipy import stats
from scipy.optimize import linear_sum_assignment

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "tests", "fixtures")
rng = np.random.default_rng(20240601)


def upper(m):
    n = m.shape[0]
    iu = np.triu_indices(n, k=1)
    return m[iu]


def sym_unit(n, ties=None):
    """A random symmetric matrix with unit diagonal, off-diagonal in [-0.2, 0.95]."""
    x = rng.uniform(-0.2, 0.95, size=(n, n))
    if ties is not None:
        x = np.round(x, ties)
    m = np.triu(x, 1)
    m = m + m.T
    np.fill_diagonal(m, 1.0)
    return m


def cosine(E):
    U = E / np.linalg.norm(E, axis=1, keepdims=True)
    m = U @ U.T
    m = (m + m.T) / 2
    np.fill_diagonal(m, 1.0)
    return np.clip(m, -1, 1)


def rho(a, b):
    x, y = upper(a), upper(b)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return None  # scipy returns nan (with a warning) here
    r = stats.spearmanr(x, y).statistic
    return None if math.isnan(r) else float(r)


def mae(a, b):
    return float(np.mean(np.abs(upper(a) - upper(b))))


def matrix_case(name, a, b):
    return {
        "name": name,
        "a": a.tolist(),
        "b": b.tolist(),
        "mae": mae(a, b),
        "spearman": rho(a, b),
        "pairCount": int(len(upper(a))),
    }


matrix_cases = []
a = sym_unit(6)
matrix_cases.append(matrix_case("random 6", a, sym_unit(6)))
a = sym_unit(10, ties=1)
matrix_cases.append(matrix_case("ties 10 (values rounded to 0.1)", a, sym_unit(10, ties=1)))
a = sym_unit(12)
b = np.sign(a) * np.abs(a) ** 3
np.fill_diagonal(b, 1.0)
matrix_cases.append(matrix_case("monotone transform 12 (rho = 1)", a, b))
a = sym_unit(5)
b = -a
np.fill_diagonal(b, 1.0)
matrix_cases.append(matrix_case("negated 5 (rho = -1)", a, b))
a = sym_unit(8)
b = np.full((8, 8), 0.3)
np.fill_diagonal(b, 1.0)
matrix_cases.append(matrix_case("constant b 8 (rho undefined)", a, b))
E1 = rng.normal(size=(20, 16))
E2 = E1 + rng.normal(scale=0.7, size=(20, 16))
matrix_cases.append(matrix_case("cosine of noisy embeddings 20", cosine(E1), cosine(E2)))
a = sym_unit(9, ties=0)  # heavy ties: values in {0, 1} off the diagonal (after rounding -0.2..0.95)
matrix_cases.append(matrix_case("heavy ties 9", a, sym_unit(9, ties=1)))


# ── task partitions: share of classes in matched tasks ──
def overlap(A, B):
    K = len(A)
    return np.array([[len(set(A[s]) & set(B[t])) for t in range(K)] for s in range(K)], dtype=np.int64)


def brute_best(O):
    K = O.shape[0]
    best = -1
    for perm in itertools.permutations(range(K)):
        v = sum(O[s, perm[s]] for s in range(K))
        best = max(best, v)
    return int(best)


def lsa_best(O):
    r, c = linear_sum_assignment(O, maximize=True)
    return int(O[r, c].sum())


def random_partition(n, sizes):
    order = rng.permutation(n).tolist()
    out, p = [], 0
    for m in sizes:
        out.append(sorted(order[p : p + m]))
        p += m
    return out


def perturb(P, swaps):
    """Shuffle the task order and swap `swaps` random pairs of classes between tasks."""
    P = [list(t) for t in P]
    for _ in range(swaps):
        s, t = rng.choice(len(P), size=2, replace=False)
        i, j = rng.integers(len(P[s])), rng.integers(len(P[t]))
        P[s][i], P[t][j] = P[t][j], P[s][i]
    idx = rng.permutation(len(P)).tolist()
    return [sorted(P[k]) for k in idx]


partition_cases = []
for n, sizes, swaps in [
    (6, [2, 2, 2], 1),
    (8, [2, 2, 2, 2], 2),
    (12, [3, 3, 3, 3], 3),
    (10, [4, 3, 3], 2),
    (14, [2] * 7, 4),
    (21, [3] * 7, 6),
    (20, [2] * 10, 5),
    (100, [10] * 10, 30),
    (100, [5] * 20, 40),
    (12, [3, 3, 3, 3], 0),
]:
    A = random_partition(n, sizes)
    B = perturb(A, swaps) if swaps else [list(t) for t in A[::-1]]
    O = overlap(A, B)
    K = len(sizes)
    best = lsa_best(O)
    method = "scipy.optimize.linear_sum_assignment"
    if K <= 7:
        bb = brute_best(O)
        assert bb == best, (bb, best)
        method = f"brute force over {math.factorial(K)} matchings (= linear_sum_assignment)"
    partition_cases.append(
        {"n": n, "taskSizes": sizes, "a": A, "b": B, "overlap": O.tolist(), "matched": best, "share": best / n, "method": method}
    )
# Two tasks of equal overlap everywhere (ties): every matching gives the same total.
partition_cases.append(
    {
        "n": 4,
        "taskSizes": [2, 2],
        "a": [[0, 1], [2, 3]],
        "b": [[0, 2], [1, 3]],
        "overlap": [[1, 1], [1, 1]],
        "matched": 2,
        "share": 0.5,
        "method": "by hand (all matchings tie)",
    }
)

# ── CLI files: sim-a.json and sim-b.csv (another class order) ──
classes = ["apple", "aquarium_fish", "bear", "bee", "bicycle", "bus", "cat", "lion", "maple_tree", "tiger"]
Ea = rng.normal(size=(10, 12))
Eb = Ea + rng.normal(scale=0.8, size=(10, 12))
A = cosine(Ea)
B = cosine(Eb)
os.makedirs(os.path.join(FIX, "compare"), exist_ok=True)
with open(os.path.join(FIX, "compare", "sim-a.json"), "w") as fh:
    json.dump({"classes": classes, "source": "fixture A (cosine of random embeddings)", "matrix": A.tolist()}, fh)
perm = rng.permutation(10)
with open(os.path.join(FIX, "compare", "sim-b.csv"), "w") as fh:
    fh.write("class," + ",".join(classes[p] for p in perm) + "\n")
    for r in perm:
        fh.write(classes[r] + "," + ",".join(repr(float(B[r, c])) for c in perm) + "\n")

out = {
    "_note": (
        "Made by scripts/make-compare-fixtures.py (numpy + scipy). MAE = mean |a_ij - b_ij| and Spearman rho = "
        "scipy.stats.spearmanr (average ranks for ties; null when undefined) over the off-diagonal pairs i < j. "
        "Partition cases: share = (maximum total overlap over one-to-one task matchings) / n, the matching step of "
        "CSG; brute force over all matchings for K <= 7 (cross-checked with scipy.optimize.linear_sum_assignment), "
        "linear_sum_assignment for larger K. 'cli' = sim-a.json vs sim-b.csv (tests/fixtures/compare/) after "
        "aligning sim-b's classes to sim-a's order."
    ),
    "matrices": matrix_cases,
    "partitions": partition_cases,
    "cli": {"classes": classes, "mae": mae(A, B), "spearman": rho(A, B), "pairCount": 45},
}
with open(os.path.join(FIX, "compare.json"), "w") as fh:
    json.dump(out, fh, indent=1)
    fh.write("\n")
print(
    f"[make-compare-fixtures] wrote tests/fixtures/compare.json ({len(matrix_cases)} matrix pairs, "
    f"{len(partition_cases)} partition pairs) and tests/fixtures/compare/sim-a.json, sim-b.csv"
)
