import { describe, expect, it } from 'vitest';
import { relabelToClassList, type FeatureSet } from '../../../../src/core/features/feature-set';
import { featureSetKey, featureSetOf, FeaturesNotReadyError, pickFeatureRows, type FeatureSourceContext } from '../../../../src/engine/features/source-set';

/** 3 classes; train rows 0..5 (two per class, interleaved), test rows 6..8; feature value = row index. */
function wholeSet(): FeatureSet {
  const labels = Int32Array.from([0, 1, 2, 0, 1, 2, 0, 1, 2]);
  const split = Uint8Array.from([0, 0, 0, 0, 0, 0, 1, 1, 1]);
  const d = 2;
  const features = new Float32Array(9 * d).map((_, i) => Math.floor(i / d));
  return { features, n: 9, d, labels, split, classNames: ['a', 'b', 'c'] };
}

const ctx: FeatureSourceContext = {
  builtin: () => Promise.reject(new Error('no images needed')),
  derived: (_slot, _key, make) => make(),
};

describe('features cached by the page, sent with the job', () => {
  it("picks the experiment's classes, the first n of each per split, in the order the built-in images are picked", () => {
    const got = pickFeatureRows(wholeSet(), { classes: [2, 0], trainPerClass: 1, testPerClass: null });
    // class 2's first training row (2), class 0's (0), then the test rows of class 2 (8) and 0 (6)
    expect(Array.from(got.features.filter((_, i) => i % 2 === 0))).toEqual([2, 0, 8, 6]);
    expect(Array.from(got.labels)).toEqual([2, 0, 2, 0]);
    expect(Array.from(got.split)).toEqual([0, 0, 1, 1]);
    expect(got.classNames).toEqual(['a', 'b', 'c']);
  });

  it('refuses a class the set has no rows of, naming it', () => {
    const set = wholeSet();
    const noTest = { ...set, split: Uint8Array.from([0, 0, 0, 0, 0, 0, 1, 1, 0]) };
    expect(() => pickFeatureRows(noTest, { classes: [2], trainPerClass: null, testPerClass: null })).toThrow(FeaturesNotReadyError);
    expect(() => pickFeatureRows(noTest, { classes: [2], trainPerClass: null, testPerClass: null })).toThrow(/no test rows of class 2 \(c\)/);
  });

  it('the worker keeps the set under its cache key, not its numbers; featureSetOf serves it without images', async () => {
    const set = wholeSet();
    const rows = { classes: [0, 1], trainPerClass: null, testPerClass: null };
    const key = featureSetKey('fashion-mnist', { source: 'cached', key: 'enc:abc', set }, rows);
    expect(key).toBe(JSON.stringify(['fashion-mnist', { source: 'cached', key: 'enc:abc' }, [0, 1], null, null]));
    const got = await featureSetOf(ctx, 'fashion-mnist', { source: 'cached', key: 'enc:abc', set }, rows);
    expect(got.n).toBe(6);
    await expect(featureSetOf(ctx, 'fashion-mnist', { source: 'encoder', model: 'm', revision: 'main', precision: 'q8' }, rows)).rejects.toThrow(
      /extract the features in the Data tab first/,
    );
  });
});

describe("an upload's own classes relabelled to the experiment's class list by name", () => {
  it("maps each row to its name's index, leaves out classes not in the list, and the picked rows follow", () => {
    // the upload's classes a, b, c are classes 4, -, 1 of a list of five
    const got = relabelToClassList(wholeSet(), ['v', 'c', 'w', 'x', 'a']);
    expect(got.classNames).toEqual(['v', 'c', 'w', 'x', 'a']);
    expect(got.n).toBe(6);
    expect(Array.from(got.labels)).toEqual([4, 1, 4, 1, 4, 1]);
    expect(Array.from(got.split)).toEqual([0, 0, 0, 0, 1, 1]);
    // feature value = the original row index: rows 0, 2, 3, 5, 6, 8 kept
    expect(Array.from(got.features.filter((_, i) => i % 2 === 0))).toEqual([0, 2, 3, 5, 6, 8]);
    const picked = pickFeatureRows(got, { classes: [1, 4], trainPerClass: 1, testPerClass: null });
    expect(Array.from(picked.features.filter((_, i) => i % 2 === 0))).toEqual([2, 0, 8, 6]);
  });

  it('returns the set itself when its classes are the list already', () => {
    const set = wholeSet();
    expect(relabelToClassList(set, ['a', 'b', 'c'])).toBe(set);
  });
});
