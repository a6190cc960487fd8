import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/metrics.json';
import {
  CLEAR_LABELS,
  clearAccuracy,
  clearAverages,
  clearBwtAverage,
  clearFwtAverage,
  inDomainAccuracy,
  nextDomainAccuracy,
} from '../../../../src/core/metrics/clear';
import { closeOrNull, R2, R3, type MetricsFixtureCase } from './hand-matrices';

const cases = fixture.cases as MetricsFixtureCase[];

describe("CLEAR's raw averages (docs/science.md §4)", () => {
  it('2×2 by hand', () => {
    // Accuracy = (R00 + R10 + R11) / 3 = (0.9 + 0.6 + 0.8) / 3 = 2.3 / 3
    expect(clearAccuracy(R2)).toBeCloseTo(2.3 / 3, 15);
    // BwT = R10 / 1 = 0.6 ; FwT = R01 / 1 = 0.1
    expect(clearBwtAverage(R2)).toBeCloseTo(0.6, 15);
    expect(clearFwtAverage(R2)).toBeCloseTo(0.1, 15);
    // In-domain = (0.9 + 0.8) / 2 = 0.85 ; Next-domain = R01 = 0.1
    expect(inDomainAccuracy(R2)).toBeCloseTo(0.85, 15);
    expect(nextDomainAccuracy(R2)).toBeCloseTo(0.1, 15);
  });
  it('3×3 by hand', () => {
    // Accuracy = (0.8 + 0.85 + 0.9 + 0.4 + 0.6 + 0.7) / 6 = 4.25 / 6 = 0.708333…
    // BwT = (0.85 + 0.4 + 0.6) / 3 = 1.85 / 3 = 0.616666…   (an average accuracy, not a difference)
    // FwT = (0.1 + 0.0 + 0.2) / 3 = 0.1
    // In-domain = (0.8 + 0.9 + 0.7) / 3 = 0.8 ; Next-domain = (0.1 + 0.2) / 2 = 0.15
    const c = clearAverages(R3);
    expect(c.accuracy).toBeCloseTo(4.25 / 6, 15);
    expect(c.bwtAverage).toBeCloseTo(1.85 / 3, 15);
    expect(c.fwtAverage).toBeCloseTo(0.1, 15);
    expect(c.inDomainAccuracy).toBeCloseTo(0.8, 15);
    expect(c.nextDomainAccuracy).toBeCloseTo(0.15, 15);
  });
  it('K = 1: off-diagonal averages are undefined (null)', () => {
    expect(clearAverages([[0.7]])).toEqual({
      accuracy: 0.7,
      bwtAverage: null,
      fwtAverage: null,
      inDomainAccuracy: 0.7,
      nextDomainAccuracy: null,
    });
  });
  it('labels say they are averages', () => {
    expect(CLEAR_LABELS.bwtAverage).toMatch(/mean of R below the diagonal.*average, not a difference/);
    expect(CLEAR_LABELS.fwtAverage).toMatch(/mean of R above the diagonal.*average, not a difference/);
    expect(Object.keys(CLEAR_LABELS).sort()).toEqual(Object.keys(clearAverages(R2)).sort());
  });
  it('matches numpy on random matrices K = 1..10', () => {
    for (const c of cases) {
      const got = clearAverages(c.R);
      const want = c.expected.clear;
      for (const key of Object.keys(want) as (keyof typeof want)[]) {
        expect(closeOrNull(got[key], want[key]), `${key} K=${c.K} ${c.kind}`).toBe(true);
      }
    }
  });
  it('rejects bad matrices', () => {
    expect(() => clearAverages([])).toThrow('accuracy matrix is empty');
  });
});
