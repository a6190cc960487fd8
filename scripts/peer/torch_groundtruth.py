#!/usr/bin/env python3
"""The PyTorch peer of CIL Lab's ground truth: a plain script as a researcher writes it.

Trains one class-incremental run per ordering, one ordering after another, on the CPU, and prints one JSON object:
each run's final accuracy (sample-weighted, over the test images of every class of the run) and the distribution's
mean, sd (population, ddof = 0, as CIL Lab's histograms), min and max, with the wall-clock seconds and optimiser steps.

It reads the same prepared files the engine reads (public/data/<id>/, made by scripts/prepare-fashion-mnist.mjs:
meta.json + raw uint8 images and labels), and takes "the first N images of each class" in file order, as
`cil-lab run --train-per-class N --test-per-class M` does (src/engine/dataset.ts subsetPerClass). Pixels are
bytes / 255, images flattened; no normalisation, no augmentation.

Per ordering: torch.manual_seed(seed); the MLP is built (so with --init pytorch every ordering starts from the same
weights, as the engine's runs do); per task a fresh Adam (as PyCIL, and as the engine), `epochs` passes of a
DataLoader(shuffle=True, batch_size) over the task's training images, cross-entropy over the full head ('all') or
the classes seen so far ('seen'). Finetune: no memory, no regulariser.

Options that exist to find and check what makes two implementations' distributions differ (docs/science.md,
appendix "Initialisation and matching PyTorch"):
  --init pytorch      nn.Linear's own reset_parameters (the default; kaiming_uniform(a=√5) → U(±1/√fan_in) for the
                      weights, U(±1/√fan_in) for the biases)
  --init he-glorot    CIL Lab's default scheme: He-uniform U(±√(6/fan_in)) hidden, Glorot-uniform output, zero biases
  --label-map class-id   output unit = the class's index among the run's classes (sorted): the plain script's way
  --label-map order      output unit = position of the class in the ordering (PyCIL's and CIL Lab's way)
  --draws FILE           replay CIL Lab's own draws (scripts/peer/export-draws.ts): the initial weights, every
                         task's batch order and the label map are read from FILE instead of drawn by torch, so
                         both sides train the same runs step for step and their final accuracies pair up run by
                         run (what is left is float32 summation order); the orderings are FILE's, in its order

Usage: /usr/bin/python3 scripts/peer/torch_groundtruth.py [--data public/data/fashion-mnist] [--classes 0-5]
       [--tasks 3] [--train-per-class 300] [--test-per-class 100] [--epochs 3] [--batch-size 64] [--lr 1e-3]
       [--eps 1e-8] [--hidden 256,128] [--head all|seen] [--init pytorch|he-glorot] [--label-map class-id|order]
       [--seed 0] [--orderings all|N] [--threads N] [--runs-out FILE] [--draws FILE]
"""
import argparse
import itertools
import json
import math
import os
import sys
import time


def parse_range(s):
    out = []
    for part in s.split(','):
        part = part.strip()
        if not part:
            continue
        if '-' in part:
            a, b = part.split('-')
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def orderings_of(n_classes, tasks):
    """Every ordering of n classes into `tasks` equal tasks, in the engine's order (lexicographic label vectors,
    src/core/orderings/enumerate.ts): labels[c] = task of class position c."""
    size = n_classes // tasks
    base = [t for t in range(tasks) for _ in range(size)]
    labels = sorted(set(itertools.permutations(base)))
    return [[[c for c in range(n_classes) if lab[c] == t] for t in range(tasks)] for lab in labels]


def load_split(data_dir, meta, split, per_class, classes):
    import numpy as np

    m = meta[split]
    h, w, c = meta['shape']
    size = h * w * c
    images = np.fromfile(os.path.join(data_dir, m['images']), dtype=np.uint8).reshape(m['count'], size)
    labels = np.fromfile(os.path.join(data_dir, m['labels']), dtype=np.uint8).astype(np.int64)
    keep = []
    for k in classes:
        idx = np.nonzero(labels == k)[0]
        keep.append(idx[:per_class] if per_class else idx)
    keep = np.sort(np.concatenate(keep))
    return images[keep].astype(np.float32) / 255.0, labels[keep]


def load_draws(args, dims):
    """CIL Lab's draws (scripts/peer/draws.ts), checked against this run's options."""
    with open(args.draws) as f:
        draws = json.load(f)
    if draws.get('format') != 'cil-lab-draws/1':
        sys.exit(f'{args.draws}: not a CIL Lab draws file (format {draws.get("format")!r})')
    opt = draws['optimizer']
    want = {
        'train-per-class': (draws['trainPerClass'], args.train_per_class),
        'batch-size': (draws['batchSize'], args.batch_size),
        'epochs': (draws['epochs'], args.epochs),
        'lr': (opt['lr'], args.lr),
        'eps': (opt['epsilon'], args.eps),
        'head': (draws['head'], args.head),
        'layers': ([[l['in'], l['out']] for l in draws['layers']], [[dims[i], dims[i + 1]] for i in range(len(dims) - 1)]),
    }
    bad = [f'--{k} {mine} (the draws have {theirs})' for k, (theirs, mine) in want.items() if theirs != mine]
    if opt['kind'] != 'adam' or opt['beta1'] != 0.9 or opt['beta2'] != 0.999:
        bad.append(f'the optimiser {opt} (this script trains Adam with betas 0.9, 0.999)')
    if bad:
        sys.exit(f'{args.draws} was written for other settings: ' + '; '.join(bad))
    draws['weights'] = initial_weights(draws['layers'])
    return draws


def example_rows(ytr, per_class):
    """Row of the training subset for each example code class * per_class + rank (draws.ts exampleCodes)."""
    import numpy as np

    rows = np.full(int(ytr.max() + 1) * per_class, -1, dtype=np.int64)
    rank = {}
    for i, c in enumerate(ytr.tolist()):
        r = rank.get(c, 0)
        rank[c] = r + 1
        rows[c * per_class + r] = i
    return rows


def initial_weights(layers):
    """The engine's initial weights, decoded once: per layer (weight [out, in], bias) as torch tensors. The file
    holds the kernel [in, out] row-major (nn.Linear.weight is its transpose) and the bias, float32 in base64."""
    import base64

    import numpy as np
    import torch

    out = []
    for l in layers:
        w = np.frombuffer(base64.b64decode(l['weight']), dtype='<f4').reshape(l['in'], l['out'])
        b = np.frombuffer(base64.b64decode(l['bias']), dtype='<f4')
        out.append((torch.from_numpy(w.T.copy()), torch.from_numpy(b.copy())))
    return out


def set_weights(model, weights):
    """Copy `initial_weights` into the model's nn.Linear layers, in order."""
    import torch
    from torch import nn

    linears = [m for m in model if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for lin, (w, b) in zip(linears, weights):
            lin.weight.copy_(w)
            lin.bias.copy_(b)


def summary(values):
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    return {'n': n, 'mean': mean, 'sd': sd, 'min': min(values), 'max': max(values)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--data', default=os.path.join(here, '..', '..', 'public', 'data', 'fashion-mnist'))
    ap.add_argument('--classes', default='0-5')
    ap.add_argument('--tasks', type=int, default=3)
    ap.add_argument('--train-per-class', type=int, default=300)
    ap.add_argument('--test-per-class', type=int, default=100)
    ap.add_argument('--epochs', type=int, default=3)
    ap.add_argument('--batch-size', type=int, default=64)
    ap.add_argument('--lr', type=float, default=1e-3)
    ap.add_argument('--eps', type=float, default=1e-8)
    ap.add_argument('--hidden', default='256,128')
    ap.add_argument('--head', choices=['all', 'seen'], default='all')
    ap.add_argument('--init', choices=['pytorch', 'he-glorot'], default='pytorch')
    ap.add_argument('--label-map', choices=['class-id', 'order'], default='class-id')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--orderings', default='all', help='"all", or N: the first N orderings (a quick run)')
    ap.add_argument('--threads', type=int, default=0, help='torch.set_num_threads (0: torch\'s default)')
    ap.add_argument('--runs-out', default=None, help='also write the per-run results to this file')
    ap.add_argument('--draws', default=None, help="replay CIL Lab's draws from this file (scripts/peer/export-draws.ts)")
    args = ap.parse_args()

    import numpy as np
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset

    if args.threads > 0:
        torch.set_num_threads(args.threads)
    with open(os.path.join(args.data, 'meta.json')) as f:
        meta = json.load(f)
    classes = parse_range(args.classes)
    n = len(classes)
    if n % args.tasks != 0:
        sys.exit(f'{n} classes do not split into {args.tasks} equal tasks')
    xtr, ytr = load_split(args.data, meta, 'train', args.train_per_class, classes)
    xte, yte = load_split(args.data, meta, 'test', args.test_per_class, classes)
    xtr_t, xte_t = torch.from_numpy(xtr), torch.from_numpy(xte)
    hidden = [int(s) for s in args.hidden.split(',') if s.strip()]
    dims = [xtr.shape[1]] + hidden + [n]

    def build():
        layers = []
        for i in range(len(dims) - 1):
            lin = nn.Linear(dims[i], dims[i + 1])
            if args.init == 'he-glorot':
                fan_in, fan_out = dims[i], dims[i + 1]
                last = i == len(dims) - 2
                limit = math.sqrt(6 / (fan_in + fan_out)) if last else math.sqrt(6 / fan_in)
                with torch.no_grad():
                    lin.weight.uniform_(-limit, limit)
                    lin.bias.zero_()
            layers.append(lin)
            if i < len(dims) - 2:
                layers.append(nn.ReLU())
        return nn.Sequential(*layers)

    draws = load_draws(args, dims) if args.draws else None
    if draws:
        # positions of the classes in `classes`, as orderings_of gives them
        pos = {c: i for i, c in enumerate(classes)}
        orderings = [[[pos[c] for c in task] for task in o['tasks']] for o in draws['orderings']]
        row_of_code = example_rows(ytr, args.train_per_class)
    else:
        orderings = orderings_of(n, args.tasks)
    if args.orderings != 'all':
        orderings = orderings[: int(args.orderings)]
    runs = []
    steps = 0
    t0 = time.perf_counter()
    for oi, positions in enumerate(orderings):
        tasks = [[classes[p] for p in task] for task in positions]
        order = [c for task in tasks for c in task]
        if draws:
            unit = {int(c): u for c, u in draws['orderings'][oi]['units'].items()}
        elif args.label_map == 'order':
            unit = {c: u for u, c in enumerate(order)}
        else:
            unit = {c: u for u, c in enumerate(sorted(classes))}
        ytr_u = torch.tensor([unit[int(c)] for c in ytr], dtype=torch.long)
        yte_u = torch.tensor([unit[int(c)] for c in yte], dtype=torch.long)
        r0 = time.perf_counter()
        torch.manual_seed(args.seed)
        model = build()
        if draws:
            set_weights(model, draws['weights'])
        loss_fn = nn.CrossEntropyLoss()
        seen_units = []
        for ti, task in enumerate(tasks):
            seen_units += [unit[c] for c in task]
            if draws:
                # the engine's batches: each epoch's examples in its order, cut into batches of batch_size
                epochs_rows = [torch.from_numpy(row_of_code[np.asarray(codes)]) for codes in draws['orderings'][oi]['epochs'][ti]]
                batches = lambda e: ((xtr_t[r], ytr_u[r]) for r in torch.split(epochs_rows[e], args.batch_size))
                n_epochs = len(epochs_rows)
            else:
                mask = torch.from_numpy(np.isin(ytr, task))
                loader = DataLoader(TensorDataset(xtr_t[mask], ytr_u[mask]), batch_size=args.batch_size, shuffle=True)
                batches = lambda e: loader
                n_epochs = args.epochs
            opt = torch.optim.Adam(model.parameters(), lr=args.lr, eps=args.eps)
            cols = torch.tensor(sorted(seen_units))
            model.train()
            for e in range(n_epochs):
                for xb, yb in batches(e):
                    opt.zero_grad()
                    logits = model(xb)
                    if args.head == 'seen':
                        # the growing head: logits of the seen units only; labels re-indexed into that slice
                        logits = logits[:, cols]
                        yb = torch.searchsorted(cols, yb)
                    loss = loss_fn(logits, yb)
                    loss.backward()
                    opt.step()
                    steps += 1
        model.eval()
        with torch.no_grad():
            logits = model(xte_t)
            if args.head == 'seen':
                pred = torch.tensor(sorted(seen_units))[logits[:, sorted(seen_units)].argmax(1)]
            else:
                pred = logits.argmax(1)
            acc = float((pred == yte_u).float().mean())
        runs.append({'tasks': tasks, 'final_accuracy': acc, 'seconds': time.perf_counter() - r0})
    seconds = time.perf_counter() - t0
    finals = [r['final_accuracy'] for r in runs]
    s = summary(finals)
    out = {
        'peer': 'pytorch',
        'torch': torch.__version__,
        'threads': torch.get_num_threads(),
        'options': {k: getattr(args, k) for k in ['classes', 'tasks', 'train_per_class', 'test_per_class', 'epochs', 'batch_size', 'lr', 'eps', 'hidden', 'head', 'init', 'label_map', 'seed', 'draws']},
        'orderings': len(runs),
        'seconds': seconds,
        'firstResultSeconds': runs[0]['seconds'] if runs else None,
        'steps': steps,
        'stepsPerSecond': steps / seconds if seconds > 0 else None,
        'finalMean': s['mean'],
        'finalSd': s['sd'],
        'finalMin': s['min'],
        'finalMax': s['max'],
        'runs': [{'tasks': r['tasks'], 'final_accuracy': r['final_accuracy']} for r in runs],
    }
    if args.runs_out:
        with open(args.runs_out, 'w') as f:
            json.dump(out['runs'], f)
    print(json.dumps(out))


if __name__ == '__main__':
    main()
