import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/metrics.json';
import * as metrics from '../../../../src/core/metrics';
import { allMetrics } from '../../../../src/core/metrics';
import { closeOrNull, R3, type MetricsFixtureCase } from './hand-matrices';

const cases = fixture.cases as MetricsFixtureCase[];

describe('allMetrics', () => {
  it('3×3 by hand (values from the per-file tests)', () => {
    const m = allMetrics(R3, { untrained: [0.1, 0.1, 0.1], testCounts: [100, 200, 100] });
    expect(m.finalAccuracy).toBeCloseTo(1.7 / 3, 15);
    expect(m.aia).toBeCloseTo((0.8 + 0.875 + 1.7 / 3) / 3, 15);
    expect(m.finalAccuracyWeighted).toBeCloseTo(0.575, 15);
    expect(m.aiaWeighted).toBeCloseTo((0.8 + 265 / 300 + 0.575) / 3, 15);
    expect(m.bwt).toBeCloseTo(-0.35, 15);
    expect(m.forgetting).toBeCloseTo(0.375, 15);
    expect(m.fwt).toBeCloseTo(0.05, 15);
    expect(m.clear.accuracy).toBeCloseTo(4.25 / 6, 15);
    expect(m.clear.nextDomainAccuracy).toBeCloseTo(0.15, 15);
    expect(m.m2i.bwt).toBeCloseTo(-0.65 / 3, 15);
  });
  it('FWT and the weighted accuracies are null without their inputs', () => {
    const m = allMetrics(R3);
    expect(m.fwt).toBeNull();
    expect(m.finalAccuracyWeighted).toBeNull();
    expect(m.aiaWeighted).toBeNull();
  });
  it('K = 1: every metric needing two tasks is null; the rest is R[0][0]', () => {
    expect(allMetrics([[0.6]], { untrained: [0.1], testCounts: [50] })).toEqual({
      finalAccuracy: 0.6,
      aia: 0.6,
      finalAccuracyWeighted: 0.6,
      aiaWeighted: 0.6,
      bwt: null,
      forgetting: null,
      fwt: null,
      clear: { accuracy: 0.6, bwtAverage: null, fwtAverage: null, inDomainAccuracy: 0.6, nextDomainAccuracy: null },
      m2i: { accuracy: 0.6, bwt: null, fwt: null },
    });
  });
  it('is JSON-serialisable (the CLI prints it)', () => {
    const m = allMetrics(R3);
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  });
  it('matches numpy on every fixture case', () => {
    for (const c of cases) {
      const m = allMetrics(c.R, { untrained: c.untrained, testCounts: c.testCounts });
      const e = c.expected;
      const flat: [string, number | null, number | null][] = [
        ['finalAccuracy', m.finalAccuracy, e.finalAccuracy],
        ['aia', m.aia, e.aia],
        ['finalAccuracyWeighted', m.finalAccuracyWeighted, e.finalAccuracyWeighted],
        ['aiaWeighted', m.aiaWeighted, e.aiaWeighted],
        ['bwt', m.bwt, e.bwt],
        ['forgetting', m.forgetting, e.forgetting],
        ['fwt', m.fwt, e.fwt],
        ['m2i.accuracy', m.m2i.accuracy, e.m2i.accuracy],
        ['m2i.bwt', m.m2i.bwt, e.m2i.bwt],
        ['m2i.fwt', m.m2i.fwt, e.m2i.fwt],
        ['clear.accuracy', m.clear.accuracy, e.clear.accuracy],
        ['clear.bwtAverage', m.clear.bwtAverage, e.clear.bwtAverage],
        ['clear.fwtAverage', m.clear.fwtAverage, e.clear.fwtAverage],
        ['clear.inDomainAccuracy', m.clear.inDomainAccuracy, e.clear.inDomainAccuracy],
        ['clear.nextDomainAccuracy', m.clear.nextDomainAccuracy, e.clear.nextDomainAccuracy],
      ];
      for (const [name, got, want] of flat) expect(closeOrNull(got, want), `${name} K=${c.K} ${c.kind}`).toBe(true);
    }
    expect(cases.map((c) => c.K)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
  });
  it('rejects a bad matrix before anything else', () => {
    expect(() => allMetrics([[0.5, 0.2]])).toThrow('must be square');
    expect(() => allMetrics([[95]])).toThrow('not percentages');
  });
  it('index re-exports every metric', () => {
    for (const name of [
      'finalAccuracy',
      'averageIncrementalAccuracy',
      'finalAccuracyWeighted',
      'aiaWeighted',
      'backwardTransfer',
      'forgetting',
      'forwardTransfer',
      'clearAverages',
      'm2iMetrics',
      'artefactBaselineAccuracy',
      'validateAccuracyMatrix',
      'AccuracyMatrixError',
    ])
      expect(typeof (metrics as Record<string, unknown>)[name]).toBe('function');
  });
});
