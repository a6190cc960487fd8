import { describe, expect, it } from 'vitest';
import { distanceCorrelation, distanceCorrelationSqr, distanceCovarianceSqr, distanceStatsSqr } from '../../../../src/core/conformal/dcor';
import { expectClose, fx } from './fixture';

describe('distance correlation as the dcor package', () => {
  it("reproduces dcor's own test values (1-D, dcor/tests/test_dcor.py)", () => {
    const x = [1, 2, 3, 4, 5, 6];
    const y = [1, 7, 5, 5, 6, 2];
    const s = distanceStatsSqr(x, y);
    expect(s.covarianceXy).toBeCloseTo(0.68519, 5);
    expect(s.correlationXy).toBeCloseTo(0.30661, 5);
    expect(s.varianceX).toBeCloseTo(1.70679, 5);
    expect(s.varianceY).toBeCloseTo(2.92593, 5);
    expect(distanceCorrelation(x, y)).toBeCloseTo(Math.sqrt(0.30661), 5); // distance_correlation = sqrt(dCor²)
    expect(distanceCorrelationSqr(x, x)).toBeCloseTo(1, 14);
  });
  it("reproduces dcor's docstring and multivariate test values", () => {
    const a = [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
      [13, 14, 15, 16],
    ];
    const b = [[1], [0], [0], [1]];
    expect(distanceCovarianceSqr(a, a)).toBeCloseTo(52, 12);
    expect(distanceCovarianceSqr(a, b)).toBeCloseTo(1, 12);
    expect(distanceCovarianceSqr(b, b)).toBeCloseTo(0.25, 12);
    expect(distanceCorrelationSqr(a, b)).toBeCloseTo(0.277350098, 8);
    expect(distanceCorrelation(a, b)).toBeCloseTo(0.526640387, 8); // test_dcor.py: (1.0, 0.526640387, 1.0), truncated
    expect(distanceCorrelation(b, b)).toBeCloseTo(1, 14);
    const m1 = [
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 9],
    ];
    const m2 = [
      [7, 3, 6],
      [2, 1, 4],
      [3, 8, 1],
    ];
    const m3 = [
      [1, 1, 1],
      [2, 1, 1],
      [1, 1, 1],
    ];
    expect(distanceCorrelationSqr(m1, m2)).toBeCloseTo(0.93387, 5);
    expect(distanceCorrelationSqr(m1, m3)).toBeCloseTo(0.31623, 5);
    expect(
      distanceCorrelationSqr(m1, [
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
      ]),
    ).toBe(0); // zero denominator → 0
  });
  it('equals the numpy reference', () => {
    for (const c of fx.dcor) {
      const s = distanceStatsSqr(c.x, c.y);
      const what = `n=${c.x.length}`;
      expectClose([s.covarianceXy, s.varianceX, s.varianceY, s.correlationXy], [c.covarianceXy, c.varianceX, c.varianceY, c.correlationXy], 1e-12, what);
      expectClose([distanceCorrelation(c.x, c.y)], [c.dcor], 1e-12, what);
    }
    const m = fx.dcorMultivariate;
    expectClose([distanceCorrelation(m.x, m.y), distanceCovarianceSqr(m.x, m.y)], [m.dcor, m.covarianceXy], 1e-12, 'multivariate');
  });
  it('is 1 for a linear relation, 0 against a constant, symmetric, and in [0, 1]', () => {
    const x = [0.3, -1.2, 2.5, 0.7, 1.1];
    expect(
      distanceCorrelation(
        x,
        x.map((v) => -2 * v + 1),
      ),
    ).toBeCloseTo(1, 14);
    expect(distanceCorrelation(x, [2, 2, 2, 2, 2])).toBe(0);
    expect(distanceCorrelation([1, 1, 1, 1], [1, 1, 1, 1])).toBe(0); // dcor's test_dcor_constant
    expect(distanceCorrelation([5], [3])).toBe(0);
    expect(distanceCorrelation(x, [1, 4, 2, 8, 5])).toBe(distanceCorrelation([1, 4, 2, 8, 5], x));
  });
  it('clear errors', () => {
    expect(() => distanceCorrelation([1, 2], [1])).toThrow('distance correlation needs two samples of the same length; got 2 and 1.');
    expect(() => distanceCorrelation([], [])).toThrow('at least one observation');
    expect(() => distanceCorrelation([1, NaN], [1, 2])).toThrow('x[1] must be a finite number; got NaN.');
    expect(() => distanceCorrelation([[1, 2], [1]], [1, 2])).toThrow('x: row 1 has 1 values but row 0 has 2.');
  });
});
