import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/orderings.json';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { orderingToLabels } from '../../../../src/core/orderings/enumerate';
import { similarityPairMean, similarityScore, similarityScoreOfLabels } from '../../../../src/core/orderings/score';

describe('similarity score S (paper Eq. 5) and the per-pair mean', () => {
  it('equals numpy on random cosine matrices (equal and unequal task sizes)', () => {
    for (const { sim, sizes, cases } of fixture.scores) {
      const m = matrixFromRows(sim);
      for (const c of cases) {
        expect(similarityScore(c.tasks, m)).toBeCloseTo(c.score, 12);
        expect(similarityPairMean(c.tasks, m)).toBeCloseTo(c.pairMean, 12);
        if (sizes.length > 1) {
          const k = sizes.length;
          const n = sizes.reduce((a: number, b: number) => a + b, 0);
          const labels = orderingToLabels(c.tasks, sizes);
          expect(similarityScoreOfLabels(labels, m, k / ((k - 1) * n))).toBeCloseTo(c.score, 12);
        }
      }
    }
  });
  it('is K/((K−1)N) times the adjacent sum on a hand-made matrix', () => {
    const sim = matrixFromRows([
      [1, 0.5, 0.2, 0.1],
      [0.5, 1, 0.3, 0.4],
      [0.2, 0.3, 1, 0.9],
      [0.1, 0.4, 0.9, 1],
    ]);
    // tasks {0,1} then {2,3}: sum = .2+.1+.3+.4 = 1.0; K=2, N=4 → S = 2/(1·4)·1.0 = 0.5; pair mean = 1/4
    expect(
      similarityScore(
        [
          [0, 1],
          [2, 3],
        ],
        sim,
      ),
    ).toBeCloseTo(0.5, 15);
    expect(
      similarityPairMean(
        [
          [0, 1],
          [2, 3],
        ],
        sim,
      ),
    ).toBeCloseTo(0.25, 15);
  });
});
