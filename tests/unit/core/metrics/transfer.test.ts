import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/metrics.json';
import { backwardTransfer, forgetting, forwardTransfer } from '../../../../src/core/metrics/transfer';
import { closeOrNull, R2, R3, type MetricsFixtureCase } from './hand-matrices';

const cases = fixture.cases as MetricsFixtureCase[];

describe('BWT (Lopez-Paz & Ranzato)', () => {
  it('2×2 by hand', () => {
    // BWT = (R[1][0] − R[0][0]) / 1 = 0.6 − 0.9 = −0.3
    expect(backwardTransfer(R2)).toBeCloseTo(-0.3, 15);
  });
  it('3×3 by hand', () => {
    // BWT = ((R[2][0] − R[0][0]) + (R[2][1] − R[1][1])) / 2 = ((0.4 − 0.8) + (0.6 − 0.9)) / 2 = −0.7 / 2 = −0.35
    expect(backwardTransfer(R3)).toBeCloseTo(-0.35, 15);
  });
  it('is undefined (null) for K = 1', () => {
    expect(backwardTransfer([[0.9]])).toBeNull();
  });
});

describe('forgetting (Chaudhry et al.)', () => {
  it('2×2 by hand', () => {
    // j = 0: max_{l<1} R[l][0] − R[1][0] = 0.9 − 0.6 = 0.3
    expect(forgetting(R2)).toBeCloseTo(0.3, 15);
  });
  it('3×3 by hand: the max is over all earlier steps, so it differs from −BWT', () => {
    // j = 0: max(R[0][0], R[1][0]) − R[2][0] = max(0.8, 0.85) − 0.4 = 0.45
    // j = 1: max(R[0][1], R[1][1]) − R[2][1] = max(0.1, 0.9) − 0.6 = 0.3
    // mean = 0.75 / 2 = 0.375   (while −BWT = 0.35)
    expect(forgetting(R3)).toBeCloseTo(0.375, 15);
  });
  it('can be negative when every old task ends above its best earlier value', () => {
    // j = 0: 0.5 − 0.7 = −0.2
    expect(
      forgetting([
        [0.5, 0],
        [0.7, 0.6],
      ]),
    ).toBeCloseTo(-0.2, 15);
  });
  it('is undefined (null) for K = 1', () => {
    expect(forgetting([[0.9]])).toBeNull();
  });
});

describe('FWT (Lopez-Paz & Ranzato)', () => {
  it('2×2 by hand', () => {
    // FWT = (R[0][1] − b_1) / 1 = 0.1 − 0.05 = 0.05 (b_0 is not used)
    expect(forwardTransfer(R2, [0.5, 0.05])).toBeCloseTo(0.05, 15);
  });
  it('3×3 by hand', () => {
    // FWT = ((R[0][1] − b_1) + (R[1][2] − b_2)) / 2 = ((0.1 − 0.1) + (0.2 − 0.1)) / 2 = 0.05
    expect(forwardTransfer(R3, [0.1, 0.1, 0.1])).toBeCloseTo(0.05, 15);
  });
  it('is undefined (null) for K = 1, but still validates b', () => {
    expect(forwardTransfer([[0.9]], [0.1])).toBeNull();
    expect(() => forwardTransfer([[0.9]], [])).toThrow('untrained (b_j) must have one accuracy per task (1) but has 0');
  });
  it('rejects a b of the wrong length or out of range', () => {
    expect(() => forwardTransfer(R3, [0.1, 0.1])).toThrow('untrained (b_j) must have one accuracy per task (3) but has 2');
    expect(() => forwardTransfer(R3, [0.1, 10, 0.1])).toThrow('untrained (b_j)[1] = 10 is outside [0,1] (accuracies are fractions in [0,1], not percentages)');
  });
});

describe('transfer metrics match numpy on random matrices K = 1..10', () => {
  it('BWT, forgetting, FWT', () => {
    for (const c of cases) {
      expect(closeOrNull(backwardTransfer(c.R), c.expected.bwt), `bwt K=${c.K} ${c.kind}`).toBe(true);
      expect(closeOrNull(forgetting(c.R), c.expected.forgetting), `forgetting K=${c.K} ${c.kind}`).toBe(true);
      expect(closeOrNull(forwardTransfer(c.R, c.untrained), c.expected.fwt), `fwt K=${c.K} ${c.kind}`).toBe(true);
    }
  });
});

describe('input validation', () => {
  it('every metric rejects a non-square matrix', () => {
    const bad = [[0.5, 0.5]];
    expect(() => backwardTransfer(bad)).toThrow('must be square');
    expect(() => forgetting(bad)).toThrow('must be square');
    expect(() => forwardTransfer(bad, [0.1])).toThrow('must be square');
  });
});
