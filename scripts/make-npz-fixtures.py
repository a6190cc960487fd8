#!/usr/bin/env python3
"""Feature-set .npz fixtures for tests/unit/data/features-npz.test.ts, written by numpy itself.

  python3 scripts/make-npz-fixtures.py

- tiny.npz: np.savez of features float32 (5, 3), labels int64, split uint8, class_names <U (with a non-ASCII name);
- tiny-compressed.npz: the same with np.savez_compressed, features float64, labels int32, no split;
- tiny.json: the arrays as numpy holds them (features as float32 values widened to float64 by .tolist()), the
  reference the TypeScript reader is checked against; and `written`, what np.load reads back from
  tiny-roundtrip.npz when the test writes one (checked by the test through python3 when it is present).
"""
import json
import os
import numpy as np

here = os.path.join(os.path.dirname(__file__), '..', 'tests', 'fixtures', 'features')
os.makedirs(here, exist_ok=True)
rng = np.random.default_rng(7)
X = rng.normal(size=(5, 3)).astype(np.float32)
y = np.array([0, 1, 2, 1, 0], dtype=np.int64)
s = np.array([0, 0, 0, 1, 1], dtype=np.uint8)
names = np.array(['T-shirt/top', 'Trouser', 'Café ☕'], dtype=str)
np.savez(os.path.join(here, 'tiny.npz'), features=X, labels=y, split=s, class_names=names)
np.savez_compressed(os.path.join(here, 'tiny-compressed.npz'), features=X.astype(np.float64), labels=y.astype(np.int32))
with open(os.path.join(here, 'tiny.json'), 'w') as f:
    json.dump({
        '_note': 'Made by scripts/make-npz-fixtures.py with numpy ' + np.__version__ + ' (default_rng(7).normal, float32).',
        'features': X.astype(np.float64).tolist(),
        'labels': y.tolist(),
        'split': s.tolist(),
        'class_names': names.tolist(),
    }, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote tiny.npz, tiny-compressed.npz, tiny.json')
