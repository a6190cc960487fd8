#!/usr/bin/env python3
"""Fixtures for "Import your results": tests/fixtures/import/.

Writes
  fmnist6-runs.csv       Fashion-MNIST classes 0-5 in 3 tasks of 2: all 90 orderings x {finetune, ewc}, seed 0,
                         accuracies in percent (2 decimals, as PyCIL prints them), synthetic but plausible
                         (A = base + slope * z(S) + Gaussian noise, numpy default_rng(8)); the orders are written in
                         the accepted forms (flat indices, task lists, class names, shuffled inside tasks), some rows
                         carry R, and 7 malformed rows are mixed in (unknown class, wrong task sizes, a class twice,
                         missing classes, an accuracy that is not a number, one above 100 %, a repeated run).
  fmnist6-wordnet.json   the WordNet Wu-Palmer similarity of the 6 classes, from `npx cil-lab similarity --source
                         wordnet --dataset fashion-mnist --subset 0-5` (the lab's similarity; copied here so Pearson
                         can be checked without WordNet).
  expected.json          the statistics computed independently here with numpy/scipy: per method the truth's n, mean,
                         population std, min, max; the RS orderings (np.random.seed(s); permutation(6), s = 0, 42,
                         1993) and EDGE's (hard/easy by scripts/make-edge-fixtures.py's independent EDGE on the
                         matrix above, median = default_rng(0).permutation(6)) with their values, Gaussian (mean,
                         population std), JSD in bits and W1 in points exactly as docs/science.md section 2 defines them
                         (64 bins over [min - 3 sd, max + 3 sd], eps 1e-12; W1 over 4096 midpoints, inverted-cdf
                         quantiles); Pearson(S, A) with scipy.stats.pearsonr, S = paper Eq. 5; and which lines are
                         malformed.
  small-*.{json,jsonl,log}  tiny files of the other formats for the unit tests.

Usage: python3 scripts/make-import-fixtures.py
"""
import importlib.util
import itertools
import json
import os
import subprocess

import numpy as np
from scipy import stats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "import")
NAMES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal"]
SIZES = [2, 2, 2]
RS_SEEDS = [0, 42, 1993]
METHODS = {"finetune": (0.318, 0.012, 0.018), "ewc": (0.452, 0.02, 0.022)}  # base, slope per z(S), noise sd

spec = importlib.util.spec_from_file_location("edgefx", os.path.join(ROOT, "scripts", "make-edge-fixtures.py"))
edgefx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(edgefx)


def similarity():
    path = os.path.join(OUT, "fmnist6-wordnet.json")
    try:
        subprocess.run(["npx", "cil-lab", "similarity", "--source", "wordnet", "--dataset", "fashion-mnist", "--subset", "0-5",
                        "--out", path], cwd=ROOT, check=True, capture_output=True)
    except Exception as e:  # keep the committed copy
        print("note: could not run the CLI for the WordNet matrix, using the existing file:", e)
    with open(path) as f:
        data = json.load(f)
    assert data["classes"] == NAMES
    return np.array(data["matrix"], dtype=float)


def score(sim, tasks):
    k, n = len(tasks), sum(len(t) for t in tasks)
    return k / ((k - 1) * n) * sum(float(sim[np.ix_(tasks[i], tasks[i + 1])].sum()) for i in range(k - 1))


def key(tasks):
    return "|".join(",".join(str(c) for c in sorted(t)) for t in tasks)


def all_orderings():
    out = []
    for perm in itertools.permutations(range(6)):
        tasks = [sorted(perm[0:2]), sorted(perm[2:4]), sorted(perm[4:6])]
        if key(tasks) not in {key(o) for o in out}:
            out.append(tasks)
    assert len(out) == 90
    return out


def split(order):
    out, at = [], 0
    for m in SIZES:
        out.append(sorted(int(c) for c in order[at:at + m]))
        at += m
    return out


EPS = 1e-12
U = (np.arange(4096) + 0.5) / 4096


def jsd(truth, mu, sigma):
    truth = np.asarray(truth, dtype=float)
    s = float(np.std(truth))
    lo, hi = float(truth.min()) - 3 * s, float(truth.max()) + 3 * s
    counts, edges = np.histogram(truth, bins=64, range=(lo, hi))
    p = counts / counts.sum()
    q = np.diff(stats.norm.cdf(edges, mu, sigma)) if sigma > 0 else np.diff((edges >= mu).astype(float))
    p, q = p + EPS, q + EPS
    p, q = p / p.sum(), q / q.sum()
    m = 0.5 * (p + q)
    return float(0.5 * np.sum(p * np.log2(p / m)) + 0.5 * np.sum(q * np.log2(q / m)))


def w1(truth, mu, sigma):
    qt = np.quantile(np.asarray(truth, dtype=float), U, method="inverted_cdf")
    qe = stats.norm.ppf(U, mu, sigma) if sigma > 0 else np.full(U.shape, mu)
    return float(np.mean(np.abs(qt - qe)))


def estimate(truth, values):
    mu, sd = float(np.mean(values)), float(np.std(values))
    return {"values": [float(v) for v in values], "mean": mu, "std": sd, "jsd": jsd(truth, mu, sd), "w1": 100 * w1(truth, mu, sd)}


def matrix_for(final, rng):
    """A plausible R (percent) whose last row averages to `final` (equal task sizes)."""
    r = np.zeros((3, 3))
    r[0, 0] = rng.uniform(95, 99)
    r[1, 0], r[1, 1] = rng.uniform(20, 60), rng.uniform(90, 98)
    last = rng.uniform(0, 1, 3)
    last = last / last.sum() * final * 3
    r[2, :] = np.minimum(last, 99.0)
    r[2, 2] += final * 3 - r[2, :].sum()
    return np.round(r, 2)


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(8)
    sim = similarity()
    orderings = all_orderings()
    s = np.array([score(sim, o) for o in orderings])
    z = (s - s.mean()) / s.std()

    rows = []  # (method, order text, final %, aia %, matrix or None)
    values = {}
    aias = {}
    for method, (base, slope, noise) in METHODS.items():
        fin = np.round(100 * np.clip(base + slope * z + rng.normal(0, noise, len(z)), 0.05, 0.95), 2)
        aia = np.round(np.clip(fin + 100 * rng.uniform(0.25, 0.32, len(z)), 0, 99), 2)
        values[method] = {key(o): fin[i] / 100 for i, o in enumerate(orderings)}
        aias[method] = {key(o): aia[i] / 100 for i, o in enumerate(orderings)}
        for i, o in enumerate(orderings):
            inner = [list(rng.permutation(t)) for t in o]  # order inside a task does not matter
            style = i % 6
            if style == 1:
                text = " | ".join(" ".join(str(c) for c in t) for t in inner)
            elif style == 3:
                text = " | ".join(" ".join(NAMES[c] for c in t) for t in inner)
            elif style == 5:
                text = ",".join(str(c) for t in inner for c in t)
            else:
                text = " ".join(str(c) for t in inner for c in t)
            m = matrix_for(fin[i], rng).tolist() if i % 15 == 0 else None
            rows.append([method, text, f"{fin[i]:.2f}", f"{aia[i]:.2f}", m])
    order = rng.permutation(len(rows))
    rows = [rows[i] for i in order]

    bad = [
        ["ewc", "0 1 2 3 4 Llama", "50.00", "60.00", None, "unknown class"],
        ["finetune", "0 1 2 | 3 4 5", "30.00", "60.00", None, "wrong task sizes"],
        ["finetune", "0 0 1 2 3 4", "30.00", "60.00", None, "appears twice"],
        ["ewc", "0 1 2 3", "40.00", "60.00", None, "missing"],
        ["ewc", "5 4 3 2 1 0", "n/a", "60.00", None, "is not a number"],
        ["finetune", "4 5 0 1 2 3", "130.00", "60.00", None, "outside 0–100 %"],
    ]
    dup = list(rows[10])
    lines = ["method,order,final_accuracy,aia,seed,matrix"]
    malformed = []

    def emit(r, reason=None):
        order_cell = f'"{r[1]}"' if "," in r[1] else r[1]
        m = '"' + json.dumps(r[4]) + '"' if r[4] is not None else ""
        lines.append(f"{r[0]},{order_cell},{r[2]},{r[3]},0,{m}")
        if reason:
            malformed.append({"line": len(lines), "reason": reason})

    for i, r in enumerate(rows):
        emit(r)
        if i % 30 == 7 and bad:
            b = bad.pop(0)
            emit(b[:5], b[5])
        if i == 120:
            emit(dup, "the same ordering, method and seed as")
    with open(os.path.join(OUT, "fmnist6-runs.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")

    # the protocols' orderings, independently
    rs = []
    for seed in RS_SEEDS:
        np.random.seed(seed)
        rs.append({"label": f"RS seed {seed}", "key": key(split(np.random.permutation(6)))})
    e = edgefx.edge(sim, SIZES)
    median = split(np.random.default_rng(0).permutation(6))
    edge = [{"label": "EDGE hard", "key": key(e["hard"]["tasks"])}, {"label": "EDGE easy", "key": key(e["easy"]["tasks"])},
            {"label": "EDGE median (seed 0)", "key": key(median)}]

    expected = {"_note": (
        "Made by scripts/make-import-fixtures.py (numpy " + np.__version__ + ", scipy " + __import__("scipy").__version__ + "): "
        "statistics of fmnist6-runs.csv computed independently of the app with numpy/scipy - truth = the 90 orderings' "
        "final accuracies (percent / 100), std with ddof 0; RS = np.random.seed(s); np.random.permutation(6) for s in "
        "0, 42, 1993; EDGE hard/easy from scripts/make-edge-fixtures.py on fmnist6-wordnet.json, median = "
        "default_rng(0).permutation(6); Gaussian with population variance; JSD in bits on 64 bins over "
        "[min - 3 sd, max + 3 sd] with eps 1e-12; W1 in points over 4096 midpoints (inverted-cdf quantiles); "
        "Pearson(S, A) = scipy.stats.pearsonr with S from paper Eq. 5 on the WordNet matrix."),
        "classes": NAMES, "taskSizes": SIZES, "rs": rs, "edge": edge, "malformed": malformed,
        "rows": len(rows) + len(malformed), "imported": len(rows), "methods": {}}
    for variable, table in (("final", values), ("aia", aias)):
        for method in METHODS:
            v = table[method]
            truth = np.array([v[key(o)] for o in orderings])
            r = stats.pearsonr(s, truth)
            entry = {
                "truth": {"n": int(len(truth)), "mean": float(truth.mean()), "std": float(truth.std()), "min": float(truth.min()),
                          "max": float(truth.max())},
                "rs": estimate(truth, [v[d["key"]] for d in rs]),
                "edge": estimate(truth, [v[d["key"]] for d in edge]),
                "pearson": {"r": float(r.statistic), "p": float(r.pvalue)},
            }
            expected["methods"].setdefault(variable, {})[method] = entry
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)

    # tiny files of the other formats
    small = [{"method": "der", "order": [[0, 1], [2, 3], [4, 5]], "final_accuracy": 0.612, "aia": 0.75, "seed": 1993},
             {"method": "der", "order": "Dress Coat | Trouser Sandal | T-shirt/top Pullover", "final_accuracy": 0.587, "seed": 1993},
             {"method": "memo", "order": [5, 4, 3, 2, 1, 0], "final_accuracy": [0.97, 0.8, 0.655]},
             {"method": "memo", "order": [0, 1, 2], "final_accuracy": 0.5}]
    with open(os.path.join(OUT, "small-runs.json"), "w") as f:
        json.dump({"runs": small}, f, indent=1)
    with open(os.path.join(OUT, "small-runs.jsonl"), "w") as f:
        f.write('{"order": [3, 1, 0, 2, 5, 4], "acc": 71.2}\n{"order": [0, 1, 2, 3, 4, 5], "acc": 64.5, "seed": 1}\n'
                'not json\n{"order": [0, 1, 2, 3, 4, 9], "acc": 50}\n')
    np.random.seed(1993)
    o1993 = np.random.permutation(6).tolist()
    np.random.seed(0)
    o0 = np.random.permutation(6).tolist()
    log = []
    for seed, order, curve in ((1993, o1993, [97.35, 71.2, 55.17]), (0, o0, [96.5, 70.05, 58.33])):
        log += [f"2024-03-01 10:00:00,000 [trainer.py] => prefix: reproduce",
                f"2024-03-01 10:00:00,001 [trainer.py] => dataset: fmnist",
                f"2024-03-01 10:00:00,001 [trainer.py] => init_cls: 2",
                f"2024-03-01 10:00:00,001 [trainer.py] => increment: 2",
                f"2024-03-01 10:00:00,002 [trainer.py] => model_name: icarl",
                f"2024-03-01 10:00:00,002 [trainer.py] => seed: {seed}",
                f"2024-03-01 10:00:01,000 [data_manager.py] => {order}"]
        for t in range(3):
            log += [f"2024-03-01 10:0{t + 1}:00,000 [trainer.py] => All params: 11173962",
                    f"2024-03-01 10:0{t + 1}:30,000 [trainer.py] => CNN: {{'total': {curve[t]}, 'old': 0, 'new': {curve[t]}}}",
                    f"2024-03-01 10:0{t + 1}:30,001 [trainer.py] => CNN top1 curve: {curve[:t + 1]}",
                    f"2024-03-01 10:0{t + 1}:30,001 [trainer.py] => CNN top5 curve: {[100.0] * (t + 1)}",
                    f"2024-03-01 10:0{t + 1}:30,002 [trainer.py] => Average Accuracy (CNN): {np.mean(curve[:t + 1])}"]
    with open(os.path.join(OUT, "small-pycil.log"), "w") as f:
        f.write("\n".join(log) + "\n")
    print(f"wrote {OUT}: {len(rows)} runs + {len(malformed)} malformed rows")


if __name__ == "__main__":
    main()
