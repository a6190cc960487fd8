import { describe, expect, it } from 'vitest';
import { midRankPercentile, rankAmong, summariseValues, SUMMARY_BINS, TIE_TOLERANCE } from '../../../../src/core/stats/value-summary';

// Summaries read off one sorted typed array (docs/science.md §9 "The whole distribution"); numpy's answers on the
// 369 600-ordering fixtures are checked in tests/unit/core/ptm/accuracy-distribution.test.ts, these are the rules.
describe('summariseValues', () => {
  it('sorts in place and reports numpy’s min, max, mean, population sd and linear quantiles', () => {
    const v = Float64Array.from([4, 1, 3, 2, 5]);
    const s = summariseValues(v, 4);
    expect(Array.from(v)).toEqual([1, 2, 3, 4, 5]);
    expect(s).toMatchObject({ count: 5, min: 1, max: 5, mean: 3, sd: Math.sqrt(2) });
    // np.quantile([1..5], q): (n − 1)·q interpolated
    expect(s.quantiles['25']).toBe(2);
    expect(s.quantiles['10']).toBeCloseTo(1.4, 14);
    expect(s.quantiles['95']).toBeCloseTo(4.8, 14);
    // np.histogram([1..5], bins=4, range=(1, 5)): [1, 2), [2, 3), [3, 4), [4, 5]
    expect(s.histogram).toEqual({ edges: [1, 2, 3, 4, 5], counts: [1, 1, 1, 2] });
  });

  it('one value for all: a single bin [v, v] holding every value, sd 0', () => {
    const s = summariseValues(new Float64Array(7).fill(0.4));
    expect(s.histogram).toEqual({ edges: [0.4, 0.4], counts: [7] });
    expect(s.sd).toBeCloseTo(0, 15); // numpy's too: the pairwise mean of 0.4s is not exactly 0.4
    expect(s.quantiles['50']).toBe(0.4);
    expect(SUMMARY_BINS).toBe(40);
  });

  it('refuses no values and values that are not finite', () => {
    expect(() => summariseValues(new Float64Array(0))).toThrow(/at least one value/);
    expect(() => summariseValues(Float64Array.from([1, NaN]))).toThrow(/not a finite number/);
  });
});

describe('midRankPercentile: below plus half the ties, in percent', () => {
  const sorted = Float64Array.from([1, 2, 2, 2, 3]);
  it('counts ties half', () => {
    expect(rankAmong(sorted, 2)).toEqual({ below: 1, equal: 3 });
    expect(midRankPercentile(sorted, 2)).toBe(50); // (1 + 3/2) / 5
    expect(midRankPercentile(sorted, 1)).toBe(10); // the lowest of five: 50/n
    expect(midRankPercentile(sorted, 3)).toBe(90);
  });
  it('outside the values: 0 or 100; all tied: 50', () => {
    expect(midRankPercentile(sorted, 0.5)).toBe(0);
    expect(midRankPercentile(sorted, 9)).toBe(100);
    expect(midRankPercentile(Float64Array.from([7, 7, 7]), 7)).toBe(50);
  });
  it('values within the tie tolerance tie; further apart they do not', () => {
    expect(rankAmong(sorted, 2 + TIE_TOLERANCE / 2)).toEqual({ below: 1, equal: 3 });
    expect(rankAmong(sorted, 2 + 1e-9)).toEqual({ below: 4, equal: 0 });
  });
});
