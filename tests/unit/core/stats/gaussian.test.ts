import { describe, expect, it } from 'vitest';
import { fitGaussian, normalCdf, normalPdf, normalQuantile, normalSf } from '../../../../src/core/stats/gaussian';
import { expectClose, fixture } from './fixture';

describe('fitGaussian', () => {
  it('uses the population std (divide by n), as the paper', () => {
    const g = fitGaussian([0.7, 0.8, 0.9]);
    expectClose(g.mean, 0.8, 1e-15);
    expectClose(g.std, Math.sqrt(0.02 / 3), 1e-14);
  });
  it('matches numpy mean and std on every fixture sample', () => {
    for (const s of fixture.samples) {
      const g = fitGaussian(s.values);
      expectClose(g.mean, s.moments.mean, 1e-13, 1e-15, s.name);
      expectClose(g.std, s.moments.std, 1e-9, 1e-300, s.name);
    }
  });
  it('needs finite values', () => {
    expect(() => fitGaussian([])).toThrow(/at least one value/);
    expect(() => fitGaussian([1, NaN])).toThrow(/value 1 is NaN/);
  });
});

describe('normal pdf / cdf / sf / quantile (scipy.stats.norm)', () => {
  const g = { mean: 0.6, std: 0.05 };
  it('cdf and quantile are inverse and match ndtr/ndtri from the fixture', () => {
    for (const [x, y] of fixture.special.ndtr) expectClose(normalCdf(x), y, 1e-14, 0);
    for (const [p, x] of fixture.special.ndtri) expectClose(normalQuantile(p), x, 1e-14, 0);
    for (const p of [1e-6, 0.01, 0.3, 0.5, 0.77, 0.999]) expectClose(normalCdf(normalQuantile(p, g), g), p, 1e-13);
  });
  it('location-scale: cdf((x − μ)/σ), quantile μ + σ z, sf accurate in the tail', () => {
    expectClose(normalCdf(0.65, g), 0.8413447460685429, 1e-14);
    expectClose(normalQuantile(0.975, g), 0.6 + 0.05 * 1.959963984540054, 1e-14);
    expectClose(normalSf(0.6 + 0.05 * 10, g), 7.619853024160527e-24, 1e-13);
    expectClose(normalPdf(0.6, g), 0.3989422804014327 / 0.05, 1e-14);
    expect(normalQuantile(0, g)).toBe(-Infinity);
    expect(normalQuantile(1, g)).toBe(Infinity);
    expect(normalQuantile(1.5, g)).toBeNaN();
  });
  it('σ = 0 is a point mass at μ', () => {
    const p = { mean: 0.5, std: 0 };
    expect(normalCdf(0.4999, p)).toBe(0);
    expect(normalCdf(0.5, p)).toBe(1);
    expect(normalSf(0.5, p)).toBe(0);
    expect(normalQuantile(0.3, p)).toBe(0.5);
    expect(normalPdf(0.5, p)).toBe(Infinity);
    expect(normalPdf(0.6, p)).toBe(0);
  });
  it('rejects a negative or non-finite std', () => {
    expect(() => normalCdf(0, { mean: 0, std: -1 })).toThrow(RangeError);
    expect(() => normalCdf(0, { mean: NaN, std: 1 })).toThrow(RangeError);
  });
});
