import { describe, expect, it } from 'vitest';
import { spearman, spearmanRho } from '../../../../src/core/stats/spearman';
import { expectClose, fixture } from './fixture';

describe('spearman against scipy.stats.spearmanr (average ranks for ties)', () => {
  for (const c of fixture.spearman) {
    it(`n = ${c.x.length}, ρ ≈ ${c.rho === null ? 'NaN' : c.rho.toFixed(3)}`, () => {
      const r = spearman(c.x, c.y);
      expectClose(r.statistic, c.rho, 1e-12, 1e-14, 'ρ');
      expectClose(r.pvalue, c.p, 1e-9, 1e-300, 'p');
      expectClose(spearmanRho(c.x, c.y), c.rho, 1e-12, 1e-14, 'ρ alone');
    });
  }
});

describe('spearman edge cases', () => {
  it('monotone → 1, reversed → −1, constant or too short → NaN', () => {
    expect(spearmanRho([1, 2, 3, 4], [1, 4, 9, 16])).toBe(1);
    expect(spearmanRho([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(spearmanRho([1, 2, 3], [5, 5, 5])).toBeNaN();
    expect(spearmanRho([1], [2])).toBeNaN();
    expect(spearman([1, 2], [2, 1]).pvalue).toBeNaN(); // zero degrees of freedom, as scipy
  });
  it('rejects unequal lengths and non-finite values', () => {
    expect(() => spearman([1, 2], [1])).toThrow(/they must pair up/);
    expect(() => spearman([1, 2, 3], [1, Infinity, 3])).toThrow(/y\[1\] is Infinity/);
  });
});
