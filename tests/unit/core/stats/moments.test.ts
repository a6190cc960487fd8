import { describe, expect, it } from 'vitest';
import { max, mean, min, moments, populationStd, populationVariance, sampleStd, sampleVariance, std, variance } from '../../../../src/core/stats/moments';
import { expectClose, fixture } from './fixture';

describe('moments against numpy', () => {
  for (const s of fixture.samples) {
    it(s.name, () => {
      const m = moments(s.values);
      const e = s.moments;
      expect(m.n).toBe(e.n);
      expectClose(m.mean, e.mean, 1e-13, 1e-15, 'mean');
      expectClose(m.variance, e.variance, 1e-9, 1e-300, 'variance');
      expectClose(m.std, e.std, 1e-9, 1e-300, 'std');
      expectClose(m.sampleVariance, e.sampleVariance, 1e-9, 1e-300, 'sampleVariance');
      expectClose(m.sampleStd, e.sampleStd, 1e-9, 1e-300, 'sampleStd');
      expect(m.min).toBe(e.min);
      expect(m.max).toBe(e.max);
      expectClose(mean(s.values), e.mean, 1e-13, 1e-15);
      expectClose(populationVariance(s.values), e.variance, 1e-9, 1e-300);
      expectClose(sampleStd(s.values), e.sampleStd, 1e-9, 1e-300);
      expect(min(s.values)).toBe(e.min);
      expect(max(s.values)).toBe(e.max);
    });
  }
});

describe('moments by hand', () => {
  it('population divides by n, sample by n − 1', () => {
    const x = [2, 4, 4, 4, 5, 5, 7, 9];
    expect(mean(x)).toBe(5);
    expect(populationVariance(x)).toBe(4);
    expect(populationStd(x)).toBe(2);
    expect(sampleVariance(x)).toBeCloseTo(32 / 7, 14);
    expect(variance(x, 1)).toBe(sampleVariance(x));
    expect(std(x)).toBe(2);
  });
  it('empty and single inputs give NaN where undefined', () => {
    expect(mean([])).toBeNaN();
    expect(variance([])).toBeNaN();
    expect(min([])).toBeNaN();
    expect(max([])).toBeNaN();
    expect(populationVariance([3])).toBe(0);
    expect(sampleVariance([3])).toBeNaN();
    expect(moments([3]).sampleStd).toBeNaN();
  });
  it('works on Float64Array and stays accurate far from zero (two-pass)', () => {
    const x = Float64Array.from([1e9 + 1, 1e9 + 2, 1e9 + 3]);
    expect(populationVariance(x)).toBeCloseTo(2 / 3, 9);
    expect(max(x)).toBe(1e9 + 3);
  });
  it('min/max propagate NaN', () => {
    expect(min([1, NaN, 0])).toBeNaN();
    expect(max([1, NaN, 0])).toBeNaN();
  });
});
