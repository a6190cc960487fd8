import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/edge.json';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { asClassSequence, asOrdering, asOrderings, asSequence } from '../../../../src/core/protocols/as';

describe('AS baseline (paper §E.4)', () => {
  for (const c of fixture.cases) {
    it(`equals the independent Python implementation: ${c.name}`, () => {
      const sim = matrixFromRows(c.sim);
      const res = asOrderings(sim, c.sizes);
      for (const aim of ['hard', 'easy'] as const) {
        expect(res[aim].sequence).toEqual(c.as[aim].sequence);
        expect(res[aim].tasks).toEqual(c.as[aim].tasks);
        expect(res[aim].score).toBeCloseTo(c.as[aim].score, 12);
      }
    });
  }

  it('first class: lowest (hard) / highest (easy) total similarity; then least / most similar to the chosen set', () => {
    // class 3 is isolated, class 0 central
    const sim = matrixFromRows([
      [1, 0.9, 0.8, 0.1],
      [0.9, 1, 0.5, 0.0],
      [0.8, 0.5, 1, 0.2],
      [0.1, 0.0, 0.2, 1],
    ]);
    // hard: start 3 (total 0.3); next least similar to {3}: 1 (0.0); then to {3,1}: 2 (0.7) vs 0 (1.0) → 2; then 0
    expect(asClassSequence(sim, 'hard')).toEqual([3, 1, 2, 0]);
    // easy: start 0 (total 1.8); next most similar to {0}: 1 (0.9); then to {0,1}: 2 (1.3); then 3
    expect(asClassSequence(sim, 'easy')).toEqual([0, 1, 2, 3]);
    expect(asOrdering(sim, [1, 3], 'hard').tasks).toEqual([[3], [0, 1, 2]]);
  });

  it('ties go to the lowest class index', () => {
    const n = 5;
    const sim = { n, data: new Float64Array(n * n).fill(0.3) };
    expect(asClassSequence(sim, 'hard')).toEqual([0, 1, 2, 3, 4]);
    expect(asClassSequence(sim, 'easy')).toEqual([0, 1, 2, 3, 4]);
  });

  it('Sequence helper and size check', () => {
    const c = fixture.cases[0];
    const sim = matrixFromRows(c.sim);
    const seq = asSequence(asOrdering(sim, c.sizes, 'easy'), 'easy', sim);
    expect([seq.protocol, seq.label]).toEqual(['as', 'AS easy']);
    expect(() => asOrdering(sim, [1, 1], 'hard')).toThrow(/sum to 2/);
  });
});
