import { describe, expect, it } from 'vitest';
import { estimateQuality, gaussianEstimate, prepareTruth, qualityAgainstTruth } from '../../../../src/core/stats/estimate';
import { expectClose, fixture } from './fixture';

describe('estimateQuality = JSD and W1 of the fitted Gaussian (independent numpy implementation)', () => {
  for (const c of fixture.quality) {
    it(c.name, () => {
      const q = estimateQuality(c.truth, c.estimate);
      if (c.jsd === null) expect(q.jsd).toBeNaN();
      else expectClose(q.jsd, c.jsd, 1e-9, 1e-12, 'jsd');
      expectClose(q.w1Raw, c.w1Raw, 1e-10, 1e-14, 'w1 raw');
      expectClose(q.w1, c.w1, 1e-10, 1e-12, 'w1 points');
    });
  }
});

describe('gaussianEstimate', () => {
  it('population variance, mean, range', () => {
    const e = gaussianEstimate([0.7, 0.8, 0.9]);
    expect(e.n).toBe(3);
    expectClose(e.mean, 0.8, 1e-15);
    expectClose(e.variance, 0.02 / 3, 1e-13);
    expectClose(e.std, Math.sqrt(0.02 / 3), 1e-13);
    expect([e.min, e.max]).toEqual([0.7, 0.9]);
  });
  it('a prepared truth gives the same numbers as the one-shot call', () => {
    const c = fixture.quality[0];
    const t = prepareTruth(c.truth);
    expect(t.n).toBe(c.truth.length);
    expect(qualityAgainstTruth(t, { mean: c.mean, std: c.std })).toEqual(estimateQuality(c.truth, c.estimate));
  });
  it('rejects an empty estimate', () => {
    expect(() => estimateQuality([0.5, 0.6], [])).toThrow(/at least one value/);
  });
});
