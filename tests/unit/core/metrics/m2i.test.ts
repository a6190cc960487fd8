import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/metrics.json';
import { artefactBaselineAccuracy, m2iAccuracy, m2iBackwardTransfer, m2iForwardTransfer, m2iMetrics } from '../../../../src/core/metrics/m2i';
import { closeOrNull, R2, R3, type MetricsFixtureCase } from './hand-matrices';

const cases = fixture.cases as MetricsFixtureCase[];

describe('M2I/I2M metrics (docs/science.md §4)', () => {
  it('2×2 by hand', () => {
    // ACC = (0.9 + 0.6 + 0.8) / (2·3/2) = 2.3 / 3   (the printed N(N−1)/2 = 1 would give 2.3 > 1)
    expect(m2iAccuracy(R2)).toBeCloseTo(2.3 / 3, 15);
    // BWT (Eq. 2) = (R10 − R00) / (2·1/2) = −0.3 ; FWT = R01 / 1 = 0.1
    expect(m2iBackwardTransfer(R2)).toBeCloseTo(-0.3, 15);
    expect(m2iForwardTransfer(R2)).toBeCloseTo(0.1, 15);
  });
  it('3×3 by hand', () => {
    // ACC = 4.25 / 6 = 0.708333…
    // BWT = ((R10 − R00) + (R20 − R00) + (R21 − R11)) / 3 = (0.05 − 0.4 − 0.3) / 3 = −0.65 / 3 = −0.216666…
    //       (GEM's BWT, last row only, is −0.35)
    // FWT = (0.1 + 0.0 + 0.2) / 3 = 0.1
    expect(m2iMetrics(R3).accuracy).toBeCloseTo(4.25 / 6, 15);
    expect(m2iMetrics(R3).bwt).toBeCloseTo(-0.65 / 3, 15);
    expect(m2iMetrics(R3).fwt).toBeCloseTo(0.1, 15);
  });
  it('a perfect model scores ACC = 1 (the corrected denominator)', () => {
    const ones = Array.from({ length: 6 }, () => Array(6).fill(1));
    expect(m2iAccuracy(ones)).toBe(1);
  });
  it('K = 1: BWT and FWT are undefined (null)', () => {
    expect(m2iMetrics([[0.3]])).toEqual({ accuracy: 0.3, bwt: null, fwt: null });
  });
  it('matches numpy on random matrices K = 1..10', () => {
    for (const c of cases) {
      const got = m2iMetrics(c.R);
      expect(got.accuracy).toBeCloseTo(c.expected.m2i.accuracy, 12);
      expect(closeOrNull(got.bwt, c.expected.m2i.bwt), `bwt K=${c.K}`).toBe(true);
      expect(closeOrNull(got.fwt, c.expected.m2i.fwt), `fwt K=${c.K}`).toBe(true);
    }
  });
});

describe('artefact baseline ACC₀ (docs/science.md §8)', () => {
  it('3 tasks by hand', () => {
    // ACC₀ = (3·0.9 + 2·0.6 + 1·0.3) / 6 = (2.7 + 1.2 + 0.3) / 6 = 4.2 / 6 = 0.7
    expect(artefactBaselineAccuracy([0.9, 0.6, 0.3])).toBeCloseTo(0.7, 15);
    // reversed (hard first): (3·0.3 + 2·0.6 + 1·0.9) / 6 = 3.0 / 6 = 0.5 — easy-first wins with no transfer
    expect(artefactBaselineAccuracy([0.3, 0.6, 0.9])).toBeCloseTo(0.5, 15);
  });
  it('equals M2I ACC of a model with no transfer and no forgetting (R[i][j] = a_j for i ≥ j)', () => {
    const a = [0.95, 0.7, 0.85, 0.4, 0.6];
    const R = a.map((_, i) => a.map((aj, j) => (j <= i ? aj : 0)));
    expect(m2iAccuracy(R)).toBeCloseTo(artefactBaselineAccuracy(a), 15);
  });
  it('matches numpy', () => {
    for (const c of cases) expect(artefactBaselineAccuracy(c.isolated)).toBeCloseTo(c.expected.artefactBaseline, 12);
  });
  it('rejects bad input', () => {
    expect(() => artefactBaselineAccuracy([])).toThrow('ACC₀ needs one isolated-training accuracy per task');
    expect(() => artefactBaselineAccuracy([0.5, 1.5])).toThrow('isolated accuracy (a_j)[1] = 1.5 is outside [0,1]');
  });
});
