import { describe, expect, it } from 'vitest';
import { closerToTruth, ownRsOrders, rangeError } from '../../../../src/core/own-classes/rs';
import { rsVerdict } from '../../../../src/core/own-classes/verdict';
import { runProtocols } from '../../../../src/core/protocols/run';
import { randomStatePermutation } from '../../../../src/core/random/random-state';

describe('RS on your classes', () => {
  it('draws each seed’s order as numpy’s permutation, as the Ground-truth lab does with one class per task', () => {
    const rs = ownRsOrders([0, 42, 1993], 4);
    expect(rs.map((r) => r.seed)).toEqual([0, 42, 1993]);
    for (const r of rs) expect(r.order).toEqual(randomStatePermutation(r.seed, 4));
    // the same orders the protocols report for 4 classes in 4 tasks of one
    const sim = { n: 4, data: new Float64Array(16).fill(0.5) };
    const report = runProtocols(sim, [1, 1, 1, 1], { protocols: ['rs'], rsSeeds: [0, 42, 1993] });
    expect(report.sequences.map((s) => s.tasks.map((t) => t[0]))).toEqual(rs.map((r) => r.order));
  });
  it('says which range is closer to the truth’s', () => {
    const truth = { min: 0.2, max: 0.8 };
    expect(rangeError({ min: 0.3, max: 0.7 }, truth)).toBeCloseTo(0.2);
    expect(closerToTruth({ min: 0.25, max: 0.8 }, { min: 0.5, max: 0.6 }, truth).closer).toBe('edge');
    expect(closerToTruth({ min: 0.5, max: 0.5 }, { min: 0.2, max: 0.7 }, truth).closer).toBe('rs');
    expect(closerToTruth({ min: 0.3, max: 0.8 }, { min: 0.2, max: 0.7 }, truth).closer).toBe('tie');
  });
  it('puts RS beside EDGE and the truth in words', () => {
    const s = { min: 0.2, max: 0.8 };
    const rs = [
      { seed: 0, order: [0, 1, 2], value: 0.5 },
      { seed: 42, order: [1, 0, 2], value: 0.6 },
    ];
    expect(rsVerdict(rs, { hard: 0.2, easy: 0.8 }, s)).toBe(
      'RS, the random orderings papers usually report (final accuracy seed 0: 50 %, seed 42: 60 %), spans 50 % to 60 %; EDGE’s two span 20 % to 80 %; the truth spans 20 % to 80 %: EDGE’s is closer to the truth’s range (off by 0 points at the two ends together; RS by 50 points).',
    );
    expect(rsVerdict(rs, { hard: 0.5, easy: 0.5 }, { min: 0.5, max: 0.6 })).toMatch(/EDGE’s two span all at 50 %.*RS’s is closer/);
    // over a sample the range is the sample's, not the truth's
    expect(rsVerdict(rs, { hard: 0.2, easy: 0.8 }, s, 'aia', false)).toMatch(
      /\(AIA seed 0: 50 %.*the sample spans 20 % to 80 %: EDGE’s is closer to the sample’s range/,
    );
  });
});
