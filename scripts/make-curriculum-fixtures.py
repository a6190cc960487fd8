#!/usr/bin/env python3
"""Reference values for src/core/curriculum (docs/science.md §8; §4 for the M2I metrics).

An independent numpy implementation written from the definitions (vectorised with np.tril / np.triu masks, not a
translation of the TypeScript loops):

- ACC  = sum of R over i >= j divided by K(K+1)/2 (the paper's N(N-1)/2 is a typo, docs/science.md §4);
- BWT  = Eq. 2: sum over i > j of (R[i][j] - R[j][j]) divided by K(K-1)/2;
- FWT  = raw mean of R over i < j;
- ACC0 = sum_j (K - j) a_j / (K(K+1)/2), 0-based j, with a_j the isolated accuracy of the j-th task trained;
- M2I = positions sorted by a descending (stable, ties by position), I2M its reverse;
- CIL/TIL from random score rows: CIL = first arg-max over the units seen so far (units of tasks 0..i), TIL = first
  arg-max over the example's own task's units (np.argmax returns the first maximum); scores are rounded to 1
  decimal so that ties occur and the first-maximum rule is exercised.

Run: python3 scripts/make-curriculum-fixtures.py   (writes tests/fixtures/curriculum.json)
"""
import itertools
import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "curriculum.json")


def metrics(R):
    R = np.asarray(R, dtype=float)
    K = R.shape[0]
    lower = np.tril(np.ones((K, K), bool))
    strict_lower = np.tril(np.ones((K, K), bool), -1)
    upper = np.triu(np.ones((K, K), bool), 1)
    acc = R[lower].sum() / (K * (K + 1) / 2)
    if K == 1:
        return {"acc": acc, "bwt": None, "fwt": None}
    diag = np.diag(R)
    bwt = (R - diag[None, :])[strict_lower].sum() / (K * (K - 1) / 2)
    fwt = R[upper].mean()
    return {"acc": float(acc), "bwt": float(bwt), "fwt": float(fwt)}


def acc0(a_in_order):
    a = np.asarray(a_in_order, dtype=float)
    K = len(a)
    w = K - np.arange(K)
    return float((w * a).sum() / (K * (K + 1) / 2))


def main():
    rng = np.random.default_rng(20261125)
    cases = []
    for K in [1, 2, 3, 4, 5, 6]:
        R = np.round(rng.random((K, K)), 4)
        isolated = np.round(rng.uniform(0.2, 1.0, K), 4)
        order = rng.permutation(K)
        m = metrics(R)
        m2i = sorted(range(K), key=lambda j: (-isolated[j], j))
        cases.append({
            "K": K,
            "R": R.tolist(),
            "isolated": isolated.tolist(),
            "order": order.tolist(),
            **m,
            "acc0": acc0(isolated[order]),
            "m2i": m2i,
            "i2m": m2i[::-1],
            "acc0M2i": acc0(isolated[m2i]),
            "acc0I2m": acc0(isolated[m2i[::-1]]),
        })
    # ties in the isolated accuracies: the stable order keeps positions
    tie = [0.5, 0.9, 0.5, 0.9]
    tie_m2i = sorted(range(4), key=lambda j: (-tie[j], j))

    # CIL vs TIL from score rows: K tasks of `size` classes, n examples per task, units in training order
    scen = []
    for K, size, n in [(2, 3, 5), (3, 4, 6), (4, 10, 8)]:
        width = K * size
        records = []
        cil = np.zeros((K, K))
        til = np.zeros((K, K))
        for i in range(K):  # after task i
            for j in range(K):  # on task j's test rows
                scores = np.round(rng.normal(size=(n, width)), 1)
                labels = j * size + rng.integers(0, size, n)
                seen = (i + 1) * size
                cil_pred = np.argmax(scores[:, :seen], axis=1)
                til_pred = j * size + np.argmax(scores[:, j * size:(j + 1) * size], axis=1)
                cil[i, j] = (cil_pred == labels).mean()
                til[i, j] = (til_pred == labels).mean()
                records.append({"afterTask": i, "task": j, "scores": scores.ravel().tolist(), "labels": labels.tolist()})
        assert (til >= cil).all()
        scen.append({"K": K, "size": size, "n": n, "width": width, "records": records, "cil": cil.tolist(), "til": til.tolist()})

    perms4 = [list(p) for p in itertools.permutations(range(4))]
    out = {
        "_note": "Made by scripts/make-curriculum-fixtures.py (numpy " + np.__version__ + ", default_rng(20261125)): "
        "M2I ACC/BWT(Eq. 2)/FWT(raw mean), ACC0 from isolated accuracies in training order, M2I/I2M orders, "
        "CIL and TIL accuracies (first arg-max over seen units / the task's units) from random score rows.",
        "metrics": cases,
        "tie": {"isolated": tie, "m2i": tie_m2i, "i2m": tie_m2i[::-1]},
        "allOrders4": perms4,
        "scenarios": scen,
    }
    with open(OUT, "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
