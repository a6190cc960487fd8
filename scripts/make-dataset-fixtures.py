#!/usr/bin/env python3
"""Reference values for the built-in datasets, computed independently of the JavaScript prep scripts.

Reads the same unpacked Debian source files that scripts/prepare-fashion-mnist.mjs and scripts/prepare-digits.mjs
read (node_modules/.cache/cil-lab/unpacked/<package>/..., made by `node scripts/prepare-data.mjs`; falls back to
the installed system paths), with Python's gzip and numpy only, and writes tests/fixtures/datasets.json.
tests/unit/data/builtin-datasets.test.ts checks the prepared public/data/ files against it.

Fashion-MNIST: the IDX files parsed here with numpy (big-endian header), bytes as they are.
Digits: digits.csv.gz parsed with numpy; pixels scaled (v*255 + 8) // 16; split re-done with numpy's own
np.random.RandomState(1993): for each class c = 0..9, idx = rows with label c in file order,
test = the first round(0.2*len(idx)) of idx[rs.permutation(len(idx))]; both splits keep file order.

Run: python3 scripts/make-dataset-fixtures.py   (after node scripts/prepare-data.mjs has unpacked the .debs)
"""
import gzip
import hashlib
import json
import os
import sys

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
UNPACKED = os.path.join(ROOT, 'node_modules', '.cache', 'cil-lab', 'unpacked')
OUT = os.path.join(ROOT, 'tests', 'fixtures', 'datasets.json')

FASHION_REL = 'usr/share/datasets/fashion-mnist'
DIGITS_REL = 'usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz'
DIGITS_SEED = 1993
DIGITS_TEST_FRACTION = 0.2


def find(pkg, rel):
    for base in (os.path.join(UNPACKED, pkg), '/'):
        p = os.path.join(base, rel)
        if os.path.exists(p):
            return p
    sys.exit(f'{rel} not found under {UNPACKED}/{pkg} or /: run "node scripts/prepare-data.mjs" first')


def read_idx(path):
    with gzip.open(path, 'rb') as f:
        b = f.read()
    magic = int.from_bytes(b[0:4], 'big')
    assert magic >> 8 == 0x08, f'{path}: bad magic {magic:#x}'
    nd = magic & 0xFF
    dims = [int.from_bytes(b[4 + 4 * i: 8 + 4 * i], 'big') for i in range(nd)]
    data = np.frombuffer(b, dtype=np.uint8, offset=4 + 4 * nd)
    assert data.size == int(np.prod(dims)), path
    return data.reshape(dims)


def sha256(a):
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.uint8).tobytes()).hexdigest()


def split_summary(images, labels, n_classes, probe):
    """images: N x ... uint8; probe: a few image indices to report pixel sums / pixels for."""
    n = images.shape[0]
    flat = images.reshape(n, -1).astype(np.int64)
    pos = np.arange(1, flat.shape[1] + 1, dtype=np.int64)
    per_class = np.bincount(labels, minlength=n_classes)
    return {
        'count': int(n),
        'perClass': [int(x) for x in per_class],
        'imagesSha256': sha256(images),
        'labelsSha256': sha256(labels),
        'pixelSum': int(flat.sum()),
        # position-weighted sum: sum over images and pixels of value * (1 + pixel index); catches transposes
        'weightedPixelSum': int((flat * pos).sum()),
        'perClassPixelSum': [int(flat[labels == c].sum()) for c in range(n_classes)],
        'probes': [
            {'index': int(i), 'label': int(labels[i]), 'pixelSum': int(flat[i].sum()), 'firstNonZero': int(np.flatnonzero(flat[i])[0]),
             'maxPixel': int(flat[i].max())}
            for i in probe if i < n
        ],
    }


def fashion():
    d = find('dataset-fashion-mnist', FASHION_REL)
    out = {}
    for split, (img, lbl) in {
        'train': ('train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz'),
        'test': ('t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'),
    }.items():
        images = read_idx(os.path.join(d, img))
        labels = read_idx(os.path.join(d, lbl))
        assert images.shape[1:] == (28, 28) and labels.shape[0] == images.shape[0]
        n = images.shape[0]
        out[split] = split_summary(images, labels, 10, [0, 1, 2, 12345 % n, n - 1])
        # a few single pixels (image, row, col) -> value
        out[split]['pixels'] = [[int(i), r, c, int(images[i, r, c])] for i, r, c in [(0, 14, 14), (1, 10, 5), (n - 1, 20, 12), (777, 3, 27)]]
    return out


def digits():
    p = find('python3-sklearn', DIGITS_REL)
    with gzip.open(p, 'rt') as f:
        raw = np.loadtxt(f, delimiter=',', dtype=np.int64)
    assert raw.shape == (1797, 65), raw.shape
    pixels = raw[:, :64]
    labels = raw[:, 64].astype(np.uint8)
    scaled = ((pixels * 255 + 8) // 16).astype(np.uint8)
    rs = np.random.RandomState(DIGITS_SEED)
    is_test = np.zeros(len(labels), dtype=bool)
    for c in range(10):
        idx = np.flatnonzero(labels == c)
        perm = rs.permutation(len(idx))
        n_test = int(round(DIGITS_TEST_FRACTION * len(idx)))
        is_test[idx[perm[:n_test]]] = True
    out = {
        'total': {
            'count': int(len(labels)),
            'perClass': [int(x) for x in np.bincount(labels, minlength=10)],
            # order-independent: the union of train and test must give these back
            'pixelSum': int(scaled.astype(np.int64).sum()),
            'perClassPixelSum': [int(scaled[labels == c].astype(np.int64).sum()) for c in range(10)],
            'row0': {'label': int(labels[0]), 'raw': [int(v) for v in pixels[0]], 'scaled': [int(v) for v in scaled[0]]},
        },
        'seed': DIGITS_SEED,
        'testFraction': DIGITS_TEST_FRACTION,
    }
    for split, mask in (('train', ~is_test), ('test', is_test)):
        imgs = scaled[mask].reshape(-1, 8, 8)
        n = imgs.shape[0]
        out[split] = split_summary(imgs, labels[mask], 10, [0, 1, n // 2, n - 1])
        out[split]['sourceRows'] = [int(i) for i in np.flatnonzero(mask)[:5]]
    return out


def main():
    data = {
        '_note': (
            'Made by scripts/make-dataset-fixtures.py with Python gzip + numpy ' + np.__version__ + ' from the unpacked '
            'Debian packages dataset-fashion-mnist and python3-sklearn (the same source files the JS prep reads), '
            'independently of the JS code. Digits: pixels (v*255+8)//16, split by np.random.RandomState(1993) per class '
            '(first round(0.2*n_c) of each class permutation are test). weightedPixelSum = sum of value*(1+pixel index). '
            'Regenerate: python3 scripts/make-dataset-fixtures.py'
        ),
        'fashion-mnist': fashion(),
        'digits': digits(),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, 'w') as f:
        json.dump(data, f, indent=1)
        f.write('\n')
    print(f'wrote {os.path.relpath(OUT, ROOT)}')


if __name__ == '__main__':
    main()
