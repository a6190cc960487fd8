import { describe, expect, it } from 'vitest';
import { accuracyByDistance, cellUsed, streamMetrics, STREAM_METRIC_KEYS } from '../../../../src/core/stream/metrics';
import { fx } from './fixture';

describe('stream metrics (CLEAR averages, nulls where streaming trains)', () => {
  it('equal numpy on the fixtures, both protocols', () => {
    expect(fx.metrics.length).toBe(12);
    for (const c of fx.metrics) {
      const got = streamMetrics(c.R, c.protocol);
      for (const key of STREAM_METRIC_KEYS) {
        const want = c.metrics[key];
        if (want === null) expect(got[key], `${c.protocol} K=${c.K} ${key}`).toBeNull();
        else expect(got[key], `${c.protocol} K=${c.K} ${key}`).toBeCloseTo(want, 12);
      }
      const d = accuracyByDistance(c.R, c.protocol);
      expect(d.map((p) => [p.distance, p.count])).toEqual(c.byDistance.map((p) => [p.distance, p.count]));
      d.forEach((p, q) => expect(p.mean).toBeCloseTo(c.byDistance[q].mean, 12));
    }
  });
  it('streaming reports only next-domain and forward', () => {
    const R = [
      [0.9, 0.5, 0.4],
      [0.8, 0.9, 0.6],
      [0.7, 0.8, 0.9],
    ];
    expect(streamMetrics(R, 'streaming')).toEqual({ inDomain: null, nextDomain: 0.55, backwardTransfer: null, forwardTransfer: 0.5, accuracy: null });
    expect(streamMetrics(R, 'iid').inDomain).toBeCloseTo(0.9, 12);
    expect(cellUsed('streaming', 1, 1)).toBe(false);
    expect(cellUsed('streaming', 1, 2)).toBe(true);
    expect(cellUsed('iid', 2, 0)).toBe(true);
  });
});
