/**
 * The test split held out of a feature file saved without one (src/core/features/test-split.ts), against numpy: the
 * expected split below was printed by
 *
 *   rng = np.random.default_rng(0); labels = [i % 3 for i in range(23)]; split = np.zeros(23, int)
 *   for c in range(4):  # four named classes, the last without rows
 *       idx = [i for i in range(23) if labels[i] == c]; perm = rng.permutation(len(idx))
 *       for k in range(round(0.2 * len(idx))): split[idx[perm[k]]] = 1
 */
import { describe, expect, it } from 'vitest';
import { classesWithRows, withTestSplit } from '../../../../src/core/features/test-split';
import type { FeatureSet } from '../../../../src/core/features/feature-set';

const NUMPY_SPLIT = [0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0];

function set(split: number[]): FeatureSet {
  const n = split.length;
  return {
    features: new Float32Array(n * 2),
    n,
    d: 2,
    labels: Int32Array.from({ length: n }, (_, i) => i % 3),
    split: Uint8Array.from(split),
    classNames: ['a', 'b', 'c', 'd'],
  };
}

describe('withTestSplit', () => {
  it('holds out 20 % of each class as numpy default_rng(0) draws it, when no row is test', () => {
    const r = withTestSplit(set(new Array(23).fill(0)));
    expect(r.heldOut).toBe(true);
    expect(Array.from(r.set.split)).toEqual(NUMPY_SPLIT);
  });
  it('keeps a file’s own split', () => {
    const own = set(NUMPY_SPLIT.map((x) => 1 - x));
    expect(withTestSplit(own)).toEqual({ set: own, heldOut: false });
  });
});

describe('classesWithRows', () => {
  it('lists the classes a set has rows of, not every name it gives', () => {
    expect(classesWithRows(set(NUMPY_SPLIT))).toEqual([0, 1, 2]);
  });
});
