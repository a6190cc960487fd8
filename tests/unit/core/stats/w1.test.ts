import { describe, expect, it } from 'vitest';
import { W1_MIDPOINTS, empiricalQuantile, truthQuantiles, w1AgainstQuantiles, w1Distance, w1Midpoints, w1Points } from '../../../../src/core/stats/w1';
import { expectClose, fixture } from './fixture';

describe('W1 against the independent numpy implementation of docs/science.md §2', () => {
  for (const c of fixture.quality) {
    it(c.name, () => {
      const g = { mean: c.mean, std: c.std };
      expectClose(w1Distance(c.truth, g), c.w1Raw, 1e-10, 1e-14, 'w1 raw');
      expectClose(w1Points(c.truth, g), c.w1, 1e-10, 1e-12, 'w1 points');
    });
  }
});

describe('W1 pieces', () => {
  it('4096 midpoints (k + ½)/4096', () => {
    const u = w1Midpoints();
    expect(u).toHaveLength(W1_MIDPOINTS);
    expect(u[0]).toBe(0.5 / 4096);
    expect(u[4095]).toBe(4095.5 / 4096);
  });
  it('empiricalQuantile inverts the step CDF: x_(⌈n·u⌉), no interpolation', () => {
    const s = [1, 2, 3, 4];
    expect(empiricalQuantile(s, 0.1)).toBe(1);
    expect(empiricalQuantile(s, 0.25)).toBe(1); // n·u = 1 exactly → x_(1)
    expect(empiricalQuantile(s, 0.2500001)).toBe(2);
    expect(empiricalQuantile(s, 0.99)).toBe(4);
    expect(empiricalQuantile([], 0.5)).toBeNaN();
  });
  it('W1 of a point mass to a point is the distance, ×100 in points', () => {
    expect(w1Distance([0.5], { mean: 0.52, std: 0 })).toBeCloseTo(0.02, 15);
    expect(w1Points([0.5], { mean: 0.52, std: 0 })).toBeCloseTo(2, 13);
  });
  it('prepared quantiles give the same number', () => {
    const c = fixture.quality[1];
    const q = truthQuantiles(c.truth);
    expect(w1AgainstQuantiles(q, { mean: c.mean, std: c.std })).toBe(w1Distance(c.truth, { mean: c.mean, std: c.std }));
  });
  it('rejects empty truth and a bad Gaussian', () => {
    expect(() => truthQuantiles([])).toThrow(/at least one truth value/);
    expect(() => truthQuantiles([0.1, NaN])).toThrow(/value 1 is NaN/);
    expect(() => w1Distance([0.1], { mean: 0, std: -1 })).toThrow(RangeError);
  });
});
