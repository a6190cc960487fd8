import { describe, expect, it } from 'vitest';
import { normalCdf } from '../../../../src/core/stats/gaussian';
import { ksNormal, ksOneSample, kstwoCdf, kstwoSf, smirnovSf } from '../../../../src/core/stats/ks';
import { expectClose, fixture } from './fixture';

function check(r: ReturnType<typeof ksNormal>, e: any, what: string): void {
  expectClose(r.reference.mean, e.mean, 1e-13, 1e-15, `${what} mean`);
  expectClose(r.reference.std, e.std, 1e-9, 1e-300, `${what} std`);
  expectClose(r.statistic, e.statistic, 1e-9, 1e-13, `${what} D`);
  expectClose(r.pvalue, e.pvalue, 1e-6, 1e-10, `${what} p`);
  expect(r.statisticLocation, `${what} location`).toBe(e.location);
  expect(r.statisticSign, `${what} sign`).toBe(e.sign);
}

describe("KS against scipy.stats.kstest(x, 'norm', args=(mean, std))", () => {
  for (const s of fixture.samples) {
    if (s.raw.ks.population.statistic === null) continue;
    it(s.name, () => {
      check(ksNormal(s.values), s.raw.ks.population, 'population std');
      if (s.raw.ks.sample) check(ksNormal(s.values, { ddof: 1 }), s.raw.ks.sample, 'sample std');
      if (s.after?.ks && s.boxcox.transformed) check(ksNormal(s.boxcox.transformed), s.after.ks.population, 'after Box-Cox');
    });
  }
});

describe('the two-sided KS distribution (scipy.stats.kstwo) on every branch', () => {
  it('sf and cdf on an (n, d) grid', () => {
    for (const [n, d, sf, cdf] of fixture.kstwo) {
      expectClose(kstwoSf(d, n), sf, 1e-6, 1e-12, `kstwo.sf(${d}, ${n})`);
      expectClose(kstwoCdf(d, n), cdf, 1e-6, 1e-12, `kstwo.cdf(${d}, ${n})`);
    }
  });
  it('smirnov (one-sided) against scipy.special.smirnov', () => {
    for (const [n, d, sf] of fixture.smirnov) expectClose(smirnovSf(n, d), sf, 1e-9, 1e-15, `smirnov(${n}, ${d})`);
  });
});

describe('KS edge cases', () => {
  it('constant data (std 0) give NaN, as scipy', () => {
    const c = fixture.samples.find((x: any) => x.name === 'constant n=10');
    expect(c.raw.ks.population.statistic).toBeNull();
    const r = ksNormal(c.values);
    expect(r.statistic).toBeNaN();
    expect(r.pvalue).toBeNaN();
  });
  it('needs at least one finite value', () => {
    expect(() => ksNormal([])).toThrow(/needs at least 1 value/);
    expect(() => ksOneSample([1, NaN], (x) => x)).toThrow(/value 1 is NaN/);
  });
  it('ksOneSample against a fixed N(0,1): D for one point at 0 is ½', () => {
    const r = ksOneSample([0], (x) => normalCdf(x));
    expect(r.statistic).toBe(0.5);
    expect(r.pvalue).toBe(1);
  });
});
