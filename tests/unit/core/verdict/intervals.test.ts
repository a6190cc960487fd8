import { describe, expect, it } from 'vitest';
import { meanInterval, pearsonInterval, tQuantile } from '../../../../src/core/verdict/intervals';
import raw from '../../../fixtures/verdict.json';
import { expectClose } from '../stats/fixture';

// tests/fixtures/verdict.json: scipy's t.ppf, pearsonr(...).confidence_interval and t.interval (scripts/make-verdict-fixtures.py)
const fx = raw as any;

describe('tQuantile', () => {
  it.each(fx.tQuantiles as { p: number; df: number; q: number }[])('t.ppf($p, $df) as scipy', ({ p, df, q }) => {
    expectClose(tQuantile(p, df), q, 1e-10, 1e-12, `t.ppf(${p}, ${df})`);
  });
  it('is NaN outside (0, 1) or for df ≤ 0', () => {
    expect(tQuantile(0, 5)).toBeNaN();
    expect(tQuantile(1, 5)).toBeNaN();
    expect(tQuantile(0.9, 0)).toBeNaN();
  });
});

describe('pearsonInterval (Fisher z)', () => {
  it.each(fx.pearson as { n: number; r: number; level: number; lo: number; hi: number }[])(
    'n = $n, r = $r, level $level as scipy',
    ({ n, r, level, lo, hi }) => {
      const ci = pearsonInterval(r, n, level)!;
      expectClose(ci.lo, lo, 1e-12, 1e-14, 'lo');
      expectClose(ci.hi, hi, 1e-12, 1e-14, 'hi');
      expect(ci.lo).toBeLessThan(r);
      expect(ci.hi).toBeGreaterThan(r);
    },
  );
  it('is null below 4 pairs or at |r| = 1', () => {
    expect(pearsonInterval(0.5, 3)).toBeNull();
    expect(pearsonInterval(1, 50)).toBeNull();
  });
});

describe('meanInterval (t, finite-population correction)', () => {
  it.each(fx.mean as { values: number[]; population: number | null; level: number; lo: number; hi: number }[])(
    'n = $values.length of N = $population as scipy',
    ({ values, population, level, lo, hi }) => {
      const ci = meanInterval(values, level, population ?? undefined)!;
      expectClose(ci.lo, lo, 1e-11, 1e-14, 'lo');
      expectClose(ci.hi, hi, 1e-11, 1e-14, 'hi');
    },
  );
  it('shrinks to the mean when the sample is the whole population, and is null for one value', () => {
    const ci = meanInterval([0.1, 0.2, 0.3], 0.95, 3)!;
    expect(ci.lo).toBeCloseTo(0.2, 15);
    expect(ci.hi).toBeCloseTo(0.2, 15);
    expect(meanInterval([0.3])).toBeNull();
  });
});
