import { describe, expect, it } from 'vitest';
import { shapiroWilk } from '../../../../src/core/stats/shapiro';
import { expectClose, fixture } from './fixture';

describe('Shapiro–Wilk against scipy.stats.shapiro', () => {
  for (const s of fixture.samples) {
    if (!s.raw.shapiro) continue;
    it(`${s.name}${s.after?.shapiro ? ' (and after Box-Cox)' : ''}`, () => {
      const r = shapiroWilk(s.values);
      expect(r.n).toBe(s.values.length);
      expectClose(r.statistic, s.raw.shapiro.statistic, 1e-9, 1e-12, 'W');
      expectClose(r.pvalue, s.raw.shapiro.pvalue, 1e-6, 1e-12, 'p');
      if (s.after?.shapiro && s.boxcox.transformed) {
        const a = shapiroWilk(s.boxcox.transformed);
        expectClose(a.statistic, s.after.shapiro.statistic, 1e-9, 1e-12, 'W after');
        expectClose(a.pvalue, s.after.shapiro.pvalue, 1e-6, 1e-12, 'p after');
      }
    });
  }
});

describe('Shapiro–Wilk edge cases', () => {
  it('n = 3 uses the exact p-value and clamps W at 0.75', () => {
    const r = shapiroWilk([1, 2, 3]);
    expect(r.statistic).toBeCloseTo(1, 12);
    expect(r.pvalue).toBeCloseTo(1, 6);
  });
  it('needs at least 3 finite values', () => {
    expect(() => shapiroWilk([1, 2])).toThrow(/Shapiro–Wilk test needs at least 3 values; got 2/);
    expect(() => shapiroWilk([1, 2, NaN])).toThrow(/value 2 is NaN/);
  });
  it('constant data: W = 1, p = 1 with a warning, as scipy', () => {
    const r = shapiroWilk([0.5, 0.5, 0.5, 0.5]);
    expect(r.statistic).toBe(1);
    expect(r.pvalue).toBe(1);
    expect(r.warning).toMatch(/range zero/);
  });
  it('is invariant to shift and scale', () => {
    const x = fixture.samples.find((s: any) => s.name === 'lognormal n=20').values as number[];
    const a = shapiroWilk(x);
    const b = shapiroWilk(x.map((v) => 100 * v + 7));
    expect(b.statistic).toBeCloseTo(a.statistic, 10);
    expect(b.pvalue).toBeCloseTo(a.pvalue, 8);
  });
});
