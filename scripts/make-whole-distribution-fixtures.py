#!/usr/bin/env python3
"""Reference values for the whole distribution of a pre-trained method's accuracy over every ordering
(src/core/ptm/accuracy-distribution.ts, src/core/stats/value-summary.ts; docs/science.md §9 "The whole
distribution"), computed with numpy and scipy alone, nothing shared with the TypeScript it checks.

  python3 scripts/make-whole-distribution-fixtures.py

Writes
- tests/fixtures/ptm12-features.npz: 12 Gaussian class clusters in 10 dimensions, 16 training and 6 test rows per
  class (np.savez: features float32, labels int64, split uint8, class_names), rows shuffled;
- tests/fixtures/import/ptm12-pilot.log: a PILOT-style log of SimpleCIL on these features (seeds 1993 and 0, their RS
  orders, the accuracy curve in % to 2 decimals), for the import and `cil-lab analyze --results`;
- tests/fixtures/whole-distribution.json: for several methods, every ordering of the 12 classes in 4 tasks of 3
  (369 600) — and SimpleCIL also in tasks of 6, 2, 2, 2 (83 160) — enumerated with itertools (each task a
  combination of the classes left), with
    * the accuracy after each step = correct test rows of the classes seen / their test rows, where a test row is
      right when the argmax of its class scores over the classes seen is its class (the first maximum: ties go to
      the smaller position). SimpleCIL/NCM/FeCAM score each class on its own (FeCAM with np.linalg.pinv); RanPAC
      (RanPAC.py without first-session adaptation) solves (G + λI) W = Q with np.linalg.solve over every training
      row seen and picks λ on the last task's rows (80/20 split per class by default_rng([seed, label])). The
      script checks this set rule against a plain step-by-step run (R, then the sample-weighted AIA and final
      accuracy of docs/science.md §2) on 200 orderings before it writes anything;
    * AIA = (a_1 + … + a_K) / K summed in step order, final = a_K, for every ordering;
    * their min, max, np.mean, np.std (population), np.quantile (method 'linear') at 1, 5, 10, 25, 50, 75, 90, 95,
      99 %, np.histogram with 40 bins over [min, max] (one bin [v, v] holding all when every value is v);
    * the extremes: the lowest and highest AIA (and final), ties within 1e-12 broken by the smallest label vector
      (labels[c] = the task of class c: the rank order of src/core/orderings/enumerate.ts), with how many tie;
    * placed orders (flat class orders cut into the tasks: RS seed 0, 42, 1993 = np.random.seed(s);
      np.random.permutation(12), and two written ones): their AIA, final accuracy and percentile by the mid-rank
      convention, 100 · (#{v < x − 1e-12} + #{x − 1e-12 ≤ v ≤ x + 1e-12} / 2) / n;
    * the JSD (bits) of the RS orders' Gaussian (population sd) against the AIA truth, docs/science.md §2's recipe
      (64 bins over [min − 3σ, max + 3σ], scipy.stats.norm.cdf, ε = 1e-12, log2).
"""
import itertools
import json
import os

import numpy as np
from scipy.stats import norm

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'fixtures')
GRID = 10.0 ** np.arange(-8, 9)
FIT_SHARE = 0.8
RIDGE_TIE = 1e-9
TIE = 1e-12
QUANTILES = [1, 5, 10, 25, 50, 75, 90, 95, 99]
BINS = 40
C = 12

# ---- the feature set ----
rs = np.random.RandomState(12)
centres = 0.55 * rs.standard_normal((C, 10))
rows, labels, split = [], [], []
for part, per in ((0, 16), (1, 6)):
    for c in range(C):
        for _ in range(per):
            rows.append(centres[c] + rs.standard_normal(10))
            labels.append(c)
            split.append(part)
X32 = np.array(rows).astype(np.float32)
Y = np.array(labels, dtype=np.int64)
S = np.array(split, dtype=np.uint8)
perm = np.random.RandomState(7).permutation(len(Y))
X32, Y, S = X32[perm], Y[perm], S[perm]
NAMES = np.array([f'class {c}' for c in range(C)])
np.savez(os.path.join(HERE, 'ptm12-features.npz'), features=X32, labels=Y, split=S, class_names=NAMES)
X = X32.astype(np.float64)


def rows_of(part, label):
    return np.flatnonzero((S == part) & (Y == label))  # file order


TEST = [rows_of(1, c) for c in range(C)]
TEST_COUNT = [len(t) for t in TEST]
TEST_ALL = np.concatenate(TEST)
TEST_POS = np.concatenate([[p] * len(t) for p, t in enumerate(TEST)])


def normalize(a):
    return a / np.maximum(np.linalg.norm(a, axis=-1, keepdims=True), 1e-12)


def class_scores(kind, shrinkage=1.0):
    xt = X[TEST_ALL]
    out = np.zeros((len(TEST_ALL), C))
    for p in range(C):
        tr = X[rows_of(0, p)]
        if kind == 'cosine':
            mu = tr.mean(0)
            out[:, p] = (xt @ mu) / (np.maximum(np.linalg.norm(xt, axis=1), 1e-12) * max(np.linalg.norm(mu), 1e-12))
        elif kind == 'euclidean':
            mu = normalize(tr).mean(0)
            out[:, p] = -np.sum((normalize(xt) - mu) ** 2, axis=1)
        else:
            z = normalize(tr)
            mu = z.mean(0)
            cov = np.cov(z.T)
            cov = cov + shrinkage * np.mean(np.diagonal(cov)) * np.eye(cov.shape[0])
            sd = np.sqrt(np.diagonal(cov))
            cov = cov / np.outer(sd, sd)
            diff = normalize(xt) - mu
            out[:, p] = -np.einsum('ij,jk,ik->i', diff, np.linalg.pinv(cov), diff)
    return out


class ScoreMethod:
    """Per-class scores: the state after a step is the seen set."""

    def __init__(self, scores):
        self.scores = scores

    def correct(self, seen, task):
        seen = sorted(seen)
        rows = np.flatnonzero(np.isin(TEST_POS, seen))
        pred = np.array(seen)[np.argmax(self.scores[np.ix_(rows, seen)], axis=1)]
        out = np.zeros(C, dtype=int)
        for i, r in enumerate(rows):
            if pred[i] == TEST_POS[r]:
                out[TEST_POS[r]] += 1
        return out


def ridge_choice(errors):
    errors = np.where(np.isfinite(errors), errors, np.inf)
    m = errors.min()
    return int(np.flatnonzero(errors <= m + abs(m) * RIDGE_TIE)[0])


class Ranpac:
    """RanPAC.py's classifier over the classes seen, λ from the last task's rows."""

    def __init__(self, M, seed):
        self.W = np.random.RandomState(seed).standard_normal((X.shape[1], M))
        self.train = [rows_of(0, c) for c in range(C)]
        self.fit, self.val = [], []
        for c in range(C):
            n = len(self.train[c])
            pr = np.random.default_rng([seed, c]).permutation(n)
            k = int(n * FIT_SHARE)
            self.fit.append(self.train[c][pr[:k]])
            self.val.append(self.train[c][pr[k:]])
        self.lambdas = {}

    def h(self, r):
        return np.maximum(X[r] @ self.W, 0)

    def lam(self, task):
        key = tuple(sorted(task))
        if key not in self.lambdas:
            sel = list(key)
            hf = np.concatenate([self.h(self.fit[p]) for p in sel])
            yf = np.concatenate([np.eye(len(sel))[[j] * len(self.fit[p])] for j, p in enumerate(sel)])
            hv = np.concatenate([self.h(self.val[p]) for p in sel])
            yv = np.concatenate([np.eye(len(sel))[[j] * len(self.val[p])] for j, p in enumerate(sel)])
            G, Q = hf.T @ hf, hf.T @ yf
            errs = [float(np.sum((hv @ np.linalg.solve(G + lam * np.eye(G.shape[0]), Q) - yv) ** 2)) for lam in GRID]
            self.lambdas[key] = ridge_choice(np.array(errs))
        return self.lambdas[key]

    def correct(self, seen, task):
        seen = sorted(seen)
        hs = [self.h(self.train[p]) for p in seen]
        G = sum(hp.T @ hp for hp in hs)
        Q = np.stack([hp.sum(0) for hp in hs], axis=1)
        Wo = np.linalg.solve(G + GRID[self.lam(task)] * np.eye(G.shape[0]), Q)
        out = np.zeros(C, dtype=int)
        for p in seen:
            pred = np.argmax(self.h(TEST[p]) @ Wo, axis=1)
            out[p] = int(np.sum(np.array(seen)[pred] == p))
        return out

    def state(self, seen, task):
        return (frozenset(seen), self.lam(task))


def step_table(method, by_task):
    memo = {}

    def acc(seen, task):
        key = (frozenset(seen), method.lam(task)) if by_task else frozenset(seen)
        if key not in memo:
            counts = method.correct(seen, task)
            memo[key] = int(sum(counts[p] for p in seen)) / int(sum(TEST_COUNT[p] for p in seen))
        return memo[key]

    return acc, memo


def all_orderings(sizes):
    def rec(left, t):
        if t == len(sizes):
            yield []
            return
        for task in itertools.combinations(left, sizes[t]):
            rest = [c for c in left if c not in task]
            for tail in rec(rest, t + 1):
                yield [list(task)] + tail

    yield from rec(list(range(C)), 0)


def values_of(order, acc):
    seen, s, a = [], 0.0, 0.0
    for task in order:
        seen = seen + task
        a = acc(seen, task)
        s += a
    return s / len(order), a


def plain_run(order, method):
    """R step by step, then the sample-weighted AIA and final accuracy of docs/science.md §2."""
    K = len(order)
    R = np.zeros((K, K))
    seen = []
    for t, task in enumerate(order):
        seen = seen + task
        counts = method.correct(seen, task)
        for j in range(t + 1):
            R[t, j] = sum(counts[p] for p in order[j]) / sum(TEST_COUNT[p] for p in order[j])
    n = np.array([sum(TEST_COUNT[p] for p in task) for task in order], dtype=float)
    final = float(R[-1] @ n / n.sum())
    aia = float(np.mean([R[i, : i + 1] @ n[: i + 1] / n[: i + 1].sum() for i in range(K)]))
    return aia, final


def label_code(order):
    """The label vector's lexicographic rank as one integer (base K digits, class 0 first)."""
    lab = [0] * C
    for t, task in enumerate(order):
        for c in task:
            lab[c] = t
    code = 0
    for c in range(C):
        code = code * len(order) + lab[c]
    return code


def summary(v):
    lo, hi = float(v.min()), float(v.max())
    if hi > lo:
        counts, edges = np.histogram(v, bins=BINS, range=(lo, hi))
    else:
        counts, edges = np.array([len(v)]), np.array([lo, hi])
    return {
        'count': int(len(v)),
        'min': lo,
        'max': hi,
        'mean': float(np.mean(v)),
        'sd': float(np.std(v)),
        'quantiles': {str(q): float(np.quantile(v, q / 100)) for q in QUANTILES},
        'histogram': {'edges': edges.tolist(), 'counts': counts.astype(int).tolist()},
    }


def mid_rank(v, x):
    below = int(np.sum(v < x - TIE))
    equal = int(np.sum(v <= x + TIE)) - below
    return 100 * (below + equal / 2) / len(v), below, equal


def extreme(vals, other, codes, orders_of, lowest):
    target = vals.min() if lowest else vals.max()
    # the running-extreme rule of the TypeScript (first in rank order unless beaten by more than TIE) gives, on
    # values whose distinct levels are far apart, the lowest rank among those within TIE of the extreme
    near = np.flatnonzero(np.abs(vals - target) <= TIE)
    k = near[np.argmin(codes[near])]
    return {'tasks': orders_of(k), 'aia': None, 'final': None, 'ties': int(np.sum(np.abs(vals - target) <= TIE)), '_k': int(k)}


def jsd_bits(truth, mu, sigma):
    s = np.std(truth)
    lo, hi = truth.min() - 3 * s, truth.max() + 3 * s
    counts, edges = np.histogram(truth, bins=64, range=(lo, hi))
    p = counts / counts.sum()
    q = np.diff(norm.cdf(edges, mu, sigma)) if sigma > 0 else np.diff((edges >= mu).astype(float))
    p, q = p + 1e-12, q + 1e-12
    p, q = p / p.sum(), q / q.sum()
    m = (p + q) / 2
    return float(0.5 * np.sum(p * np.log2(p / m)) + 0.5 * np.sum(q * np.log2(q / m)))


def cut(flat, sizes):
    out, at = [], 0
    for m in sizes:
        out.append(sorted(int(c) for c in flat[at : at + m]))
        at += m
    return out


RS_SEEDS = [0, 42, 1993]
RS_ORDERS = []
for s in RS_SEEDS:
    np.random.seed(s)
    RS_ORDERS.append(np.random.permutation(C).tolist())
WRITTEN = [[3, 1, 0, 2, 5, 4, 6, 7, 8, 9, 10, 11], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]


def case(name, strategy, seed, sizes, method, by_task):
    acc, memo = step_table(method, by_task)
    check = np.random.default_rng(5)
    orders = list(all_orderings(sizes))
    for k in check.choice(len(orders), 200, replace=False):
        a, f = values_of(orders[k], acc)
        pa, pf = plain_run(orders[k], method)
        assert abs(a - pa) < 1e-12 and abs(f - pf) < 1e-12, (name, orders[k], a, pa, f, pf)
    aia = np.empty(len(orders))
    fin = np.empty(len(orders))
    codes = np.empty(len(orders), dtype=np.int64)
    for k, o in enumerate(orders):
        aia[k], fin[k] = values_of(o, acc)
        codes[k] = label_code(o)

    def ext(vals, lowest):
        e = extreme(vals, None, codes, lambda k: orders[k], lowest)
        k = e.pop('_k')
        e['aia'], e['final'] = float(aia[k]), float(fin[k])
        return e

    places = []
    for label, flat in [*[(f'RS seed {s}', o) for s, o in zip(RS_SEEDS, RS_ORDERS)], *[(f'written {i}', o) for i, o in enumerate(WRITTEN)]]:
        tasks = cut(flat, sizes)
        a, f = values_of(tasks, acc)
        pct, below, equal = mid_rank(aia, a)
        places.append({'label': label, 'order': flat, 'tasks': tasks, 'aia': a, 'final': f, 'percentile': pct, 'below': below, 'equal': equal,
                       'finalPercentile': mid_rank(fin, f)[0]})
    rs_aia = np.array([p['aia'] for p in places[:3]])
    rs_fin = np.array([p['final'] for p in places[:3]])
    out = {
        'name': name,
        'strategy': strategy,
        'seed': seed,
        'taskSizes': sizes,
        'orderings': len(orders),
        'states': len(memo),
        'aia': summary(aia),
        'final': summary(fin),
        'extremes': {'aia': {'worst': ext(aia, True), 'best': ext(aia, False)}, 'final': {'worst': ext(fin, True), 'best': ext(fin, False)}},
        'places': places,
        'rs': {'aiaMean': float(rs_aia.mean()), 'aiaSd': float(rs_aia.std()), 'aiaJsd': jsd_bits(aia, rs_aia.mean(), rs_aia.std()),
               'finalJsd': jsd_bits(fin, rs_fin.mean(), rs_fin.std()) if np.std(fin) > 1e-9 else None},
    }
    print(f"{name}: {len(orders)} orderings, {len(memo)} states, AIA {aia.min():.4f}–{aia.max():.4f}, final {fin.min():.4f}–{fin.max():.4f}")
    return out


SIZES = [3, 3, 3, 3]
cases = [
    case('simplecil cosine', {'id': 'simplecil', 'options': {'metric': 'cosine'}}, 0, SIZES, ScoreMethod(class_scores('cosine')), False),
    case('ncm', {'id': 'simplecil', 'options': {'metric': 'euclidean'}}, 0, SIZES, ScoreMethod(class_scores('euclidean')), False),
    case('fecam', {'id': 'fecam', 'options': {'shrinkage': 1}}, 0, SIZES, ScoreMethod(class_scores('fecam', 1.0)), False),
    case('ranpac M=48 task', {'id': 'ranpac', 'options': {'projection': 48, 'lambdaFrom': 'task'}}, 3, SIZES, Ranpac(48, 3), True),
    case('simplecil cosine, sizes 6,2,2,2', {'id': 'simplecil', 'options': {'metric': 'cosine'}}, 0, [6, 2, 2, 2], ScoreMethod(class_scores('cosine')), False),
]

# ---- a PILOT-style log of SimpleCIL on these features, two runs (seeds 1993 and 0, RS orders), 3 classes per task:
# the class order as data_manager.py logs it and the "CNN top1 curve" after each task (accuracy on the classes seen,
# in %, np.around(…, 2) as PILOT prints it), for `cil-lab analyze --results` and the lab's Import tab
acc, _ = step_table(ScoreMethod(class_scores('cosine')), False)
lines = []
for seed, flat in ((1993, RS_ORDERS[2]), (0, RS_ORDERS[0])):
    lines += ['2025-01-01 10:00:00,000 [trainer.py] => prefix: reproduce', '2025-01-01 10:00:00,001 [trainer.py] => dataset: ptm12',
              '2025-01-01 10:00:00,001 [trainer.py] => init_cls: 3', '2025-01-01 10:00:00,001 [trainer.py] => increment: 3',
              '2025-01-01 10:00:00,002 [trainer.py] => model_name: simplecil', f'2025-01-01 10:00:00,002 [trainer.py] => seed: {seed}',
              f'2025-01-01 10:00:01,000 [data_manager.py] => {flat}']
    curve, seen = [], []
    for task in cut(flat, SIZES):
        seen = seen + task
        curve.append(float(np.around(100 * acc(seen, task), 2)))
        lines.append(f'2025-01-01 10:01:00,000 [trainer.py] => CNN top1 curve: {curve}')
    lines.append(f'2025-01-01 10:01:00,001 [trainer.py] => Average Accuracy (CNN): {float(np.mean(curve))}')
with open(os.path.join(HERE, 'import', 'ptm12-pilot.log'), 'w') as f:
    f.write('\n'.join(lines) + '\n')

fixture = {
    '_note': ('made by `python3 scripts/make-whole-distribution-fixtures.py` with numpy ' + np.__version__ + ': every ordering of '
              'tests/fixtures/ptm12-features.npz\'s 12 classes enumerated with itertools, the accuracy after each step from the '
              'set of classes seen (checked against a plain step-by-step run on 200 orderings), summaries with np.mean, np.std, '
              'np.quantile (linear), np.histogram (40 bins over [min, max]); tasks over class positions (= label ids here); '
              'percentiles mid-rank with ties within 1e-12'),
    'numpyVersion': np.__version__,
    'tie': TIE,
    'rsSeeds': RS_SEEDS,
    'cases': cases,
}
with open(os.path.join(HERE, 'whole-distribution.json'), 'w') as f:
    json.dump(fixture, f, separators=(',', ':'))
    f.write('\n')
print('wrote ptm12-features.npz and whole-distribution.json')
