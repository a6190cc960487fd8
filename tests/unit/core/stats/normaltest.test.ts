import { describe, expect, it } from 'vitest';
import { NORMALTEST_MIN_N, dagostinoPearson, kurtosisTest, sampleKurtosis, sampleSkewness, skewTest } from '../../../../src/core/stats/normaltest';
import { expectClose, fixture } from './fixture';

function check(r: ReturnType<typeof dagostinoPearson>, e: any, what: string): void {
  expectClose(r.statistic, e.statistic, 1e-9, 1e-12, `${what} K²`);
  expectClose(r.pvalue, e.pvalue, 1e-6, 1e-12, `${what} p`);
  expectClose(r.skew.statistic, e.skew.statistic, 1e-9, 1e-12, `${what} Z skew`);
  expectClose(r.skew.pvalue, e.skew.pvalue, 1e-6, 1e-12, `${what} p skew`);
  expectClose(r.kurtosis.statistic, e.kurtosis.statistic, 1e-9, 1e-12, `${what} Z kurtosis`);
  expectClose(r.kurtosis.pvalue, e.kurtosis.pvalue, 1e-6, 1e-12, `${what} p kurtosis`);
}

describe("D'Agostino–Pearson K² against scipy.stats.normaltest / skewtest / kurtosistest", () => {
  for (const s of fixture.samples) {
    if (!s.raw.normaltest) continue;
    it(s.name, () => {
      check(dagostinoPearson(s.values), s.raw.normaltest, 'raw');
      if (s.after?.normaltest && s.boxcox.transformed) check(dagostinoPearson(s.boxcox.transformed), s.after.normaltest, 'after Box-Cox');
    });
  }
});

describe('normaltest edge cases', () => {
  it('needs n ≥ 8 and names the test', () => {
    expect(NORMALTEST_MIN_N).toBe(8);
    expect(() => dagostinoPearson([1, 2, 3, 4, 5, 6, 7])).toThrow(/D'Agostino–Pearson K² test \(normaltest\) needs at least 8 values; got 7/);
    expect(() => skewTest([1, 2, 3])).toThrow(/needs at least 8 values/);
    expect(() => kurtosisTest([1, 2, 3, 4])).toThrow(/needs at least 5 values/);
  });
  it('scipy docstring examples', () => {
    const r = skewTest([1, 2, 3, 4, 5, 6, 7, 8]);
    expectClose(r.statistic, 1.0108048609177787, 1e-12);
    expectClose(r.pvalue, 0.3121098361421897, 1e-12);
    expectClose(skewTest([2, 8, 0, 4, 1, 9, 9, 0]).statistic, 0.44626385374196975, 1e-12);
    expectClose(skewTest([1, 2, 3, 4, 5, 6, 7, 8000]).pvalue, 0.0003545719905823133, 1e-9);
    expectClose(sampleSkewness([2, 8, 0, 4, 1, 9, 9, 0]), 0.2650554122698573, 1e-12);
  });
  it('warns below n = 20 (kurtosis test), not above', () => {
    const x = fixture.samples.find((s: any) => s.name === 'normal n=10').values;
    expect(dagostinoPearson(x).warning).toMatch(/n ≥ 20/);
    const y = fixture.samples.find((s: any) => s.name === 'normal n=90').values;
    expect(dagostinoPearson(y).warning).toBeUndefined();
  });
  it('constant data give NaN, as scipy', () => {
    const r = dagostinoPearson(new Array(10).fill(0.5));
    expect(r.statistic).toBeNaN();
    expect(r.pvalue).toBeNaN();
    expect(sampleKurtosis([3, 3, 3, 3, 3])).toBeNaN();
  });
});
