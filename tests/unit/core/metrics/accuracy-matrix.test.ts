import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/metrics.json';
import {
  AccuracyMatrixError,
  aiaWeighted,
  averageIncrementalAccuracy,
  finalAccuracy,
  finalAccuracyWeighted,
  validateAccuracyMatrix,
  validateTaskAccuracies,
  validateTestCounts,
} from '../../../../src/core/metrics/accuracy-matrix';
import { R2, R3, type MetricsFixtureCase } from './hand-matrices';

const cases = fixture.cases as MetricsFixtureCase[];

describe('validateAccuracyMatrix', () => {
  it('returns K for square matrices of fractions', () => {
    expect(validateAccuracyMatrix([[0.5]])).toBe(1);
    expect(validateAccuracyMatrix(R2)).toBe(2);
    expect(validateAccuracyMatrix(R3)).toBe(3);
    expect(
      validateAccuracyMatrix([
        [0, 1],
        [1, 0],
      ]),
    ).toBe(2); // the bounds 0 and 1 are allowed
  });
  it('rejects bad input with a message that says what and where', () => {
    const bad = (R: unknown) => () => validateAccuracyMatrix(R as number[][]);
    expect(bad([])).toThrow(AccuracyMatrixError);
    expect(bad([])).toThrow('accuracy matrix is empty: need at least one task (K ≥ 1)');
    expect(bad('R')).toThrow('accuracy matrix must be an array of rows');
    expect(bad([[0.5, 0.5], 0.5])).toThrow('accuracy matrix row 1 is not an array');
    expect(bad([[0.5, 0.5], [0.5]])).toThrow('accuracy matrix must be square (K×K, K = 2 rows) but row 1 has 1 entries');
    expect(bad([[0.5, 0.5]])).toThrow('must be square (K×K, K = 1 rows) but row 0 has 2 entries');
    expect(
      bad([
        [0.5, NaN],
        [0.5, 0.5],
      ]),
    ).toThrow('accuracy matrix entry R[0][1] must be a finite number, got NaN');
    expect(
      bad([
        [0.5, 0.5],
        [Infinity, 0.5],
      ]),
    ).toThrow('R[1][0] must be a finite number, got Infinity');
    expect(
      bad([
        [0.5, 0.5],
        [null, 0.5],
      ]),
    ).toThrow('R[1][0] must be a finite number, got null');
    expect(
      bad([
        [0.5, 0.5],
        ['0.5', 0.5],
      ]),
    ).toThrow('R[1][0] must be a finite number, got 0.5');
    expect(
      bad([
        [-0.01, 0.5],
        [0.5, 0.5],
      ]),
    ).toThrow('R[0][0] = -0.01 is outside [0,1]');
    expect(
      bad([
        [93.5, 0.5],
        [0.5, 0.5],
      ]),
    ).toThrow('R[0][0] = 93.5 is outside [0,1] (accuracies are fractions in [0,1], not percentages)');
  });
  it('validates per-task vectors and test counts', () => {
    expect(() => validateTaskAccuracies([0.1], 2, 'untrained (b_j)')).toThrow('untrained (b_j) must have one accuracy per task (2) but has 1');
    expect(() => validateTaskAccuracies([0.1, 2], 2, 'b')).toThrow('b[1] = 2 is outside [0,1]');
    expect(() => validateTestCounts([10, 0], 2)).toThrow('testCounts[1] must be a positive integer (test samples of task 1), got 0');
    expect(() => validateTestCounts([10, 2.5], 2)).toThrow('testCounts[1] must be a positive integer');
    expect(() => validateTestCounts([10], 2)).toThrow('testCounts must have one count per task (2) but has 1');
  });
});

describe('finalAccuracy and averageIncrementalAccuracy (docs/science.md §4)', () => {
  it('2×2 by hand', () => {
    // ACC = (R[1][0] + R[1][1]) / 2 = (0.6 + 0.8) / 2 = 0.7
    expect(finalAccuracy(R2)).toBeCloseTo(0.7, 15);
    // AIA = (R[0][0] + (R[1][0] + R[1][1]) / 2) / 2 = (0.9 + 0.7) / 2 = 0.8
    expect(averageIncrementalAccuracy(R2)).toBeCloseTo(0.8, 15);
  });
  it('3×3 by hand', () => {
    // ACC = (0.4 + 0.6 + 0.7) / 3 = 1.7 / 3 = 0.5666…
    expect(finalAccuracy(R3)).toBeCloseTo(1.7 / 3, 15);
    // AIA = (0.8 + (0.85 + 0.9)/2 + 1.7/3) / 3 = (0.8 + 0.875 + 0.5666…) / 3 = 2.241666… / 3 = 0.747222…
    expect(averageIncrementalAccuracy(R3)).toBeCloseTo((0.8 + 0.875 + 1.7 / 3) / 3, 15);
    expect(averageIncrementalAccuracy(R3)).toBeCloseTo(0.7472222222, 9);
  });
  it('K = 1: both are the single entry', () => {
    expect(finalAccuracy([[0.42]])).toBe(0.42);
    expect(averageIncrementalAccuracy([[0.42]])).toBe(0.42);
  });
  it('matches numpy on random matrices K = 1..10', () => {
    for (const c of cases) {
      expect(finalAccuracy(c.R)).toBeCloseTo(c.expected.finalAccuracy, 12);
      expect(averageIncrementalAccuracy(c.R)).toBeCloseTo(c.expected.aia, 12);
    }
  });
});

describe('sample-weighted accuracies (docs/science.md §2)', () => {
  it('2×2 by hand, n = [100, 300]', () => {
    // final = (100·0.6 + 300·0.8) / 400 = (60 + 240) / 400 = 0.75
    expect(finalAccuracyWeighted(R2, [100, 300])).toBeCloseTo(0.75, 15);
    // AIA = (R[0][0] + 0.75) / 2 = (0.9 + 0.75) / 2 = 0.825
    expect(aiaWeighted(R2, [100, 300])).toBeCloseTo(0.825, 15);
  });
  it('3×3 by hand, n = [100, 200, 100]', () => {
    // final = (100·0.4 + 200·0.6 + 100·0.7) / 400 = (40 + 120 + 70) / 400 = 0.575
    expect(finalAccuracyWeighted(R3, [100, 200, 100])).toBeCloseTo(0.575, 15);
    // steps: 0.8; (100·0.85 + 200·0.9)/300 = 265/300 = 0.88333…; 0.575 → mean = 2.258333…/3 = 0.752777…
    expect(aiaWeighted(R3, [100, 200, 100])).toBeCloseTo((0.8 + 265 / 300 + 0.575) / 3, 15);
  });
  it('equal counts give the task-mean values', () => {
    expect(finalAccuracyWeighted(R3, [7, 7, 7])).toBeCloseTo(finalAccuracy(R3), 15);
    expect(aiaWeighted(R3, [7, 7, 7])).toBeCloseTo(averageIncrementalAccuracy(R3), 15);
  });
  it('equals pooled accuracy computed from correct counts', () => {
    // 30/100 correct on task 0 and 180/200 on task 1 after step 1: pooled = 210/300 = 0.7
    const R = [
      [0.5, 0],
      [0.3, 0.9],
    ];
    expect(finalAccuracyWeighted(R, [100, 200])).toBeCloseTo(210 / 300, 15);
  });
  it('matches numpy on random matrices K = 1..10', () => {
    for (const c of cases) {
      expect(finalAccuracyWeighted(c.R, c.testCounts)).toBeCloseTo(c.expected.finalAccuracyWeighted, 12);
      expect(aiaWeighted(c.R, c.testCounts)).toBeCloseTo(c.expected.aiaWeighted, 12);
    }
  });
  it('rejects bad counts', () => {
    expect(() => finalAccuracyWeighted(R2, [100])).toThrow('testCounts must have one count per task (2) but has 1');
    expect(() => aiaWeighted(R2, [100, -1])).toThrow('testCounts[1] must be a positive integer');
  });
});
