#!/usr/bin/env python3
"""Reference values for the pre-trained methods on frozen features (src/core/ptm, docs/science.md §9), computed
with numpy alone, the plain way: every ordering step by step, every λ of RanPAC's grid solved with
np.linalg.solve as RanPAC.py does. Nothing here shares code with the TypeScript it checks.

  python3 scripts/make-ptm-fixtures.py

Writes
- tests/fixtures/ptm-features.npz: a small feature set (np.savez: features float32, labels int64, split uint8,
  class_names), Gaussian class clusters drawn with RandomState, rows shuffled so classes are interleaved;
- tests/fixtures/ptm.json: numpy's draws the methods rely on (RandomState.standard_normal, default_rng([seed,
  label]).permutation), the synthetic generator's output for a tiny spec, class scores, RanPAC's validation errors
  for one selection, and for every method and setting the accuracy matrix R of every ordering of the experiment
  (final accuracy and AIA sample-weighted, λ per step for RanPAC).
"""
import itertools
import json
import os

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'fixtures')
GRID = 10.0 ** np.arange(-8, 9)  # RanPAC.py's ridges
FIT_SHARE = 0.8
TIE = 1e-9


def synthetic(classes, dims, train_per_class, test_per_class, separation, seed):
    """The recipe of src/core/ptm/synthetic.ts: centres, then train rows class by class, then test rows."""
    rs = np.random.RandomState(seed)
    centres = separation * rs.standard_normal((classes, dims))
    rows, labels, split = [], [], []
    for part, per in ((0, train_per_class), (1, test_per_class)):
        for c in range(classes):
            for _ in range(per):
                rows.append(centres[c] + rs.standard_normal(dims))
                labels.append(c)
                split.append(part)
    return np.array(rows).astype(np.float32), np.array(labels, dtype=np.int64), np.array(split, dtype=np.uint8)


# ---- the feature set: 8 classes, the experiment uses 6 of them in its own order ----
X32, Y, S = synthetic(8, 12, 30, 12, 0.45, 11)
perm = np.random.RandomState(5).permutation(len(Y))  # interleave the classes and splits
X32, Y, S = X32[perm], Y[perm], S[perm]
NAMES = np.array([f'class {c}' for c in range(8)])
np.savez(os.path.join(HERE, 'ptm-features.npz'), features=X32, labels=Y, split=S, class_names=NAMES)
X = X32.astype(np.float64)
CLASSES = [1, 3, 4, 6, 7, 0]  # label ids; position p is CLASSES[p]


def rows_of(split, label):
    return np.flatnonzero((S == split) & (Y == label))  # file order


def normalize(a):
    return a / np.maximum(np.linalg.norm(a, axis=-1, keepdims=True), 1e-12)


def class_scores(kind, shrinkage=1.0):
    """score[i, p] for every test row i (grouped by position, file order) and class position p; higher is better."""
    test = np.concatenate([rows_of(1, c) for c in CLASSES])
    xt = X[test]
    out = np.zeros((len(test), len(CLASSES)))
    for p, c in enumerate(CLASSES):
        tr = X[rows_of(0, c)]
        if kind == 'cosine':
            mu = tr.mean(0)
            out[:, p] = (xt @ mu) / (np.maximum(np.linalg.norm(xt, axis=1), 1e-12) * max(np.linalg.norm(mu), 1e-12))
        elif kind == 'euclidean':
            mu = normalize(tr).mean(0)
            out[:, p] = -np.sum((normalize(xt) - mu) ** 2, axis=1)
        else:  # fecam, FeCAM_vit_cifar100.py: shrink_cov (alpha1), normalize_cov, pinv
            z = normalize(tr)
            mu = z.mean(0)
            cov = np.cov(z.T)
            cov = cov + shrinkage * np.mean(np.diagonal(cov)) * np.eye(cov.shape[0])
            sd = np.sqrt(np.diagonal(cov))
            cov = cov / np.outer(sd, sd)
            diff = normalize(xt) - mu
            out[:, p] = -np.einsum('ij,jk,ik->i', diff, np.linalg.pinv(cov), diff)
    return out


def argbest(scores):
    return int(np.argmax(scores))  # first maximum: the smallest position among ties


def run_scores(order, scores, test_pos):
    """R of one ordering (tasks of positions) for a per-class score method."""
    K = len(order)
    R = np.zeros((K, K))
    seen = []
    for t, task in enumerate(order):
        seen = sorted(seen + list(task))
        for j in range(t + 1):
            rows = [i for i, y in enumerate(test_pos) if y in order[j]]
            R[t, j] = np.mean([seen[argbest(scores[i, seen])] == test_pos[i] for i in rows])
    return R, None


def ridge_choice(errors):
    errors = np.where(np.isfinite(errors), errors, np.inf)
    m = errors.min()
    return int(np.flatnonzero(errors <= m + abs(m) * TIE)[0])


class Ranpac:
    def __init__(self, M, seed, lambda_from):
        d = X.shape[1]
        self.W = np.random.RandomState(seed).standard_normal((d, M)) if M > 0 else None
        self.lambda_from = lambda_from
        self.train = [rows_of(0, c) for c in CLASSES]
        self.test = [rows_of(1, c) for c in CLASSES]
        self.fit, self.val = [], []
        for p, c in enumerate(CLASSES):
            n = len(self.train[p])
            pr = np.random.default_rng([seed, c]).permutation(n)
            k = int(n * FIT_SHARE)
            self.fit.append(self.train[p][pr[:k]])
            self.val.append(self.train[p][pr[k:]])

    def h(self, rows):
        return X[rows] if self.W is None else np.maximum(X[rows] @ self.W, 0)

    def errors(self, sel):
        """Validation errors (sum of squares) over the grid, fitting on sel's fit rows: RanPAC.py's optimise_ridge_parameter."""
        hf = np.concatenate([self.h(self.fit[p]) for p in sel])
        yf = np.concatenate([np.eye(len(sel))[[j] * len(self.fit[p])] for j, p in enumerate(sel)])
        hv = np.concatenate([self.h(self.val[p]) for p in sel])
        yv = np.concatenate([np.eye(len(sel))[[j] * len(self.val[p])] for j, p in enumerate(sel)])
        G, Q = hf.T @ hf, hf.T @ yf
        out = []
        for lam in GRID:
            Wo = np.linalg.solve(G + lam * np.eye(G.shape[0]), Q)
            out.append(float(np.sum((hv @ Wo - yv) ** 2)))
        return np.array(out)

    def run(self, order):
        K = len(order)
        R = np.zeros((K, K))
        width = X.shape[1] if self.W is None else self.W.shape[1]
        G = np.zeros((width, width))
        Qc = {}
        seen, lambdas = [], []
        for t, task in enumerate(order):
            for p in task:
                hp = self.h(self.train[p])
                G += hp.T @ hp
                Qc[p] = hp.sum(0)
            seen = sorted(seen + list(task))
            sel = sorted(task) if self.lambda_from == 'task' else seen
            li = ridge_choice(self.errors(sel))
            lambdas.append(li)
            Q = np.stack([Qc[p] for p in seen], axis=1)
            Wo = np.linalg.solve(G + GRID[li] * np.eye(width), Q)
            for j in range(t + 1):
                correct = total = 0
                for p in order[j]:
                    pred = np.argmax(self.h(self.test[p]) @ Wo, axis=1)
                    correct += int(np.sum(np.array(seen)[pred] == p))
                    total += len(self.test[p])
                R[t, j] = correct / total
        return R, lambdas


def orderings(sizes):
    """Every ordering of positions 0..N-1 in tasks of these sizes (each task ascending), in the rank order of
    src/core/orderings/enumerate.ts: lexicographic order of the label vector (task of each class)."""
    n = sum(sizes)
    labels = sorted(sum(([t] * m for t, m in enumerate(sizes)), []))
    seen = set()
    for lab in itertools.permutations(labels):
        if lab in seen:
            continue
        seen.add(lab)
    for lab in sorted(seen):
        yield [[c for c in range(n) if lab[c] == t] for t in range(len(sizes))]


def weighted(R, counts):
    counts = np.array(counts, dtype=float)
    final = float(R[-1] @ counts / counts.sum())
    aia = float(np.mean([R[i, : i + 1] @ counts[: i + 1] / counts[: i + 1].sum() for i in range(len(R))]))
    return final, aia


def ground_truth(runner, sizes, keep):
    test_counts = [len(rows_of(1, c)) for c in CLASSES]
    out = []
    for k, order in enumerate(orderings(sizes)):
        R, lambdas = runner(order)
        counts = [sum(test_counts[p] for p in task) for task in order]
        final, aia = weighted(R, counts)
        key = '|'.join(','.join(str(c) for c in sorted(CLASSES[p] for p in task)) for task in order)
        row = {'key': key, 'final': final, 'aia': aia}
        if k in keep:
            row['order'] = order
            row['matrix'] = R.tolist()
            if lambdas is not None:
                row['lambdas'] = lambdas
        out.append(row)
    return out


test_pos = np.concatenate([[p] * len(rows_of(1, c)) for p, c in enumerate(CLASSES)]).tolist()
scores = {'cosine': class_scores('cosine'), 'euclidean': class_scores('euclidean'), 'fecam': class_scores('fecam', 1.0), 'fecam-0.25': class_scores('fecam', 0.25)}
KEEP = {0, 17, 44, 89}
cases = []
for name, strategy, sc in [
    ('simplecil cosine', {'id': 'simplecil', 'options': {'metric': 'cosine'}}, 'cosine'),
    ('ncm', {'id': 'simplecil', 'options': {'metric': 'euclidean'}}, 'euclidean'),
    ('fecam', {'id': 'fecam', 'options': {'shrinkage': 1}}, 'fecam'),
    ('fecam 0.25', {'id': 'fecam', 'options': {'shrinkage': 0.25}}, 'fecam-0.25'),
]:
    cases.append({'name': name, 'strategy': strategy, 'seed': 0, 'taskSizes': [2, 2, 2], 'runs': ground_truth(lambda o, s=scores[sc]: run_scores(o, s, test_pos), [2, 2, 2], KEEP)})
cases.append({'name': 'simplecil cosine, sizes 3,1,2', 'strategy': {'id': 'simplecil', 'options': {'metric': 'cosine'}}, 'seed': 0, 'taskSizes': [3, 1, 2],
              'runs': ground_truth(lambda o: run_scores(o, scores['cosine'], test_pos), [3, 1, 2], {0, 30, 59})})
for M, lam_from, seed in [(24, 'task', 3), (24, 'seen', 3), (256, 'task', 1993), (0, 'task', 0)]:
    rp = Ranpac(M, seed, lam_from)
    cases.append({'name': f'ranpac M={M} {lam_from}', 'strategy': {'id': 'ranpac', 'options': {'projection': M, 'lambdaFrom': lam_from}}, 'seed': seed,
                  'taskSizes': [2, 2, 2], 'runs': ground_truth(rp.run, [2, 2, 2], KEEP)})

rp = Ranpac(24, 3, 'task')
selection = {'M': 24, 'seed': 3, 'members': [1, 4], 'errors': rp.errors([1, 4]).tolist(), 'fit': [rp.fit[p].tolist() for p in (1, 4)]}
tiny = synthetic(3, 4, 2, 1, 0.5, 9)

fixture = {
    '_note': ('made by `python3 scripts/make-ptm-fixtures.py` with numpy ' + np.__version__ + ': the methods run the plain way '
              '(numpy only; RanPAC with np.linalg.solve per λ as RanPAC.py, FeCAM as FeCAM_vit_cifar100.py with pinv), on '
              'tests/fixtures/ptm-features.npz; classes are label ids, positions index `classes`; fit/test row indices are '
              'rows of the npz'),
    'numpyVersion': np.__version__,
    'classes': CLASSES,
    'standardNormal': [{'seed': s, 'values': np.random.RandomState(s).standard_normal(9).tolist()} for s in (0, 1993, 4294967295)],
    'entropyPermutations': [{'words': w, 'n': n, 'perm': np.random.default_rng(w).permutation(n).tolist()} for w, n in (([0, 0], 10), ([3, 4], 30), ([1993, 7], 25), ([4294967295, 123], 12))],
    'synthetic': {'spec': {'classes': 3, 'dims': 4, 'trainPerClass': 2, 'testPerClass': 1, 'separation': 0.5, 'seed': 9},
                  'features': tiny[0].astype(np.float64).tolist(), 'labels': tiny[1].tolist(), 'split': tiny[2].tolist()},
    'scores': {k: v.tolist() for k, v in scores.items()},
    'ridgeSelection': selection,
    'cases': cases,
}
with open(os.path.join(HERE, 'ptm.json'), 'w') as f:
    json.dump(fixture, f, separators=(',', ':'))
    f.write('\n')
print('wrote ptm-features.npz and ptm.json:', ', '.join(f"{c['name']} ({len(c['runs'])} orderings)" for c in cases))
