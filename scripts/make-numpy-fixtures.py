#!/usr/bin/env python3
"""Reference draws from numpy for src/core/random (RandomState / MT19937 and default_rng / PCG64).

Run: python3 scripts/make-numpy-fixtures.py  (writes tests/fixtures/numpy-random.json)

Everything comes straight from numpy's public API, nothing re-implemented here:
- RandomState(seed): permutation(n), random_sample(), randint(low, high) (scalar calls, in order);
- default_rng(seed): SeedSequence(seed).generate_state(8) (uint32 words), PCG64(seed).state,
  bit_generator.random_raw(), permutation(n), random(), integers(low, high, endpoint=...).
The "ops" scripts interleave calls on ONE generator, to pin down state sharing (e.g. PCG64's
buffered 32-bit half-words between integers() and random()).
Doubles are written with Python's shortest round-trip repr, so JSON.parse gives the same double;
64-bit raw outputs and 128-bit states are decimal strings.
"""
import json, os, sys
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'fixtures', 'numpy-random.json')

FIXED_SEEDS = [0, 1, 42, 1993, 2**31 - 1, 2**32 - 1, 123456789]
# Ten more 32-bit seeds, drawn reproducibly (the recipe is recorded in _note).
EXTRA_SEEDS = [int(s) for s in np.random.default_rng(20240611).integers(0, 2**32, size=10, dtype=np.uint64)]
SEEDS = FIXED_SEEDS + EXTRA_SEEDS
NS = [0, 1, 2, 10, 100]
LONG_N = 1000
LONG_SEEDS = [0, 42, 1993]  # n = 1000 only for these, to keep the file small

RS_OPS = [
    ['permutation', 7], ['random_sample'], ['randint', 0, 10], ['randint', 5], ['randint', -3, 1000003],
    ['randint', 0, 2**40], ['randint', 0, 2**32], ['randint', 0, 2**32 + 1], ['randint', -2**52, 2**52],
    ['random_sample'], ['randint', 7, 8], ['permutation', 20], ['randint', 0, 3], ['random_sample'],
]
GEN_OPS = [
    ['permutation', 7], ['random'], ['integers', 0, 10], ['random'], ['integers', 0, 10],
    ['integers', 0, 10, True], ['integers', 5], ['integers', -3, 1000003], ['integers', 0, 2**40],
    ['integers', 0, 2**32], ['integers', 0, 2**32 + 1], ['integers', -2**52, 2**52], ['random_raw'],
    ['integers', 7, 8], ['integers', 7, 7, True], ['permutation', 20], ['integers', 0, 3], ['random'],
]


def rs_op(rs, op):
    name, *args = op
    if name == 'permutation':
        return [int(v) for v in rs.permutation(args[0])]
    if name == 'random_sample':
        return float(rs.random_sample())
    if name == 'randint':
        return int(rs.randint(*args))
    raise ValueError(name)


def gen_op(g, op):
    name, *args = op
    if name == 'permutation':
        return [int(v) for v in g.permutation(args[0])]
    if name == 'random':
        return float(g.random())
    if name == 'integers':
        if len(args) == 3:
            return int(g.integers(args[0], args[1], endpoint=args[2]))
        return int(g.integers(*args))
    if name == 'random_raw':
        return str(int(g.bit_generator.random_raw()))
    raise ValueError(name)


def main():
    rs_perm, gen_perm = [], []
    for seed in SEEDS:
        for n in NS + ([LONG_N] if seed in LONG_SEEDS else []):
            rs_perm.append({'seed': seed, 'n': n, 'perm': [int(v) for v in np.random.RandomState(seed).permutation(n)]})
            gen_perm.append({'seed': seed, 'n': n, 'perm': [int(v) for v in np.random.default_rng(seed).permutation(n)]})

    rs_sample = [{'seed': s, 'values': [float(v) for v in (lambda r: [r.random_sample() for _ in range(20)])(np.random.RandomState(s))]} for s in SEEDS]
    gen_random = [{'seed': s, 'values': [float(v) for v in (lambda g: [g.random() for _ in range(20)])(np.random.default_rng(s))]} for s in SEEDS]

    seed_seq = [{'seed': s, 'words': [int(v) for v in np.random.SeedSequence(s).generate_state(8)]} for s in SEEDS]
    pcg_state = []
    for s in SEEDS:
        st = np.random.PCG64(s).state['state']
        pcg_state.append({'seed': s, 'state': str(st['state']), 'inc': str(st['inc'])})
    raw = [{'seed': s, 'values': [str(int(v)) for v in np.random.PCG64(s).random_raw(5)]} for s in SEEDS]

    rs_ops, gen_ops = [], []
    for s in [0, 1993, 2**32 - 1] + EXTRA_SEEDS[:2]:
        rs = np.random.RandomState(s)
        rs_ops.append({'seed': s, 'steps': [{'op': op, 'result': rs_op(rs, op)} for op in RS_OPS]})
        g = np.random.default_rng(s)
        gen_ops.append({'seed': s, 'steps': [{'op': op, 'result': gen_op(g, op)} for op in GEN_OPS]})

    # MS protocol style: many successive orderings from one seeded generator.
    g = np.random.default_rng(0)
    ms = {'seed': 0, 'n': 10, 'count': 200, 'perms': [[int(v) for v in g.permutation(10)] for _ in range(200)]}
    rs = np.random.RandomState(0)
    rs_many = {'seed': 0, 'n': 10, 'count': 200, 'perms': [[int(v) for v in rs.permutation(10)] for _ in range(200)]}

    out = {
        '_note': (f'made by `python3 scripts/make-numpy-fixtures.py` with numpy {np.__version__}, '
                  f'python {sys.version.split()[0]}; values are numpy\'s own outputs of RandomState(seed) '
                  f'(permutation, random_sample, randint) and default_rng(seed) (SeedSequence.generate_state(8), '
                  f'PCG64.state, random_raw, permutation, random, integers); seeds = {FIXED_SEEDS} + 10 drawn by '
                  f'np.random.default_rng(20240611).integers(0, 2**32, size=10, dtype=np.uint64); '
                  f'n in {NS}, plus n={LONG_N} for seeds {LONG_SEEDS}'),
        'numpyVersion': np.__version__,
        'seeds': SEEDS,
        'randomState': {
            'permutations': rs_perm,
            'randomSample': rs_sample,
            'ops': rs_ops,
            'manyPermutations': rs_many,
        },
        'defaultRng': {
            'seedSequence': seed_seq,
            'pcg64State': pcg_state,
            'randomRaw': raw,
            'permutations': gen_perm,
            'random': gen_random,
            'ops': gen_ops,
            'manyPermutations': ms,
        },
    }
    with open(OUT, 'w') as f:
        json.dump(out, f, separators=(',', ':'))
        f.write('\n')
    print(f'wrote {os.path.normpath(OUT)} ({os.path.getsize(OUT)} bytes)')


if __name__ == '__main__':
    main()
