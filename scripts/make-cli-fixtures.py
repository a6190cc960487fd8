#!/usr/bin/env python3
"""Fixtures for the CLI tests: a 6-class cosine similarity matrix (JSON and .npy), bad matrices, and S of a few orders.

Run: python3 scripts/make-cli-fixtures.py   (writes tests/fixtures/cli/)
S(O) = K/((K-1)N) * sum over adjacent tasks of Sim, computed with numpy independently of the TypeScript.
"""
import json, sys
import numpy as np

out = "tests/fixtures/cli/"
rng = np.random.default_rng(11)
E = rng.normal(size=(6, 12)); E /= np.linalg.norm(E, axis=1, keepdims=True)
S = E @ E.T
np.fill_diagonal(S, 1.0)
json.dump({"classes": ["cat", "dog", "car", "truck", "apple", "pear"], "matrix": S.tolist()}, open(out + "sim6.json", "w"))
np.save(out + "sim6.npy", S)
np.save(out + "emb6.npy", E.astype(np.float32))

def score(order, sizes):
    tasks, p = [], 0
    for m in sizes:
        tasks.append(order[p:p + m]); p += m
    k, n = len(sizes), len(order)
    s = sum(S[a, b] for i in range(k - 1) for a in tasks[i] for b in tasks[i + 1])
    pairs = sum(len(tasks[i]) * len(tasks[i + 1]) for i in range(k - 1))
    return {"order": order, "sizes": sizes, "score": k / ((k - 1) * n) * s, "pairMean": s / pairs}

cases = [score([3, 1, 0, 2, 5, 4], [2, 2, 2]), score([0, 1, 2, 3, 4, 5], [3, 3]), score([5, 4, 3, 2, 1, 0], [3, 2, 1])]
bad = S.copy(); bad[0, 1] += 0.3
json.dump(bad.tolist(), open(out + "asymmetric.json", "w"))
json.dump([[1, 0.5], [0.5, 1, 0.1]], open(out + "ragged.json", "w"))
json.dump({"matrix": [[1, 0.5, 0.2], [0.5, 1, 0.1]]}, open(out + "nonsquare.json", "w"))
open(out + "nan.csv", "w").write("1,0.5,0.2\n0.5,1,nan\n0.2,nan,1\n")
open(out + "garbage.npy", "wb").write(b"\x93NUMPY\x01\x00garbage")
json.dump({"_note": f"made by `python3 scripts/make-cli-fixtures.py` with numpy {np.__version__}; S per paper Eq. 5 with numpy",
           "cases": cases}, open(out + "expected.json", "w"), indent=1)
print("wrote", out)
