#!/usr/bin/env python3
"""Reference values for src/core/stream (docs/science.md §4 CLEAR's raw averages, §7 the Time lab).

An independent numpy implementation written from the definitions, vectorised (not a translation of the TypeScript
loops):

- CLEAR's averages of an accuracy matrix R with np.diag / np.tril / np.triu masks; under the streaming protocol the
  in-domain, backward and accuracy averages are None (the diagonal and below are training data there), and the
  accuracy against test distance d = j − i is the mean of np.diagonal(R, d) over the cells the protocol uses.
- CLEAR's supplement Alg. 1 (biased reservoir sampling at bucket level) with numpy's Generator: per bucket t,
  i = samples seen so far including bucket t; the first samples fill the buffer to k; every later sample of the
  bucket is admitted into T when u ≤ α·k/i, with all its u drawn at once by rng.random(n) (the same stream as n
  single draws); when |T| > k the first k of rng.permutation(|T|) pick the kept T; then rng.shuffle(B), B[|T|:] + T.
  α fixed, or dynamic α = c·i/k (probability c). Seeded with np.random.default_rng(seed), one generator for all
  trials: the TypeScript port (src/core/random/default-rng.ts) draws the same numbers, so the "exact" cases compare
  whole buffers, and the "trials" cases give mean final-buffer shares that TypeScript must reproduce statistically
  with a different seed (tolerance from the per-trial standard deviations stored here).

Run: python3 scripts/make-stream-fixtures.py   (writes tests/fixtures/stream.json)
"""
import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "stream.json")


def clear(R, protocol):
    R = np.asarray(R, dtype=float)
    K = R.shape[0]
    iid = protocol == "iid"
    ind = float(np.mean(np.diag(R)))
    nxt = float(np.mean(np.diagonal(R, 1))) if K > 1 else None
    bwt = float(R[np.tril_indices(K, -1)].mean()) if K > 1 else None
    fwt = float(R[np.triu_indices(K, 1)].mean()) if K > 1 else None
    acc = float(R[np.tril_indices(K, 0)].mean())
    return {
        "inDomain": ind if iid else None,
        "nextDomain": nxt,
        "backwardTransfer": bwt if iid else None,
        "forwardTransfer": fwt,
        "accuracy": acc if iid else None,
    }


def by_distance(R, protocol):
    R = np.asarray(R, dtype=float)
    K = R.shape[0]
    out = []
    for d in range(-(K - 1), K):
        if protocol == "streaming" and d <= 0:
            continue
        diag = np.diagonal(R, d)
        out.append({"distance": d, "mean": float(diag.mean()), "count": int(diag.size)})
    return out


def alg1(sizes, k, alpha, rng):
    """Alg. 1; alpha = ("fixed", a) or ("dynamic", c). Returns the buffer after every bucket (sample positions)."""
    B = np.empty(0, dtype=np.int64)
    out = []
    seen = 0
    off = 0
    for n in sizes:
        seen += n
        p = alpha[1] * k / seen if alpha[0] == "fixed" else alpha[1]
        fill = min(n, max(0, k - B.size))
        B = np.concatenate([B, off + np.arange(fill)])
        rest = off + np.arange(fill, n)
        u = rng.random(rest.size)
        T = rest[u <= p]
        if T.size > k:
            T = T[rng.permutation(T.size)[:k]]
        rng.shuffle(B)
        B = np.concatenate([B[T.size:], T])
        out.append(B.copy())
        off += n
    return out


def shares_of(buffer, sizes):
    edges = np.cumsum(sizes)
    counts = np.bincount(np.searchsorted(edges, buffer, side="right"), minlength=len(sizes))[: len(sizes)]
    return counts / max(1, buffer.size), counts


def trials(sizes, k, alpha, T, seed):
    rng = np.random.default_rng(seed)
    S = np.zeros((T, len(sizes)))
    for r in range(T):
        S[r], _ = shares_of(alg1(sizes, k, alpha, rng)[-1], sizes)
    return S.mean(0), S.std(0)


def spec(alpha):
    return {"kind": "fixed", "value": alpha[1]} if alpha[0] == "fixed" else {"kind": "dynamic", "c": alpha[1]}


def main():
    gen = np.random.default_rng(20261125)
    metric_cases = []
    for K in [1, 2, 3, 5, 6, 10]:
        R = np.round(gen.random((K, K)), 6)
        for protocol in ["iid", "streaming"]:
            metric_cases.append({"K": K, "protocol": protocol, "R": R.tolist(), "metrics": clear(R, protocol), "byDistance": by_distance(R, protocol)})

    exact = []
    for sizes, k, alpha, seed in [
        ([10, 10, 10], 5, ("fixed", 1.0), 0),
        ([7, 3, 12, 5], 6, ("fixed", 2.0), 1),
        ([20, 20, 20, 20], 20, ("dynamic", 1.0), 2),
        ([5, 40, 5], 10, ("fixed", 5.0), 3),
        ([3, 2], 10, ("fixed", 0.5), 4),
        ([50, 50, 50, 50, 50], 30, ("dynamic", 0.25), 5),
        ([30, 30, 30], 10, ("fixed", 50.0), 6),
    ]:
        rng = np.random.default_rng(seed)
        bufs = alg1(sizes, k, alpha, rng)
        exact.append({"sizes": sizes, "k": k, "alpha": spec(alpha), "seed": seed, "buffers": [b.tolist() for b in bufs]})

    trial_cases = []
    T = 4000
    for sizes, k, alpha in [
        ([100] * 5, 100, ("fixed", 0.5)),
        ([100] * 5, 100, ("fixed", 1.0)),
        ([100] * 5, 100, ("fixed", 2.0)),
        ([100] * 5, 100, ("fixed", 5.0)),
        ([100] * 5, 100, ("dynamic", 0.25)),
        ([100] * 5, 100, ("dynamic", 0.75)),
        ([100] * 5, 100, ("dynamic", 1.0)),
        ([50, 150, 100, 200], 80, ("fixed", 1.0)),
    ]:
        mean, std = trials(sizes, k, alpha, T, seed=7)
        trial_cases.append({"sizes": sizes, "k": k, "alpha": spec(alpha), "trials": T, "seed": 7, "shares": mean.tolist(), "shareStd": std.tolist()})

    with open(OUT, "w") as f:
        json.dump(
            {
                "note": "made by scripts/make-stream-fixtures.py (numpy %s): CLEAR averages with nulls for streaming, accuracy by distance, Alg. 1 exact buffers and mean shares over trials" % np.__version__,
                "metrics": metric_cases,
                "reservoirExact": exact,
                "reservoirTrials": trial_cases,
            },
            f,
        )
    print("wrote", OUT)


if __name__ == "__main__":
    main()
