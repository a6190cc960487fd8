import { describe, expect, it } from 'vitest';
import { bracketMinimum, brentMinimize } from '../../../../src/core/stats/brent';
import { expectClose, fixture } from './fixture';

const FUNCS: Record<string, (x: number) => number> = {
  quadratic: (x) => (x - 1.3) ** 2 + 0.5,
  quartic: (x) => x ** 4 - 3 * x ** 3 + 2,
  cosine: (x) => Math.cos(x),
  far: (x) => (x - 40) ** 2,
  abs: (x) => Math.abs(x + 0.75) + 0.1 * x * x,
};

describe('brentMinimize follows scipy.optimize.brent step for step', () => {
  for (const c of fixture.brent) {
    it(c.name, () => {
      const r = brentMinimize(FUNCS[c.name], c.brack);
      expectClose(r.x, c.x, 1e-13, 1e-15, 'x');
      expectClose(r.fx, c.fx, 1e-13, 1e-15, 'f(x)');
      expect(r.iterations).toBe(c.iterations);
      expect(r.evaluations).toBe(c.evaluations);
    });
  }
});

describe('bracketMinimum', () => {
  it('returns a valid bracket with f(xb) below both ends', () => {
    const b = bracketMinimum((x) => (x - 10) ** 2, 0, 1);
    expect(b.fb).toBeLessThanOrEqual(b.fa);
    expect(b.fb).toBeLessThan(b.fc);
    expect((b.xa < b.xb && b.xb < b.xc) || (b.xc < b.xb && b.xb < b.xa)).toBe(true);
  });
  it('fails on a function with no minimum', () => {
    expect(() => bracketMinimum((x) => -x, 0, 1)).toThrow(RangeError);
  });
});
