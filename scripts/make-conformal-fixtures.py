#!/usr/bin/env python3
"""Reference values for src/core/conformal (docs/science.md §3: APS/LAC/RAPS scores, the conformal quantile,
prediction sets, coverage, CPCF with a_prev/a_new, Kemker's Ω and the paper's Ω_prev, distance correlation,
Pearson).

An independent numpy implementation written from docs/science.md §3 (vectorised: stable argsort of −p, cumsum along
rows, boolean masks, broadcasting for the distance matrices) — not a translation of the TypeScript loops.
The `dcor` package is not installed here; dCor is the V-statistic written out from its definition
(double-centred distance matrices, dCor = sqrt(dCov²(x,y) / sqrt(dVar²(x) dVar²(y))), 0 for a zero
denominator), which is what `dcor.distance_correlation` computes by default; the unit tests also pin values
from dcor's own test suite.

Conventions pinned by docs/science.md §3 and the code's doc comments:
- classes sorted by descending probability, ties by ascending class index (stable argsort of −p);
- APS score = cumulative mass down to the true class; RAPS adds λ·max(0, rank − k_reg) (λ = 0.01, k_reg = 5
  unless stated); LAC = 1 − π_y; all non-randomised;
- q = the k-th smallest score, k = ⌈(n+1)(1−α)⌉ (a product within 1e-12·(n+1) of a whole number counts as that
  number), +∞ (null in JSON) when k > n;
- APS/RAPS sets: ranks up to and including the first whose (penalised) cumulative mass ≥ q (all if none);
  LAC sets: {k : 1 − π_k ≤ q}, listed in rank order; q = +∞ → all classes;
- CPCF after step j ≥ 1 (0-based): q from the pooled calibration scores of tasks 0..j−1, mean set size over the
  pooled test data of tasks 0..j−1; a_prev = unweighted mean of per-task arg-max accuracies of tasks 0..j−1;
  a_new = accuracy on task j;
- Ω: α_ideal = R[0][0] unless supplied; α_all pooled with the test counts.

Run: python3 scripts/make-conformal-fixtures.py
"""
import json
import math
import os

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "conformal.json")
SEED = 20250612
LAM, KREG = 0.01, 5


# ---------------------------------------------------------------- scores and sets (vectorised)

def ranked(P):
    """order[i] = classes of row i by descending probability (ties by index); cum = cumulative sums."""
    order = np.argsort(-P, axis=1, kind="stable")
    cum = np.cumsum(np.take_along_axis(P, order, axis=1), axis=1)
    return order, cum


def penalties(K, lam, kreg):
    return lam * np.maximum(0, np.arange(1, K + 1) - kreg)


def scores(P, y, kind, lam=LAM, kreg=KREG):
    P = np.asarray(P, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if kind == "lac":
        return 1.0 - P[np.arange(len(y)), y]
    order, cum = ranked(P)
    pos = np.argmax(order == y[:, None], axis=1)  # 0-based rank of the true class
    e = cum[np.arange(len(y)), pos]
    if kind == "raps":
        pen = penalties(P.shape[1], lam, kreg)
        e = e + pen[pos]
    return e


def quantile_index(n, alpha):
    x = (n + 1) * (1 - alpha)
    r = round(x)
    return int(r) if abs(x - r) <= 1e-12 * (n + 1) else int(math.ceil(x))


def quantile(s, alpha):
    s = np.sort(np.asarray(s, dtype=np.float64))
    k = quantile_index(len(s), alpha)
    return math.inf if k > len(s) else float(s[k - 1])


def sets(P, q, kind, lam=LAM, kreg=KREG):
    P = np.asarray(P, dtype=np.float64)
    n, K = P.shape
    order, cum = ranked(P)
    if q == math.inf:
        return [list(map(int, order[i])) for i in range(n)]
    if kind == "lac":
        keep = (1.0 - P) <= q  # by class
        return [[int(c) for c in order[i] if keep[i, c]] for i in range(n)]
    mass = cum + (penalties(K, lam, kreg)[None, :] if kind == "raps" else 0.0)
    reached = mass >= q
    size = np.where(reached.any(axis=1), np.argmax(reached, axis=1) + 1, K)
    return [list(map(int, order[i, : size[i]])) for i in range(n)]


def coverage(S, y):
    return float(np.mean([int(yi) in s for s, yi in zip(S, y)])) if len(S) else None


def accuracy(P, y):
    return float(np.mean(np.argmax(np.asarray(P), axis=1) == np.asarray(y)))


# ---------------------------------------------------------------- CPCF

def cpcf(outputs, alpha, kind):
    """outputs[j][i] = {"cal": (P, y), "test": (P, y)} for i <= j."""
    acc = [[accuracy(*outputs[j][i]["test"]) for i in range(j + 1)] for j in range(len(outputs))]
    steps = []
    for j in range(1, len(outputs)):
        cal_s = np.concatenate([scores(*outputs[j][i]["cal"], kind) for i in range(j)])
        q = quantile(cal_s, alpha)
        width = np.asarray(outputs[j][0]["test"][0]).shape[1]
        per_task, all_sizes, all_cov = [], [], []
        for i in range(j):
            P, y = outputs[j][i]["test"]
            S = sets(P, q, kind)
            sizes = np.array([len(s) for s in S])
            cov = np.array([int(yi) in s for s, yi in zip(S, y)])
            per_task.append({
                "task": i,
                "n": int(len(y)),
                "meanSetSize": float(sizes.mean()),
                "coverage": float(cov.mean()),
                "accuracy": acc[j][i],
                "sizeCounts": np.bincount(sizes, minlength=width + 1).tolist(),
            })
            all_sizes.append(sizes)
            all_cov.append(cov)
        sizes = np.concatenate(all_sizes)
        steps.append({
            "afterTask": j,
            "width": int(width),
            "q": None if q == math.inf else q,
            "calibrationCount": int(len(cal_s)),
            "testCount": int(len(sizes)),
            "cpcf": float(sizes.mean()),
            "coverage": float(np.concatenate(all_cov).mean()),
            "aPrev": float(np.mean(acc[j][:j])),
            "aNew": acc[j][j],
            "previous": per_task,
        })
    return {"steps": steps, "accuracy": acc}


# ---------------------------------------------------------------- Ω, dCor, Pearson

def omega(R, counts=None, alpha_ideal=None):
    T = len(R)
    R = [np.asarray(r, dtype=np.float64) for r in R]
    w = np.ones(T) if counts is None else np.asarray(counts, dtype=np.float64)
    a_ideal = R[0][0] if alpha_ideal is None else alpha_ideal
    idx = range(1, T)
    base = np.array([R[i][0] for i in idx])
    new = np.array([R[i][i] for i in idx])
    allv = np.array([np.dot(w[: i + 1], R[i][: i + 1]) / w[: i + 1].sum() for i in idx])
    prev = np.array([R[i][:i].mean() for i in idx])
    return {
        "omegaBase": float(np.mean(base / a_ideal)),
        "omegaNew": float(np.mean(new)),
        "omegaAll": float(np.mean(allv / a_ideal)),
        "omegaPrev": float(np.mean(prev / a_ideal)),
        "alphaIdeal": float(a_ideal),
    }


def dcor_stats(x, y):
    def centred(v):
        v = np.asarray(v, dtype=np.float64)
        if v.ndim == 1:
            v = v[:, None]
        d = np.sqrt(((v[:, None, :] - v[None, :, :]) ** 2).sum(axis=2))
        return d - d.mean(axis=0, keepdims=True) - d.mean(axis=1, keepdims=True) + d.mean()

    A, B = centred(x), centred(y)
    cov, vx, vy = (A * B).mean(), (A * A).mean(), (B * B).mean()
    den = np.sqrt(abs(vx * vy))
    cor2 = 0.0 if den == 0 else cov / den
    return {
        "covarianceXy": float(cov),
        "correlationXy": float(cor2),
        "varianceX": float(vx),
        "varianceY": float(vy),
        "dcor": float(np.sqrt(max(cor2, 0.0))),
    }


def pearson(x, y):
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return None
    return float(np.clip(np.corrcoef(x, y)[0, 1], -1, 1))


# ---------------------------------------------------------------- data

rng = np.random.default_rng(SEED)


def softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def draw_labels(P):
    u = rng.random(len(P))
    return np.minimum((np.cumsum(P, axis=1) < u[:, None]).sum(axis=1), P.shape[1] - 1)


def matrices():
    out = []
    P = rng.dirichlet(np.full(10, 0.5), size=30)
    out.append({"name": "dirichlet K=10", "probs": P, "labels": draw_labels(P)})
    P = softmax(rng.normal(size=(25, 3)) * 2.0)
    out.append({"name": "softmax-gaussian K=3", "probs": P, "labels": draw_labels(P)})
    P = softmax(rng.normal(size=(40, 12)) * 1.5)
    out.append({"name": "softmax-gaussian K=12 (RAPS penalty bites)", "probs": P, "labels": draw_labels(P)})
    P = softmax(rng.normal(size=(20, 7)) * 3.0).astype(np.float32)
    out.append({"name": "float32 K=7", "probs": P.astype(np.float64), "labels": draw_labels(P.astype(np.float64)), "float32": True})
    P = np.array([
        [0.25, 0.25, 0.25, 0.25],
        [0.5, 0.25, 0.25, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.4, 0.2, 0.4, 0.0],
        [0.1, 0.3, 0.3, 0.3],
        [0.0, 0.5, 0.0, 0.5],
    ])
    out.append({"name": "ties", "probs": P, "labels": np.array([3, 2, 1, 2, 3, 3])})
    return out


def case_sets(P, y, kind, qs):
    res = []
    for q in qs:
        S = sets(P, q, kind)
        res.append({"q": None if q == math.inf else q, "sets": S, "sizes": [len(s) for s in S], "coverage": coverage(S, y)})
    return res


score_cases = []
for m in matrices():
    P, y = m["probs"], m["labels"]
    e = {k: scores(P, y, k).tolist() for k in ("aps", "lac", "raps")}
    e["raps_l0.1_k2"] = scores(P, y, "raps", 0.1, 2).tolist()
    set_cases = {}
    for kind in ("aps", "lac", "raps"):
        qs = [quantile(scores(P, y, kind), a) for a in (0.1, 0.2, 0.5)] + [0.3, 0.5, 0.9, 0.999, math.inf]
        set_cases[kind] = case_sets(P, y, kind, qs)
    score_cases.append({
        "name": m["name"],
        "float32": bool(m.get("float32", False)),
        "probs": P.tolist(),
        "labels": [int(v) for v in y],
        "scores": e,
        "sets": set_cases,
    })

quantile_cases = []
for n, alpha in [(0, 0.1), (1, 0.1), (8, 0.1), (9, 0.1), (10, 0.1), (18, 0.05), (19, 0.05), (4, 0.2), (5, 0.2),
                 (99, 0.07), (99, 0.1), (100, 0.1), (37, 0.15), (250, 0.05), (3, 0.5), (2, 0.9)]:
    s = rng.random(n)
    if n > 5:
        s[: n // 4] = s[n // 4]  # ties among scores
    quantile_cases.append({"scores": s.tolist(), "alpha": alpha, "k": quantile_index(n, alpha),
                           "q": None if quantile(s, alpha) == math.inf else quantile(s, alpha)})

end_to_end = []
for K, n_cal, n_test, scale in [(5, 50, 30, 2.0), (10, 12, 20, 1.0), (4, 6, 10, 3.0)]:
    Pc = softmax(rng.normal(size=(n_cal, K)) * scale)
    Pt = softmax(rng.normal(size=(n_test, K)) * scale)
    yc, yt = draw_labels(Pc), draw_labels(Pt)
    for kind in ("aps", "lac", "raps"):
        for alpha in (0.05, 0.1, 0.2):
            q = quantile(scores(Pc, yc, kind), alpha)
            S = sets(Pt, q, kind)
            end_to_end.append({
                "score": kind, "alpha": alpha,
                "calibration": {"probs": Pc.tolist(), "labels": yc.tolist()},
                "test": {"probs": Pt.tolist(), "labels": yt.tolist()},
                "q": None if q == math.inf else q,
                "sizes": [len(s) for s in S], "sets": S, "coverage": coverage(S, yt),
                "meanSize": float(np.mean([len(s) for s in S])),
            })


def synthetic_run(task_sizes, n_cal, n_test, softmax_width, float32):
    """Outputs after every step of a made-up CIL run whose old tasks fade: logits = s·onehot(y) + noise,
    the signal s of an old task decaying with the steps since it was learnt, plus a recency bias on the newest
    task's classes."""
    K = len(task_sizes)
    first = np.concatenate([[0], np.cumsum(task_sizes)[:-1]])
    total = int(np.sum(task_sizes))
    data = []
    for i in range(K):
        yc = first[i] + rng.integers(0, task_sizes[i], size=n_cal)
        yt = first[i] + rng.integers(0, task_sizes[i], size=n_test)
        data.append((yc, yt, rng.normal(size=(n_cal, total)), rng.normal(size=(n_test, total))))
    outputs = []
    for j in range(K):
        width = int(first[j] + task_sizes[j]) if softmax_width == "seen" else total
        step = []
        for i in range(j + 1):
            cell = {}
            for split, y, noise in (("cal", data[i][0], data[i][2]), ("test", data[i][1], data[i][3])):
                s = 3.0 * 0.6 ** (j - i)
                z = noise[:, :width] * 1.0 + s * np.eye(total)[y][:, :width]
                z[:, first[j]: first[j] + task_sizes[j]] += 0.5 * (j > 0)
                P = softmax(z)
                if float32:
                    P = P.astype(np.float32).astype(np.float64)
                cell[split] = (P, y)
            step.append(cell)
        outputs.append(step)
    return outputs


cpcf_cases = []
for name, sizes, n_cal, n_test, width, f32 in [
    ("seen softmax, float32, tasks 3+2+2+1", [3, 2, 2, 1], 12, 15, "seen", True),
    ("full head, float64, tasks 5+1+1+1+1+1 (the paper's layout)", [5, 1, 1, 1, 1, 1], 6, 8, "all", False),
]:
    outputs = synthetic_run(sizes, n_cal, n_test, width, f32)
    results = {}
    for kind in ("aps", "lac", "raps"):
        for alpha in (0.05, 0.1, 0.2):
            results[f"{kind}/{alpha}"] = cpcf(outputs, alpha, kind)
    cpcf_cases.append({
        "name": name,
        "float32": f32,
        "outputs": [[{"calibration": {"probs": c["cal"][0].tolist(), "labels": c["cal"][1].tolist()},
                      "test": {"probs": c["test"][0].tolist(), "labels": c["test"][1].tolist()}} for c in step]
                    for step in outputs],
        "results": results,
    })

omega_cases = []
for T in (2, 3, 6, 10):
    R = rng.random((T, T)) * 0.8 + 0.1
    counts = rng.integers(50, 1000, size=T)
    omega_cases.append({"matrix": R.tolist(), "testCounts": counts.tolist(),
                        "weighted": omega(R, counts), "unweighted": omega(R),
                        "supplied": omega(R, counts, alpha_ideal=0.97)})

dcor_cases = []
for n in (1, 2, 3, 4, 5, 6, 9, 15):
    x = rng.normal(size=n)
    y = x ** 2 + 0.3 * rng.normal(size=n)
    dcor_cases.append({"x": x.tolist(), "y": y.tolist(), **dcor_stats(x, y), "pearson": pearson(x, y)})
x = rng.normal(size=7)
dcor_cases.append({"x": x.tolist(), "y": [0.5] * 7, **dcor_stats(x, [0.5] * 7), "pearson": pearson(x, [0.5] * 7)})
dcor_cases.append({"x": x.tolist(), "y": (-2 * x + 1).tolist(), **dcor_stats(x, -2 * x + 1), "pearson": pearson(x, -2 * x + 1)})
Xm = rng.normal(size=(8, 3))
Ym = rng.normal(size=(8, 2))
dcor_multi = {"x": Xm.tolist(), "y": Ym.tolist(), **dcor_stats(Xm, Ym)}

fixture = {
    "_note": (
        f"Generated by scripts/make-conformal-fixtures.py (numpy {np.__version__}, default_rng({SEED})): an "
        "independent vectorised numpy implementation of docs/science.md §3. Ranks by descending probability with ties "
        "by class index; RAPS λ = 0.01, k_reg = 5 unless named; q = ⌈(n+1)(1−α)⌉-th smallest score, null = +∞; "
        "sets listed in rank order; CPCF/a_prev/a_new per step afterTask ≥ 1 (0-based); Ω with α_ideal = R[0][0] "
        "unless 'supplied' (0.97); dCor = V-statistic as dcor.distance_correlation; pearson null = undefined."
    ),
    "raps": {"lambda": LAM, "kReg": KREG},
    "scores": score_cases,
    "quantile": quantile_cases,
    "conformal": end_to_end,
    "cpcf": cpcf_cases,
    "omega": omega_cases,
    "dcor": dcor_cases,
    "dcorMultivariate": dcor_multi,
}

with open(OUT, "w") as f:
    json.dump(fixture, f, indent=None, separators=(",", ":"))
print(f"wrote {OUT}: {os.path.getsize(OUT)} bytes")
