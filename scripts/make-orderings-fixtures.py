#!/usr/bin/env python3
"""Reference values for src/core/orderings (count, enumeration ranks, score S of paper Eq. 5).

Run: python3 scripts/make-orderings-fixtures.py  (writes tests/fixtures/orderings.json)
Independent of the TypeScript: exact Python integers for |Omega|, itertools for enumeration order,
numpy for S(O) = K/((K-1)N) * sum_i sum_{c in C_i} sum_{c' in C_{i+1}} Sim(c,c').
"""
import itertools, json, math, sys
import numpy as np

def multinomial(sizes):
    n = sum(sizes)
    r = math.factorial(n)
    for m in sizes:
        r //= math.factorial(m)
    return r

def multiset_perms_lex(sizes):
    labels = [t for t, m in enumerate(sizes) for _ in range(m)]
    return sorted(set(itertools.permutations(labels)))

def score(tasks, sim):
    k = len(tasks); n = sum(len(t) for t in tasks)
    s = sum(sim[c, d] for i in range(k - 1) for c in tasks[i] for d in tasks[i + 1])
    pairs = sum(len(tasks[i]) * len(tasks[i + 1]) for i in range(k - 1))
    return k / ((k - 1) * n) * s, s / pairs

out = {"_note": f"made by `python3 scripts/make-orderings-fixtures.py` with numpy {np.__version__}, python {sys.version.split()[0]}; exact integers via math.factorial, ranks via sorted(set(itertools.permutations(labels))), S via numpy"}
out["counts"] = [{"sizes": s, "omega": str(multinomial(s))} for s in
                 [[2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2, 2], [1], [3], [1, 1, 1, 1], [5, 3, 2], [10] * 10, [100] * 10, [50, 50], [1, 99], [20] * 5]]
enum = []
for sizes in [[2, 2, 2], [1, 2, 1], [3, 1], [2, 1, 2]]:
    perms = multiset_perms_lex(sizes)
    enum.append({"sizes": sizes, "labels": [list(p) for p in perms]})
out["enumeration"] = enum
rng = np.random.default_rng(7)
scores = []
for n, sizes in [(6, [2, 2, 2]), (8, [2, 2, 2, 2]), (10, [5, 3, 2]), (7, [7])]:
    e = rng.normal(size=(n, 16)); e /= np.linalg.norm(e, axis=1, keepdims=True)
    sim = e @ e.T
    cases = []
    for _ in range(5):
        perm = rng.permutation(n).tolist()
        tasks, p = [], 0
        for m in sizes:
            tasks.append(sorted(perm[p:p + m])); p += m
        if len(sizes) > 1:
            s, pm = score(tasks, sim)
        else:
            s, pm = 0.0, 0.0
        cases.append({"tasks": tasks, "score": s, "pairMean": pm})
    scores.append({"sim": sim.tolist(), "sizes": sizes, "cases": cases})
out["scores"] = scores
json.dump(out, open("tests/fixtures/orderings.json", "w"), indent=None)
print("wrote tests/fixtures/orderings.json")
