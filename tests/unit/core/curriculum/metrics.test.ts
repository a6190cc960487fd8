import { describe, expect, it } from 'vitest';
import { curriculumMetrics, isolatedInOrder, m2iLead } from '../../../../src/core/curriculum/metrics';
import { fx } from './fixture';

describe('curriculum metrics (docs/science.md §8)', () => {
  it('ACC, BWT, FWT and ACC₀ equal numpy on the fixtures', () => {
    expect(fx.metrics.length).toBe(6);
    for (const c of fx.metrics) {
      const got = curriculumMetrics(c.R, c.isolated, c.order);
      expect(got.acc, `K=${c.K} acc`).toBeCloseTo(c.acc, 12);
      expect(got.acc0, `K=${c.K} acc0`).toBeCloseTo(c.acc0, 12);
      expect(got.gain).toBeCloseTo(c.acc - c.acc0, 12);
      if (c.bwt === null) expect(got.bwt).toBeNull();
      else expect(got.bwt, `K=${c.K} bwt`).toBeCloseTo(c.bwt, 12);
      if (c.fwt === null) expect(got.fwt).toBeNull();
      else expect(got.fwt, `K=${c.K} fwt`).toBeCloseTo(c.fwt, 12);
    }
  });

  it('ACC₀ of M2I and I2M equal numpy, and M2I never has the lower ACC₀', () => {
    for (const c of fx.metrics) {
      const R = c.R;
      expect(curriculumMetrics(R, c.isolated, c.m2i).acc0).toBeCloseTo(c.acc0M2i, 12);
      expect(curriculumMetrics(R, c.isolated, c.i2m).acc0).toBeCloseTo(c.acc0I2m, 12);
      expect(c.acc0M2i).toBeGreaterThanOrEqual(c.acc0I2m - 1e-12);
    }
  });

  it('isolatedInOrder picks a_j in training order', () => {
    expect(isolatedInOrder([0.9, 0.5, 0.7], [2, 0, 1])).toEqual([0.7, 0.9, 0.5]);
  });

  it('m2iLead: share of the ACC difference the artefact explains', () => {
    expect(m2iLead({ acc: 0.8, acc0: 0.75 }, { acc: 0.6, acc0: 0.65 })).toEqual({
      deltaAcc: 0.8 - 0.6,
      deltaAcc0: 0.75 - 0.65,
      share: (0.75 - 0.65) / (0.8 - 0.6),
    });
    expect(m2iLead({ acc: 0.5, acc0: 0.6 }, { acc: 0.5, acc0: 0.4 }).share).toBeNull();
  });
});
