/**
 * The backbone probe's nearest class mean (src/engine/features/probe.ts) on a feature set small enough to work out by
 * hand: the class means of the L2-normalised training rows, cosine, argmax.
 */
import { describe, expect, it } from 'vitest';
import { checkFeatureSet } from '../../../../src/core/features/feature-set';
import { nearestMeanAccuracy } from '../../../../src/engine/features/probe';

describe('nearestMeanAccuracy', () => {
  it('goes to the class whose mean normalised training row has the highest cosine', () => {
    // class 0 trains on (1, 0) and (10, 1): normalised means point near +x; class 1 on (0, 1) and (0, 5): +y.
    // test rows: (3, 1) → class 0 (right), (1, 3) → class 1 (right), (2, 1.9) labelled 1 → nearer +x (wrong).
    const set = checkFeatureSet({
      features: Float32Array.from([1, 0, 10, 1, 0, 1, 0, 5, 3, 1, 1, 3, 2, 1.9]),
      n: 7,
      d: 2,
      labels: Int32Array.from([0, 0, 1, 1, 0, 1, 1]),
      split: Uint8Array.from([0, 0, 0, 0, 1, 1, 1]),
      classNames: ['a', 'b'],
    });
    // mean of (1,0) and (10,1)/|(10,1)| = (0.99751, 0.04975); class 1's mean is (0, 1); (2, 1.9): cosines 0.758 vs 0.689
    expect(nearestMeanAccuracy(set, [0, 1])).toBeCloseTo(2 / 3, 12);
    // only class 1 asked: every test row of class 1 goes to it
    expect(nearestMeanAccuracy(set, [1])).toBe(1);
  });
});
