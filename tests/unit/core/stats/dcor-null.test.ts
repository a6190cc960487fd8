import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/forgetting-dcor.json';
import { distanceCorrelation } from '../../../../src/core/conformal/dcor';
import { createDefaultRng } from '../../../../src/core/random/default-rng';
import { DCOR_NULL_PROBS, dcorNullDistribution, dcorNullQuantile } from '../../../../src/core/stats/dcor-null';

// numpy's reference: scripts/make-forgetting-fixtures.py (Box–Muller on default_rng(0).random(), draw for draw)
describe('dcorNullDistribution', () => {
  for (const ref of fixture.null) {
    it(`n = ${ref.n}: the mean and quantiles numpy computes from the same draws`, () => {
      const d = dcorNullDistribution(ref.n, { draws: ref.draws, seed: ref.seed });
      expect(d.mean).toBeCloseTo(ref.mean, 12);
      expect(d.quantiles.map((q) => q.p)).toEqual(ref.quantiles.map((q) => q.p));
      d.quantiles.forEach((q, i) => expect(q.value).toBeCloseTo(ref.quantiles[i].value, 12));
    });
    it(`n = ${ref.n}: the distribution numpy's own standard_normal gives (200 000 pairs), within Monte Carlo error`, () => {
      const d = dcorNullDistribution(ref.n);
      expect(Math.abs(d.mean - ref.standardNormal200k.mean)).toBeLessThan(0.005);
      // the median and the 1 %–99 % quantiles; the 0.1 % rests on 20 draws, so it gets more room
      d.quantiles.forEach((q, i) =>
        expect(Math.abs(q.value - ref.standardNormal200k.quantiles[i].value)).toBeLessThan(q.p === 0.001 || q.p === 0.999 ? 0.03 : 0.012),
      );
    });
  }
  it('gives the numbers docs/science.md quotes for 5 points: mean ≈ 0.67, 0.1 % ≈ 0.34, 1 % ≈ 0.41', () => {
    const d = dcorNullDistribution(5);
    expect(d.mean).toBeCloseTo(0.666, 2);
    expect(dcorNullQuantile(d, 0.001)).toBeCloseTo(0.34, 2);
    expect(dcorNullQuantile(d, 0.01)).toBeCloseTo(0.41, 2);
    // every Fashion-MNIST dCor of the paper's Tables II–III (0.18–0.32) lies below the 0.1 % quantile
    expect(0.3157).toBeLessThan(dcorNullQuantile(d, 0.001));
  });
  it('computes each draw’s dCor as distanceCorrelation does (the reused buffers change nothing)', () => {
    // a null of one draw is that draw's dCor: rebuild the draw's series from the same Box–Muller stream
    const rng = createDefaultRng(9);
    const normal = () => {
      const u1 = rng.random();
      const u2 = rng.random();
      return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    };
    const x = [normal(), normal(), normal(), normal()];
    const y = [normal(), normal(), normal(), normal()];
    const d = dcorNullDistribution(4, { draws: 1, seed: 9 });
    expect(d.mean).toBe(distanceCorrelation(x, y));
    expect(d.quantiles.every((q) => q.value === d.mean)).toBe(true);
  });
  it('is memoised and returns copies; rejects n < 2 and a quantile it does not have', () => {
    const a = dcorNullDistribution(6, { draws: 500 });
    a.quantiles[0].value = -1;
    expect(dcorNullDistribution(6, { draws: 500 }).quantiles[0].value).toBeGreaterThan(0);
    expect(() => dcorNullDistribution(1)).toThrow(/at least 2 points/);
    expect(() => dcorNullQuantile(a, 0.3)).toThrow(/no 0.3 quantile/);
    expect(DCOR_NULL_PROBS).toContain(0.5);
  });
});

describe('docs/science.md quotes the 5-point null as computed', () => {
  const text = readFileSync(new URL('../../../../docs/science.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('**How large is a 5-point dCor by chance?**'));
  const d = dcorNullDistribution(5);
  // each "<p> % quantile is ≈ <v>" sentence of the section, checked against the computed quantile (2 decimals)
  const quoted = [...section.slice(0, 1200).matchAll(/([0-9.]+) % quantile (?:is )?≈ ([0-9.]+)/g)].map((m) => ({ p: Number(m[1]) / 100, v: Number(m[2]) }));
  it('names the 0.1 % and the 1 % quantiles, each with its own value', () => {
    expect(quoted.map((q) => q.p)).toEqual(expect.arrayContaining([0.001, 0.01]));
    for (const q of quoted) expect(q.v).toBeCloseTo(dcorNullQuantile(d, q.p), 2);
  });
});
