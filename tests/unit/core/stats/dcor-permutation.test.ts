import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distanceCorrelation } from '../../../../src/core/conformal/dcor';
import { dcorPermutationTest, linearTrend, meanSd, pooledDcorPermutationTest, trendMatchedDcorTest } from '../../../../src/core/stats/dcor-permutation';

// tests/fixtures/forgetting-dcor.json: made by scripts/make-forgetting-fixtures.py (numpy, independent code)
const fx = JSON.parse(readFileSync(new URL('../../../fixtures/forgetting-dcor.json', import.meta.url), 'utf8'));

describe('dCor permutation test against the numpy reference', () => {
  for (const c of fx.exact) {
    it(`exact, ${c.name} (n = ${c.x.length})`, () => {
      const r = dcorPermutationTest(c.x, c.y);
      expect(r.exact).toBe(true);
      expect(r.permutations).toBe(c.permutations);
      expect(r.dcor).toBeCloseTo(c.dcor, 12);
      expect(r.p).toBeCloseTo(c.p, 12);
      expect(r.nullMean).toBeCloseTo(c.nullMean, 10);
      expect(r.n).toBe(c.x.length);
    });
  }
  it('Monte Carlo on one series (n = 12) draws the same permutations as numpy default_rng', () => {
    const c = fx.mcSingle;
    const r = dcorPermutationTest(c.x, c.y, { resamples: c.resamples, seed: c.seed });
    expect(r.exact).toBe(false);
    expect(r.dcor).toBeCloseTo(c.dcor, 12);
    expect(r.p).toBeCloseTo(c.p, 12);
    expect(r.nullMean).toBeCloseTo(c.nullMean, 10);
  });
  it('pooled over three seeds: the mean dCor and its Monte Carlo p', () => {
    const c = fx.mcPooled;
    const r = pooledDcorPermutationTest(c.pairs, { resamples: c.resamples, seed: c.seed });
    expect(r.dcor).toBeCloseTo(c.dcor, 12);
    expect(r.p).toBeCloseTo(c.p, 12);
    expect(r.nullMean).toBeCloseTo(c.nullMean, 10);
    expect(r.permutations).toBe(c.resamples);
  });
  it('mean ± sd (ddof = 1) as numpy', () => {
    const r = meanSd(fx.meanSd.values);
    expect(r.mean).toBeCloseTo(fx.meanSd.mean, 14);
    expect(r.sd).toBeCloseTo(fx.meanSd.sd, 14);
    expect(r.n).toBe(5);
  });
});

describe('the trend-matched null against the numpy reference', () => {
  for (const c of fx.trend.exact) {
    it(`exact, ${c.name} (n = ${c.x.length})`, () => {
      const r = trendMatchedDcorTest([{ x: c.x, y: c.y }]);
      expect(r.exact).toBe(true);
      expect(r.permutations).toBe(c.permutations);
      expect(r.dcor).toBeCloseTo(c.dcor, 12);
      expect(r.p).toBeCloseTo(c.p, 12);
      expect(r.nullMean).toBeCloseTo(c.nullMean, 10);
    });
  }
  it('pooled over the measured digits seeds: the mean dCor and its Monte Carlo p (numpy default_rng draws)', () => {
    const c = fx.trend.pooled;
    const r = trendMatchedDcorTest(c.pairs, { resamples: c.resamples, seed: c.seed });
    expect(r.exact).toBe(false);
    expect(r.dcor).toBeCloseTo(c.dcor, 12);
    expect(r.p).toBeCloseTo(c.p, 12);
    expect(r.nullMean).toBeCloseTo(c.nullMean, 10);
  });
  it('a straight line has no deviations to shuffle (p = 1); the trend is a least-squares line', () => {
    expect(trendMatchedDcorTest([{ x: [1, 2, 3, 4, 5], y: [5, 3, 4, 1, 2] }]).p).toBe(1);
    const { fit, residuals } = linearTrend([1, 3, 2, 5]);
    expect(residuals.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
    expect(fit[1] - fit[0]).toBeCloseTo(1.1, 12);
    expect(() => trendMatchedDcorTest([{ x: [1, 2], y: [2, 1] }])).toThrow(/at least 3 points/);
  });
});

describe('dCor permutation test, properties', () => {
  it('reports the dCor of conformal/dcor.ts (the number in the tables)', () => {
    const x = [3, 1, 4, 1, 5, 9];
    const y = [2, 7, 1, 8, 2, 8];
    expect(dcorPermutationTest(x, y).dcor).toBe(distanceCorrelation(x, y));
  });
  it('with n = 5 the smallest exact p is 1/120 and the null mean is far above 0', () => {
    const r = dcorPermutationTest([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]);
    // the identity and the reversal both give dCor 1: p = 2/120
    expect(r.p).toBeCloseTo(2 / 120, 12);
    expect(r.nullMean).toBeGreaterThan(0.5);
  });
  it('one pair given to the pooled test is the exact single test', () => {
    const x = [0.2, 0.5, 0.1, 0.9, 0.4];
    const y = [5, 3, 6, 1, 4];
    expect(pooledDcorPermutationTest([{ x, y }])).toEqual(dcorPermutationTest(x, y));
  });
  it('same seed, same p; another seed, (generally) another draw', () => {
    const pairs = fx.mcPooled.pairs;
    const a = pooledDcorPermutationTest(pairs, { resamples: 200, seed: 1 });
    expect(pooledDcorPermutationTest(pairs, { resamples: 200, seed: 1 })).toEqual(a);
    expect(pooledDcorPermutationTest(pairs, { resamples: 200, seed: 2 }).nullMean).not.toBe(a.nullMean);
  });
  it('rejects series of different lengths, fewer than 2 points and bad resamples', () => {
    expect(() => dcorPermutationTest([1, 2, 3], [1, 2])).toThrow(/differ in length/);
    expect(() => dcorPermutationTest([1], [1])).toThrow(/at least 2 points/);
    expect(() =>
      dcorPermutationTest(
        Array.from({ length: 10 }, (_, i) => i),
        Array.from({ length: 10 }, (_, i) => i * i),
        { resamples: 0 },
      ),
    ).toThrow(/resamples/);
    expect(() => pooledDcorPermutationTest([])).toThrow(/at least one series/);
  });
  it('mean ± sd: sd is NaN for one value; non-finite values are left out', () => {
    expect(meanSd([0.4])).toEqual({ mean: 0.4, sd: NaN, n: 1 });
    expect(meanSd([1, NaN, 3])).toEqual({ mean: 2, sd: Math.SQRT2, n: 2 });
  });
});
