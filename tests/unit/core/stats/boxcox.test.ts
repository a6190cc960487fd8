import { describe, expect, it } from 'vitest';
import { BOXCOX_YMAX, boxcox, boxcoxLambda, boxcoxLogLikelihood, boxcoxShift, boxcoxTransform, boxcoxValue } from '../../../../src/core/stats/boxcox';
import { ksNormal } from '../../../../src/core/stats/ks';
import { dagostinoPearson } from '../../../../src/core/stats/normaltest';
import { shapiroWilk } from '../../../../src/core/stats/shapiro';
import { expectClose, fixture } from './fixture';

/*
 * λ̂ sits where the log-likelihood is flat: a 1-ulp difference in llf (V8's Math.log/exp are not always
 * correctly rounded, glibc's are) moves Brent's stopping point by up to ~√(8·ulp/|llf''|). So λ is compared to
 * max(1e-6·max(1, |λ|), that flatness) — the fixture's `lambdaTolerance`, 1e-6 relative for all but the
 * ill-conditioned cases — and we check that our λ is as good a maximum as scipy's.
 */
describe('Box-Cox against scipy.stats.boxcox (λ by maximum likelihood, Brent)', () => {
  for (const s of fixture.samples) {
    if (!s.boxcox) continue;
    it(s.name, () => {
      const r = boxcox(s.values);
      expect(r.shift).toBe(s.boxcox.shift);
      expectClose(r.lambda, s.boxcox.lambda, 0, s.boxcox.lambdaTolerance, 'λ');
      expectClose(r.logLikelihood, s.boxcox.llf, 1e-12, 16 * s.boxcox.llfNoise, 'llf at the optimum');
      const data = s.values.map((v: number) => v + r.shift);
      const scipyLlf = boxcoxLogLikelihood(s.boxcox.lambda, data);
      expect(r.logLikelihood).toBeGreaterThanOrEqual(scipyLlf - 1e-12 * Math.abs(scipyLlf) - 16 * s.boxcox.llfNoise);
      expect([...r.transformed]).toEqual([...boxcoxTransform(data, r.lambda)]);
      if (s.boxcox.transformed) {
        // the transform itself, at scipy's λ, to rounding
        boxcoxTransform(data, s.boxcox.lambda).forEach((y, i) => expectClose(y, s.boxcox.transformed[i], 1e-13, 1e-15, `y[${i}]`));
      }
    });
  }
  it('boxcox_llf at given λ (including 0, ~0 and large |λ|)', () => {
    for (const c of fixture.boxcoxLlf) {
      const got = boxcoxLogLikelihood(c.lambda, c.values);
      if (typeof c.llf === 'string') expect(got).toBe(Number(c.llf));
      else expectClose(got, c.llf, 1e-12, 1e-12, `llf(${c.lambda})`);
    }
  });
});

describe("normality after Box-Cox with our own λ matches scipy end to end (the paper's Table A3 pipeline)", () => {
  for (const s of fixture.samples) {
    if (!s.after) continue;
    it(s.name, () => {
      const y = boxcox(s.values).transformed;
      if (s.after.shapiro) expectClose(shapiroWilk(y).pvalue, s.after.shapiro.pvalue, 0, 1e-6, 'Shapiro–Wilk p');
      if (s.after.normaltest) expectClose(dagostinoPearson(y).pvalue, s.after.normaltest.pvalue, 0, 1e-6, "D'Agostino p");
      expectClose(ksNormal(y).pvalue, s.after.ks.population.pvalue, 0, 1e-6, 'KS p');
    });
  }
});

describe('Box-Cox decisions', () => {
  it('shift: none for positive data, else (max − min) − min so the data span [r, 2r]', () => {
    expect(boxcoxShift([0.1, 0.5])).toBe(0);
    expect(boxcoxShift([0, 0.2, 0.5])).toBe(0.5);
    expect(boxcoxShift([-1, 1])).toBe(3);
    const r = boxcox([0, 0.1, 0.2, 0.2, 0.5]);
    expect(r.shift).toBe(0.5);
    expect(Math.min(...r.transformed.map((_, i) => [0, 0.1, 0.2, 0.2, 0.5][i] + r.shift))).toBe(0.5);
  });
  it('λ is unit-free: fractions and percent give the same λ (to Brent’s tolerance)', () => {
    const f = fixture.samples.find((s: any) => s.name === 'final accuracies (fractions) n=90');
    const p = fixture.samples.find((s: any) => s.name === 'final accuracies (percent) n=90');
    expectClose(boxcox(f.values).lambda, boxcox(p.values).lambda, 1e-6);
  });
  it('an explicit shift is used as given', () => {
    expect(boxcox([0, 1, 2, 5], { shift: 1 }).shift).toBe(1);
    expect(() => boxcox([0, 1, 2, 5], { shift: 0 })).toThrow(/positive data; value 0 is 0/);
  });
  it('transform: (x^λ − 1)/λ, log x at λ = 0', () => {
    expect(boxcoxValue(Math.E, 0)).toBe(1);
    expectClose(boxcoxValue(4, 0.5), 2, 1e-15);
    expect([...boxcoxTransform([1, 4], 0.5)]).toEqual([0, 2]);
  });
  it('the overflow guard keeps |y| ≤ ymax, as scipy', () => {
    const s = fixture.samples.find((x: any) => x.name.startsWith('large offset'));
    const lambda = boxcoxLambda(s.values);
    expectClose(lambda, s.boxcox.lambda, 1e-9);
    expect(Math.abs(boxcoxValue(Math.max(...s.values), lambda))).toBeLessThanOrEqual(BOXCOX_YMAX * (1 + 1e-12));
  });
  it('rejects constant, too short or non-finite data', () => {
    expect(() => boxcox([2, 2, 2])).toThrow(/not all equal/);
    expect(() => boxcox([2])).toThrow(/at least 2 values/);
    expect(() => boxcox([1, NaN])).toThrow(/value 1 is NaN/);
  });
});
