import { describe, expect, it } from 'vitest';
import {
  apsScore,
  conformalScore,
  conformalScores,
  descendingOrder,
  lacScore,
  RAPS_DEFAULTS,
  rapsScore,
  resolveScore,
} from '../../../../src/core/conformal/scores';
import { ConformalInputError } from '../../../../src/core/conformal/probs';
import { expectClose, fx } from './fixture';

describe('descendingOrder', () => {
  it('sorts classes by descending probability, ties by ascending class index', () => {
    expect(descendingOrder([0.1, 0.6, 0.3])).toEqual([1, 2, 0]);
    expect(descendingOrder([0.25, 0.25, 0.25, 0.25])).toEqual([0, 1, 2, 3]);
    expect(descendingOrder([0.1, 0.3, 0.3, 0.3])).toEqual([1, 2, 3, 0]);
    expect(descendingOrder([0, 0.5, 0, 0.5])).toEqual([1, 3, 0, 2]);
  });
});

describe('scores by hand', () => {
  const row = [0.1, 0.6, 0.3];
  it('APS = the mass down to and including the true class', () => {
    expect(apsScore(row, 1)).toBe(0.6);
    expect(apsScore(row, 2)).toBe(0.6 + 0.3);
    expect(apsScore(row, 0)).toBe(0.6 + 0.3 + 0.1);
    // ties: the lower index ranks first, so class 3 of a uniform row carries the whole mass
    expect(apsScore([0.25, 0.25, 0.25, 0.25], 0)).toBe(0.25);
    expect(apsScore([0.25, 0.25, 0.25, 0.25], 3)).toBe(1);
  });
  it('LAC = 1 − π_y', () => {
    expect(lacScore(row, 1)).toBe(1 - 0.6);
    expect(lacScore(row, 0)).toBe(0.9);
  });
  it('RAPS = APS + λ(rank − k_reg)⁺, defaults λ = 0.01, k_reg = 5', () => {
    expect(RAPS_DEFAULTS).toEqual({ lambda: 0.01, kReg: 5 });
    expect(rapsScore(row, 0)).toBe(apsScore(row, 0)); // 3 classes ≤ k_reg: no penalty
    const p = [0.3, 0.2, 0.15, 0.1, 0.08, 0.07, 0.05, 0.05];
    expect(rapsScore(p, 7)).toBeCloseTo(1 + 0.01 * 3, 15); // rank 8
    expect(rapsScore(p, 1, { lambda: 0.5, kReg: 0 })).toBeCloseTo(0.5 + 0.5 * 2, 15);
    expect(rapsScore(p, 1, { lambda: 0 })).toBe(apsScore(p, 1));
  });
  it('rejects a label outside the row and bad options', () => {
    expect(() => apsScore(row, 3)).toThrow(ConformalInputError);
    expect(() => lacScore(row, -1)).toThrow('label -1 is not a column of a row with 3 classes.');
    expect(() => resolveScore({ score: 'naive' as 'aps' })).toThrow('Unknown conformal score "naive": use aps, lac, raps.');
    expect(() => resolveScore({ score: 'raps', raps: { lambda: -1 } })).toThrow('RAPS lambda must be a finite number ≥ 0; got -1.');
    expect(() => resolveScore({ score: 'raps', raps: { kReg: 1.5 } })).toThrow('RAPS k_reg must be a whole number ≥ 0; got 1.5.');
    expect(resolveScore()).toEqual({ score: 'aps', raps: { lambda: 0.01, kReg: 5 } });
  });
});

describe('scores equal the numpy reference (tests/fixtures/conformal.json)', () => {
  expect(fx.raps).toEqual(RAPS_DEFAULTS);
  for (const c of fx.scores) {
    it(c.name, () => {
      const probs = c.float32 ? { data: Float32Array.from(c.probs.flat()), width: c.probs[0].length } : c.probs;
      // exact: same additions in the same order
      expectClose(conformalScores(probs, c.labels, { score: 'aps' }), c.scores.aps, 1e-12, 'aps');
      expectClose(conformalScores(probs, c.labels, { score: 'lac' }), c.scores.lac, 1e-12, 'lac');
      expectClose(conformalScores(probs, c.labels, { score: 'raps' }), c.scores.raps, 1e-12, 'raps');
      expectClose(conformalScores(probs, c.labels, { score: 'raps', raps: { lambda: 0.1, kReg: 2 } }), c.scores['raps_l0.1_k2'], 1e-12, 'raps λ=0.1 k=2');
      expect(conformalScore(c.probs[0], c.labels[0])).toBe(c.scores.aps[0]);
    });
  }
  it('reports shape problems of the whole matrix', () => {
    expect(() => conformalScores([[0.5, 0.5]], [0, 1])).toThrow('calibration labels: 2 labels for 1 rows');
    expect(() => conformalScores([[0.5, 0.5]], [2])).toThrow('calibration labels[0] = 2 is out of range');
  });
});
