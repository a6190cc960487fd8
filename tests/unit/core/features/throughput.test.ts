import { describe, expect, it } from 'vitest';
import { throughput } from '../../../../src/core/features/throughput';

describe('throughput', () => {
  it('gives images per second since the start and the time left at that rate', () => {
    expect(throughput(50, 200, 1000, 3000)).toEqual({ done: 50, total: 200, perSecond: 25, secondsLeft: 6 });
  });
  it('has no rate before the first image, and nothing left when done', () => {
    expect(throughput(0, 200, 1000, 3000)).toEqual({ done: 0, total: 200, perSecond: null, secondsLeft: null });
    expect(throughput(10, 10, 1000, 1000)).toEqual({ done: 10, total: 10, perSecond: null, secondsLeft: 0 });
  });
});
