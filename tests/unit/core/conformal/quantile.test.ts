import { describe, expect, it } from 'vitest';
import { conformalQuantile, conformalQuantileIndex, minCalibrationSize } from '../../../../src/core/conformal/quantile';
import { fx, qOf } from './fixture';

describe('conformalQuantileIndex: k = ⌈(n+1)(1−α)⌉', () => {
  it('by hand', () => {
    expect(conformalQuantileIndex(9, 0.1)).toBe(9);
    expect(conformalQuantileIndex(8, 0.1)).toBe(9); // > n: q = +∞
    expect(conformalQuantileIndex(100, 0.1)).toBe(91);
    expect(conformalQuantileIndex(0, 0.5)).toBe(1);
  });
  it('is exact for the α the user wrote despite floating point (10·(1 − 0.7) = 3.0000000000000004)', () => {
    expect(10 * (1 - 0.7)).toBeGreaterThan(3);
    expect(conformalQuantileIndex(9, 0.7)).toBe(3);
    expect(conformalQuantileIndex(19, 0.95)).toBe(1);
    expect(conformalQuantileIndex(9, 0.6999)).toBe(4);
  });
  it('rejects α ∉ (0,1) and bad n', () => {
    expect(() => conformalQuantileIndex(10, 0)).toThrow(RangeError);
    expect(() => conformalQuantileIndex(10, 1)).toThrow('alpha must be a number strictly between 0 and 1');
    expect(() => conformalQuantileIndex(-1, 0.1)).toThrow('whole number ≥ 0');
  });
});

describe('conformalQuantile', () => {
  it('is the k-th smallest score, +∞ when k > n (every set is then full)', () => {
    const s = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6];
    expect(conformalQuantile(s, 0.1)).toBe(0.9); // k = 9 of 9
    expect(conformalQuantile(s, 0.2)).toBe(0.8); // k = 8
    expect(conformalQuantile(s, 0.5)).toBe(0.5); // k = 5
    expect(conformalQuantile(s.slice(0, 8), 0.1)).toBe(Infinity); // k = 9 > 8
    expect(conformalQuantile([], 0.5)).toBe(Infinity);
    expect(conformalQuantile(Float64Array.of(0.3), 0.4)).toBe(Infinity); // k = ⌈2·0.6⌉ = 2 > 1
    expect(conformalQuantile(Float64Array.of(0.3), 0.6)).toBe(0.3); // k = ⌈2·0.4⌉ = 1
  });
  it('needs ⌈1/α⌉ − 1 scores for a finite q', () => {
    expect(minCalibrationSize(0.1)).toBe(9);
    expect(minCalibrationSize(0.05)).toBe(19);
    expect(minCalibrationSize(0.2)).toBe(4);
    expect(minCalibrationSize(0.15)).toBe(6);
    for (const a of [0.05, 0.1, 0.15, 0.2, 0.3]) {
      const n = minCalibrationSize(a);
      expect(conformalQuantileIndex(n, a)).toBeLessThanOrEqual(n);
      expect(conformalQuantileIndex(n - 1, a)).toBeGreaterThan(n - 1);
    }
  });
  it('rejects NaN scores', () => {
    expect(() => conformalQuantile([0.1, NaN], 0.5)).toThrow('calibration score 1 is not a number (NaN).');
  });
  it('equals the numpy reference', () => {
    for (const c of fx.quantile) {
      expect(conformalQuantileIndex(c.scores.length, c.alpha), `n=${c.scores.length} α=${c.alpha}`).toBe(c.k);
      expect(conformalQuantile(c.scores, c.alpha), `n=${c.scores.length} α=${c.alpha}`).toBe(qOf(c.q));
    }
  });
});
