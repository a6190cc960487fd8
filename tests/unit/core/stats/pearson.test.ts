import { describe, expect, it } from 'vitest';
import { correlation, pearson } from '../../../../src/core/stats/pearson';
import { expectClose, fixture } from './fixture';

describe('pearson against scipy.stats.pearsonr', () => {
  for (const c of fixture.pearson) {
    it(`n = ${c.x.length}, r ≈ ${c.r === null ? 'NaN' : c.r.toFixed(3)}`, () => {
      const r = pearson(c.x, c.y);
      expect(r.n).toBe(c.x.length);
      expectClose(r.statistic, c.r, 1e-12, 1e-14, 'r');
      expectClose(r.pvalue, c.p, 1e-9, 1e-300, 'p');
    });
  }
});

describe('pearson edge cases', () => {
  it('n = 2 gives ±1 and p = 1, as scipy', () => {
    expect(pearson([1, 2], [3, 1])).toEqual({ statistic: -1, pvalue: 1, n: 2 });
  });
  it('a constant side gives NaN', () => {
    const r = pearson([1, 2, 3], [4, 4, 4]);
    expect(r.statistic).toBeNaN();
    expect(r.pvalue).toBeNaN();
  });
  it('perfect correlation: r = 1, p = 0', () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toEqual({ statistic: 1, pvalue: 0, n: 4 });
  });
  it('rejects unequal lengths, fewer than 2 pairs, non-finite values', () => {
    expect(() => pearson([1, 2], [1])).toThrow(/they must pair up/);
    expect(() => pearson([1], [1])).toThrow(/at least 2 pairs/);
    expect(() => pearson([1, NaN, 3], [1, 2, 3])).toThrow(/x\[1\] is NaN/);
  });
  it('correlation alone is NaN when undefined', () => {
    expect(correlation([1], [2])).toBeNaN();
    expect(correlation([1, 1], [2, 3])).toBeNaN();
  });
});
