#!/usr/bin/env python3
"""Reference values for src/core/ood (docs/science.md §5: post-hoc OOD scores, ID-positive metrics, the per-step
OOD schedule).

An independent numpy/scipy implementation written from the definitions (vectorised: matrix products, argsort,
cumulative sums, np.percentile, scipy.stats.entropy, scipy.special.logsumexp/softmax) — not a translation of
the TypeScript loops. scikit-learn is not installed here, so its curve semantics are re-implemented below from
its source (`sklearn/metrics/_ranking.py`, 1.3+):
- `_binary_clf_curve`: mergesort argsort of the scores, reversed (descending); thresholds at the last index of
  each run of equal scores (`np.diff(y_score) != 0`, plus the final index); tps = cumsum(y)[idx], fps = 1 + idx − tps;
- `roc_curve`: (0, 0) prepended, fpr = fps/fps[-1], tpr = tps/tps[-1]; here with drop_intermediate=False
  (FPR@95 reads the first threshold with tpr ≥ 0.95; sklearn's default would drop collinear points, which does
  not change the area but can skip that threshold);
- `precision_recall_curve`: precision = tps/(tps+fps), recall = tps/tps[-1], both reversed, then (precision 1,
  recall 0) appended; every threshold kept (no cut at full recall, sklearn ≥ 1.3);
- `auc(x, y)`: np.trapz(y, x), negated when x is decreasing.
ID is the positive class (OpenCIL). AUPR-out: OOD positive, the score negated.

Scores (higher = more ID): MSP, MaxLogit, Energy (T=1), GEN (γ=0.1, M=min(100,C)), ODIN's score (T=1000) on the
logits, ReAct (c = np.percentile(all set-up activations, 90), logsumexp(min(h,c)·W + b)), KLM (d_k = mean softmax of
set-up rows predicted k, −min_k scipy.stats.entropy(p, d_k), classes never predicted left out), Relation (OpenOOD:
ĥ = h/sqrt(Σh²+1e-10), r = clip(ĥ·ĥ_bankᵀ, 0)·(p·p_bankᵀ), Σ r·[|r| > 0.03]), NNGuide (ĥ = h/max(‖h‖,1e-12), bank
g = ĥ_bank·logsumexp(z_bank), mean of the top min(K, bank) of ĥ·gᵀ × logsumexp(z)).

Inputs are float32 values (stored as the doubles they equal), so the tests may pass them as Float32Array rows.
Ties are included on purpose: repeated scores in the metric cases, identical logit rows and equal logits in the
score cases.

Run: python3 scripts/make-ood-fixtures.py
"""
import json
import os

import numpy as np
from scipy.special import logsumexp, softmax
from scipy.stats import entropy

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "ood.json")
SEED = 20261125


# ---------------------------------------------------------------- sklearn semantics, re-implemented

def binary_clf_curve(y, s):
    order = np.argsort(s, kind="mergesort")[::-1]
    s = s[order]
    y = y[order]
    distinct = np.where(np.diff(s))[0]
    idx = np.r_[distinct, y.size - 1]
    tps = np.cumsum(y)[idx]
    fps = 1 + idx - tps
    return fps.astype(float), tps.astype(float), s[idx]


def roc_curve(y, s):
    fps, tps, thr = binary_clf_curve(y, s)
    fps = np.r_[0, fps]
    tps = np.r_[0, tps]
    return fps / fps[-1], tps / tps[-1], np.r_[np.inf, thr]


def precision_recall_curve(y, s):
    fps, tps, thr = binary_clf_curve(y, s)
    ps = tps + fps
    precision = np.divide(tps, ps, out=np.zeros_like(tps), where=(ps != 0))
    recall = np.ones_like(tps) if tps[-1] == 0 else tps / tps[-1]
    return np.r_[precision[::-1], 1], np.r_[recall[::-1], 0], thr[::-1]


def auc(x, y):
    d = np.diff(x)
    direction = 1
    if np.any(d < 0):
        assert np.all(d <= 0)
        direction = -1
    return float(direction * np.trapz(y, x)) if hasattr(np, "trapz") else float(direction * np.trapezoid(y, x))


def metrics(id_s, ood_s):
    id_s = np.asarray(id_s, float)
    ood_s = np.asarray(ood_s, float)
    y = np.r_[np.ones(id_s.size), np.zeros(ood_s.size)]
    s = np.r_[id_s, ood_s]
    fpr, tpr, _ = roc_curve(y, s)
    fpr95 = float(fpr[np.argmax(tpr >= 0.95)])
    p, r, _ = precision_recall_curve(y, s)
    p2, r2, _ = precision_recall_curve(1 - y, -s)
    return {"auroc": auc(fpr, tpr), "fpr95": fpr95, "auprIn": auc(r, p), "auprOut": auc(r2, p2)}


def mann_whitney_auc(id_s, ood_s):
    """Independent check of the AUROC: P(id > ood) + ½ P(id = ood)."""
    a = np.asarray(id_s)[:, None]
    b = np.asarray(ood_s)[None, :]
    return float(np.mean((a > b) + 0.5 * (a == b)))


# ---------------------------------------------------------------- scores

def gen(z, gamma=0.1, M=100):
    p = softmax(z, axis=1)
    top = np.sort(p, axis=1)[:, -min(M, z.shape[1]):]
    return -np.sum(top ** gamma * (1 - top) ** gamma, axis=1)


def react(h, W, b, setup_h):
    c = float(np.percentile(setup_h.ravel(), 90))
    return c, logsumexp(np.minimum(h, c) @ W + b, axis=1)


def klm(z, setup_z):
    C = z.shape[1]
    ps = softmax(setup_z, axis=1)
    pred = ps.argmax(1)
    templates = [ps[pred == k].mean(0) if np.any(pred == k) else None for k in range(C)]
    p = softmax(z, axis=1)
    kl = np.array([[entropy(pi, d) for d in templates if d is not None] for pi in p])
    return templates, -kl.min(1)


def relation(h, z, bank_h, bank_z, thres=0.03):
    nf = lambda f: f / np.sqrt((f ** 2).sum(-1) + 1e-10)[:, None]
    rel = np.clip(nf(h) @ nf(bank_h).T, 0, None) * (softmax(z, axis=1) @ softmax(bank_z, axis=1).T)
    return (rel * (np.abs(rel) > thres)).sum(-1)


def nnguide(h, z, bank_h, bank_z, K=100):
    nf = lambda f: f / np.maximum(np.linalg.norm(f, axis=1), 1e-12)[:, None]
    guide = nf(bank_h) * logsumexp(bank_z, axis=1)[:, None]
    D = nf(h) @ guide.T
    k = min(K, guide.shape[0])
    top = -np.sort(-D, axis=1)[:, :k]
    return top.mean(1) * logsumexp(z, axis=1)


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def score_case(name, rng, n, C, d, m, bank, K=100, ties=True):
    z = f32(rng.normal(0, 2.5, size=(n, C)))
    if ties:
        z[1] = z[0]          # identical rows → tied scores
        z[2, :] = 0.75       # all logits equal
        z[3, :2] = z[3].max() + 1  # two equal maxima
        z = f32(z)
    h = f32(np.maximum(rng.normal(0.2, 1.0, size=(n, d)), 0))
    h[4] = 0  # an all-zero feature row (the norms' floors)
    W = f32(rng.normal(0, 0.4, size=(d, C)))
    b = f32(rng.normal(0, 0.1, size=C))
    sz = f32(rng.normal(0, 2.5, size=(m, C)) + 3 * np.eye(C)[rng.integers(0, C, m)])
    sh = f32(np.maximum(rng.normal(0.2, 1.0, size=(m, d)), 0))
    clip, react_s = react(h, W, b, sh)
    templates, klm_s = klm(z, sz)
    p = softmax(z, axis=1)
    out = {
        "name": name,
        "logits": z.tolist(),
        "features": h.tolist(),
        "layer": {"weights": W.ravel().tolist(), "bias": b.tolist(), "inDim": d, "outDim": C},
        "setupLogits": sz.tolist(),
        "setupFeatures": sh.tolist(),
        "bankSize": bank,
        "K": K,
        "scores": {
            "msp": p.max(1).tolist(),
            "maxlogit": z.max(1).tolist(),
            "energy": logsumexp(z, axis=1).tolist(),
            "gen": gen(z).tolist(),
            "odin": softmax(z / 1000, axis=1).max(1).tolist(),
            "react": react_s.tolist(),
            "klm": klm_s.tolist(),
            "relation": relation(h, z, sh[:bank], sz[:bank]).tolist(),
            "nnguide": nnguide(h, z, sh[:bank], sz[:bank], K).tolist(),
        },
        "reactClip": clip,
        "klmTemplates": [None if t is None else t.tolist() for t in templates],
    }
    return out


def main():
    rng = np.random.default_rng(SEED)
    metric_cases = []

    def add(name, id_s, ood_s):
        id_s = [float(v) for v in id_s]
        ood_s = [float(v) for v in ood_s]
        m = metrics(id_s, ood_s)
        assert abs(m["auroc"] - mann_whitney_auc(id_s, ood_s)) < 1e-12
        metric_cases.append({"name": name, "id": id_s, "ood": ood_s, **m})

    add("hand: 3 ID, 2 OOD", [0.9, 0.8, 0.3], [0.5, 0.1])
    add("hand: ties across ID and OOD", [1, 2, 2, 3, 3, 3], [2, 3, 1, 1, 0])
    add("all scores equal", [0.5] * 4, [0.5] * 3)
    add("one ID, one OOD", [1.0], [2.0])
    add("recall exactly 0.95 (P = 20)", np.arange(20) + 0.5, np.arange(15) * 1.3)
    add("continuous, separated", rng.normal(1.5, 1, 200), rng.normal(0, 1, 150))
    add("heavy ties (one decimal)", np.round(rng.normal(0.6, 0.5, 300), 1), np.round(rng.normal(0.2, 0.5, 250), 1))
    add("integers 0..4 (five thresholds)", rng.integers(0, 5, 97), rng.integers(0, 4, 61))
    add("OOD above ID", rng.normal(-1, 1, 80), rng.normal(1, 1, 90))
    add("float32 energies", f32(rng.normal(8, 2, 123)), f32(rng.normal(6, 2.5, 77)))

    schedule = []
    for n, seed, T in [(10, 0, 3), (37, 42, 5), (1000, 1993, 3), (7, 5, 10)]:
        schedule.append({
            "n": n, "seed": seed, "steps": T,
            "permutation": np.random.default_rng(seed).permutation(n).tolist(),
            "counts": [int(np.floor(n * (t + 1) / T)) for t in range(T)],
        })

    score_cases = [
        score_case("C=5, d=8, bank 40 (K = bank)", rng, 30, 5, 8, 60, 40, K=100),
        score_case("C=3, d=6, bank 25, K=5", rng, 20, 3, 6, 25, 25, K=5),
        score_case("C=120 (GEN keeps the top 100), d=10", rng, 12, 120, 10, 120, 50, K=100),
        score_case("C=1 (one class)", rng, 8, 1, 4, 10, 10, K=3, ties=False),
    ]

    with open(OUT, "w") as f:
        json.dump({
            "note": ("Made by scripts/make-ood-fixtures.py (numpy " + np.__version__ + "): independent numpy/scipy "
                     "implementations of the OpenCIL/OpenOOD scores and of scikit-learn's curve semantics; see the "
                     "script's docstring. ID is positive; higher score = more ID."),
            "metrics": metric_cases,
            "schedule": schedule,
            "scores": score_cases,
        }, f)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
