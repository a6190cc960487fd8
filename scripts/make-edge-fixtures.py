#!/usr/bin/env python3
"""Independent Python reference for src/core/protocols/{edge,as,exact}.ts (docs/science.md §1).

Writes tests/fixtures/edge.json: random cosine similarity matrices (numpy default_rng, seeded) with equal and
unequal task sizes, and for each
  - EDGE hard / easy exactly as docs/science.md §1 with the tie rules documented in edge.ts (scipy linkage +
    fcluster + leaves_list, then the task construction, ITS, both greedy variants, every candidate scored with S);
  - AS hard / easy (paper §E.4, rules documented in as.ts);
  - for small cases, the exact min / max of S over Ω by brute force (itertools).

This file re-implements the rules from the written spec; it shares no code with the TypeScript.

Usage:
  python3 scripts/make-edge-fixtures.py            # write the fixture
  python3 scripts/make-edge-fixtures.py --bench    # time the Python peer (scipy linkage + EDGE construction)
"""
import itertools
import json
import os
import sys
import time

import numpy as np
import scipy
from scipy.cluster.hierarchy import fcluster, leaves_list, linkage
from scipy.spatial.distance import squareform

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "edge.json")
MULTIPLES = [1, 2, 5, 10, 20]


# ---------------------------------------------------------------- score


def score(sim, tasks):
    """S(O) = K / ((K-1) N) * sum over adjacent tasks of sum Sim(c, c')  (paper Eq. 5)."""
    k = len(tasks)
    if k < 2:
        return 0.0
    n = sum(len(t) for t in tasks)
    total = 0.0
    for i in range(k - 1):
        total += float(sim[np.ix_(tasks[i], tasks[i + 1])].sum())
    return k / ((k - 1) * n) * total


def better(aim, s, best):
    tol = 1e-12 * max(1.0, abs(best))
    return s < best - tol if aim == "hard" else s > best + tol


# ---------------------------------------------------------------- EDGE


def granularities(n, k):
    out = []
    for m in MULTIPLES:
        g = min(m * k, n)
        if g not in out:
            out.append(g)
    return out


def clusters_from_labels(labels, leaves):
    groups = {}
    for c in leaves:  # members in dendrogram leaf order
        groups.setdefault(int(labels[c]), []).append(int(c))
    cl = list(groups.values())
    cl.sort(key=lambda m: (-len(m), min(m)))  # largest first, ties: smallest member index
    return cl


def hard_partition(clusters, sizes):
    free = list(sizes)
    tasks = [[] for _ in sizes]
    for cluster in clusters:
        rest = list(cluster)
        while rest:
            t = max(range(len(free)), key=lambda j: (free[j], -j))  # most free slots, ties lowest index
            take = min(free[t], len(rest))
            tasks[t].extend(rest[:take])
            free[t] -= take
            rest = rest[take:]
    return tasks


def easy_partition(clusters, sizes):
    k = len(sizes)
    free = list(sizes)
    tasks = [[] for _ in sizes]
    ptr = 0
    for cluster in clusters:
        for c in cluster:
            while free[ptr] == 0:
                ptr = (ptr + 1) % k
            tasks[ptr].append(c)
            free[ptr] -= 1
            ptr = (ptr + 1) % k
    return tasks


def its_matrix(sim, tasks):
    k = len(tasks)
    its = np.zeros((k, k))
    for a in range(k):
        for b in range(k):
            if a != b:
                its[a, b] = sim[np.ix_(tasks[a], tasks[b])].mean()
    return its


def greedy_order(its, slot_sizes, sizes, aim, variant):
    k = len(sizes)
    pick_best = min if aim == "hard" else max
    totals = [sum(its[a, b] for b in range(k) if b != a) for a in range(k)]
    order = []
    acc = [0.0] * k
    for pos in range(k):
        cands = [t for t in range(k) if t not in order and slot_sizes[t] == sizes[pos]]
        if pos == 0:
            val = {t: totals[t] for t in cands}
        elif variant == "last":
            val = {t: its[order[-1], t] for t in cands}
        else:
            val = {t: acc[t] for t in cands}
        best_v = pick_best(val.values())
        t = min(c for c in cands if val[c] == best_v)  # ties: lowest index
        order.append(t)
        for u in range(k):
            acc[u] += its[t, u]
    return order


def edge(sim, sizes, method="complete"):
    n = sim.shape[0]
    k = len(sizes)
    d = 1.0 - sim
    np.fill_diagonal(d, 0.0)
    z = linkage(squareform(d, checks=False), method)
    leaves = leaves_list(z)
    cands = []
    for g in granularities(n, k):
        labels = fcluster(z, g, criterion="maxclust")
        clusters = clusters_from_labels(labels, leaves)
        for aim in ("hard", "easy"):
            slots = hard_partition(clusters, sizes) if aim == "hard" else easy_partition(clusters, sizes)
            its = its_matrix(sim, slots)
            for variant in ("last", "sum"):
                order = greedy_order(its, sizes, sizes, aim, variant)
                tasks = [sorted(slots[t]) for t in order]
                cands.append(
                    {
                        "aim": aim,
                        "granularity": g,
                        "clusterCount": len(clusters),
                        "variant": variant,
                        "tasks": tasks,
                        "score": score(sim, tasks),
                    }
                )
    result = {}
    for aim in ("hard", "easy"):
        best = None
        for c in cands:
            if c["aim"] == aim and (best is None or better(aim, c["score"], best["score"])):
                best = c
        result[aim] = {key: best[key] for key in ("tasks", "score", "granularity", "clusterCount", "variant")}
    result["candidates"] = cands
    return result


# ---------------------------------------------------------------- AS


def adversarial(sim, sizes, aim):
    n = sim.shape[0]
    a = (sim + sim.T) / 2
    totals = [sum(a[c, d] for d in range(n) if d != c) for c in range(n)]
    pick = np.argmin if aim == "hard" else np.argmax  # first occurrence = lowest index on ties
    seq = [int(pick(totals))]
    acc = np.zeros(n)
    chosen = {seq[0]}
    acc += a[seq[0]]
    while len(seq) < n:
        rest = [c for c in range(n) if c not in chosen]
        vals = [acc[c] for c in rest]
        c = rest[int(pick(vals))]
        seq.append(c)
        chosen.add(c)
        acc += a[c]
    tasks, p = [], 0
    for m in sizes:
        tasks.append(sorted(seq[p : p + m]))
        p += m
    return {"sequence": seq, "tasks": tasks, "score": score(sim, tasks)}


# ---------------------------------------------------------------- exact (brute force)


def brute_force(sim, sizes):
    n = sim.shape[0]
    best = {"min": None, "max": None}
    count = 0

    def rec(remaining, prefix):
        nonlocal count
        if len(prefix) == len(sizes):
            count += 1
            s = score(sim, prefix)
            if best["min"] is None or s < best["min"]:
                best["min"] = s
            if best["max"] is None or s > best["max"]:
                best["max"] = s
            return
        m = sizes[len(prefix)]
        for combo in itertools.combinations(remaining, m):
            rec([c for c in remaining if c not in combo], prefix + [list(combo)])

    rec(list(range(n)), [])
    return {"min": best["min"], "max": best["max"], "count": count}


# ---------------------------------------------------------------- data


def cosine_sim(rng, n, dim, blocks=0):
    x = rng.standard_normal((n, dim))
    if blocks:
        centres = rng.standard_normal((blocks, dim)) * 2.0
        x = x + centres[np.arange(n) % blocks]
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    s = x @ x.T
    np.fill_diagonal(s, 1.0)
    return (s + s.T) / 2


CASES = [
    # (name, n, sizes, dim, blocks)
    ("6/3", 6, [2, 2, 2], 8, 0),
    ("8/4", 8, [2, 2, 2, 2], 8, 0),
    ("9/3-unequal", 9, [2, 4, 3], 8, 0),
    ("12/3", 12, [4, 4, 4], 16, 3),
    ("20/4-unequal", 20, [3, 5, 4, 8], 16, 4),
    ("23/4-unequal", 23, [5, 6, 4, 8], 16, 0),
    ("30/5", 30, [6] * 5, 32, 5),
    ("40/5-unequal", 40, [10, 10, 5, 5, 10], 32, 0),
    ("50/10", 50, [5] * 10, 32, 0),
    ("100/10", 100, [10] * 10, 64, 10),
]


def make():
    rng = np.random.default_rng(7)
    out = []
    for name, n, sizes, dim, blocks in CASES:
        sim = cosine_sim(rng, n, dim, blocks)
        case = {
            "name": name,
            "sizes": sizes,
            "sim": sim.tolist(),
            "edge": edge(sim, sizes),
            "as": {"hard": adversarial(sim, sizes, "hard"), "easy": adversarial(sim, sizes, "easy")},
        }
        if n <= 9:
            case["exact"] = brute_force(sim, sizes)
        out.append(case)
    data = {
        "_note": (
            "Made by scripts/make-edge-fixtures.py (numpy %s, scipy %s): an independent Python implementation "
            "of EDGE hard/easy (docs/science.md §1, tie rules as documented in src/core/protocols/edge.ts), AS "
            "(as.ts) and brute-force exact extremes of S, on cosine similarities of seeded random embeddings "
            "(default_rng(7)). Regenerate with `python3 scripts/make-edge-fixtures.py`."
            % (np.__version__, scipy.__version__)
        ),
        "cases": out,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT} ({len(out)} cases)", file=sys.stderr)


def bench():
    """Median wall time of the Python peer: scipy linkage + the EDGE construction above (hard + easy)."""
    rng = np.random.default_rng(0)
    res = {}
    for n, k, reps in ((100, 10, 15), (1000, 10, 5)):
        x = rng.standard_normal((n, 512))
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        sim = x @ x.T
        sizes = [n // k] * k
        edge(sim, sizes)  # warm up
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            edge(sim, sizes)
            times.append((time.perf_counter() - t0) * 1000)
        # linkage alone
        d = 1.0 - sim
        np.fill_diagonal(d, 0.0)
        lt = []
        for _ in range(reps):
            t0 = time.perf_counter()
            linkage(squareform(d, checks=False), "complete")
            lt.append((time.perf_counter() - t0) * 1000)
        res[f"{n}x{k}"] = {"edgeMs": float(np.median(times)), "linkageMs": float(np.median(lt))}
    print(json.dumps({"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__, **res}))


if __name__ == "__main__":
    if "--bench" in sys.argv:
        bench()
    else:
        make()
