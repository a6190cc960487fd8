import { describe, expect, it } from 'vitest';
import fixture from '../../../fixtures/compare.json';
import { matrixFromRows } from '../../../../src/core/orderings/matrix';
import { edgeOrderings } from '../../../../src/core/protocols/edge';
import {
  averageRanks,
  compareSimilarities,
  maxWeightMatching,
  offDiagonalMae,
  spearmanRho,
  taskAgreement,
  upperTriangle,
} from '../../../../src/core/similarity/compare';
import { cosineSimilarity } from '../../../../src/core/similarity/cosine';
import { SimilarityError } from '../../../../src/core/similarity/validate';

type MatrixCase = { name: string; a: number[][]; b: number[][]; mae: number; spearman: number | null; pairCount: number };
type PartitionCase = { n: number; taskSizes: number[]; a: number[][]; b: number[][]; matched: number; share: number; method: string };

describe('against numpy/scipy (tests/fixtures/compare.json)', () => {
  it('says how it was made', () => {
    expect(fixture._note).toMatch(/make-compare-fixtures\.py/);
  });

  for (const c of fixture.matrices as MatrixCase[]) {
    it(`MAE and Spearman ρ over pairs i < j: ${c.name}`, () => {
      const a = matrixFromRows(c.a);
      const b = matrixFromRows(c.b);
      expect(upperTriangle(a)).toHaveLength(c.pairCount);
      expect(offDiagonalMae(a, b)).toBeCloseTo(c.mae, 12);
      const rho = spearmanRho(upperTriangle(a), upperTriangle(b));
      if (c.spearman === null) expect(rho).toBeNaN();
      else expect(rho).toBeCloseTo(c.spearman, 12);
    });
  }

  for (const c of fixture.partitions as PartitionCase[]) {
    it(`CSG matching step: n=${c.n}, K=${c.taskSizes.length} (${c.method})`, () => {
      const got = taskAgreement(c.a, c.b);
      expect(got.matched).toBe(c.matched);
      expect(got.share).toBeCloseTo(c.share, 15);
      // the returned matching is a permutation that reaches the total
      expect([...got.match].sort((x, y) => x - y)).toEqual(c.a.map((_, i) => i));
      let total = 0;
      got.match.forEach((t, s) => (total += c.a[s].filter((x) => c.b[t].includes(x)).length));
      expect(total).toBe(c.matched);
    });
  }
});

describe('averageRanks / spearmanRho', () => {
  it('gives ties their average rank (scipy rankdata "average")', () => {
    expect([...averageRanks([10, 20, 10, 30, 20, 20])]).toEqual([1.5, 4, 1.5, 6, 4, 4]);
    expect([...averageRanks([])]).toEqual([]);
  });
  it('is 1 for monotone, −1 for reversed, NaN for constant or too short', () => {
    expect(spearmanRho([1, 2, 3, 4], [1, 4, 9, 16])).toBe(1);
    expect(spearmanRho([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(spearmanRho([1, 2, 3], [5, 5, 5])).toBeNaN();
    expect(spearmanRho([1], [2])).toBeNaN();
    expect(() => spearmanRho([1, 2], [1])).toThrow(RangeError);
  });
});

describe('maxWeightMatching (Hungarian)', () => {
  it('finds the optimum where greedy would not', () => {
    // greedy takes (0,0)=5 then (1,1)=0: total 5; the optimum is (0,1)+(1,0) = 4+4 = 8
    expect(
      maxWeightMatching([
        [5, 4],
        [4, 0],
      ]),
    ).toEqual({ match: [1, 0], total: 8 });
  });
  it('agrees with brute force on random 6×6 matrices', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % 10);
    const perms = (n: number): number[][] =>
      n === 0 ? [[]] : perms(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
    const all = perms(6);
    for (let trial = 0; trial < 30; trial++) {
      const w = Array.from({ length: 6 }, () => Array.from({ length: 6 }, rand));
      let best = -1;
      for (const p of all)
        best = Math.max(
          best,
          p.reduce((s, c, r) => s + w[r][c], 0),
        );
      expect(maxWeightMatching(w).total).toBe(best);
    }
  });
  it('handles K = 1 and K = 0', () => {
    expect(maxWeightMatching([[3]])).toEqual({ match: [0], total: 3 });
    expect(maxWeightMatching([])).toEqual({ match: [], total: 0 });
  });
});

describe('taskAgreement input checks', () => {
  it('needs the same number of tasks and the same classes', () => {
    expect(() =>
      taskAgreement(
        [
          [0, 1],
          [2, 3],
        ],
        [[0, 1, 2, 3]],
      ),
    ).toThrow('The two orderings have 2 and 1 tasks; CSG needs the same number.');
    expect(() =>
      taskAgreement(
        [
          [0, 1],
          [2, 3],
        ],
        [
          [0, 1],
          [2, 9],
        ],
      ),
    ).toThrow('Class 9 is in the second ordering but not in the first.');
    expect(() =>
      taskAgreement(
        [
          [0, 1],
          [2, 3],
        ],
        [[0, 1], [2]],
      ),
    ).toThrow(/hold 4 and 3 classes/);
  });
});

describe('compareSimilarities end to end', () => {
  const emb = [
    [1, 0.1, 0],
    [0.9, 0.2, 0.1],
    [0, 1, 0.1],
    [0.1, 0.9, 0.2],
    [0, 0.1, 1],
    [0.2, 0, 0.9],
    [0.5, 0.5, 0],
    [0, 0.5, 0.5],
  ];
  const sim = cosineSimilarity(emb);

  it('two sources that agree: MAE 0, ρ 1, CSG 1 (hard and easy)', () => {
    const c = compareSimilarities(sim, matrixFromRows(Array.from({ length: 8 }, (_, i) => Array.from(sim.data.slice(i * 8, i * 8 + 8)))), [2, 2, 2, 2]);
    expect(c.n).toBe(8);
    expect(c.pairCount).toBe(28);
    expect(c.pairs).toHaveLength(28);
    expect(c.pairs[0]).toEqual({ i: 0, j: 1, a: sim.data[1], b: sim.data[1] });
    expect(c.mae).toBe(0);
    expect(c.spearman).toBe(1);
    expect(c.csgHard).toBe(1);
    expect(c.csgEasy).toBe(1);
    expect(c.csg).toBe(c.csgHard);
  });

  it('uses the EDGE orderings of each matrix and matches their tasks', () => {
    const rows = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => (i === j ? 1 : 0.5 + 0.4 * Math.cos(i * 3 + j * 3))));
    const other = matrixFromRows(rows);
    const c = compareSimilarities(sim, other, [2, 2, 2, 2]);
    const ea = edgeOrderings(sim, [2, 2, 2, 2]);
    const eb = edgeOrderings(other, [2, 2, 2, 2]);
    expect(c.hard.a).toEqual(ea.hard.tasks);
    expect(c.hard.b).toEqual(eb.hard.tasks);
    expect(c.easy.a).toEqual(ea.easy.tasks);
    expect(c.csgHard).toBe(taskAgreement(ea.hard.tasks, eb.hard.tasks).share);
    expect(c.csgEasy).toBe(taskAgreement(ea.easy.tasks, eb.easy.tasks).share);
    expect(c.csgHard).toBeGreaterThanOrEqual(0);
    expect(c.csgHard).toBeLessThanOrEqual(1);
    // a relabelling-invariant metric: swapping the two matrices gives the same numbers
    const d = compareSimilarities(other, sim, [2, 2, 2, 2]);
    expect(d.mae).toBe(c.mae);
    expect(d.spearman).toBeCloseTo(c.spearman, 14);
    expect(d.csgHard).toBe(c.csgHard);
  });

  it('rejects matrices of different sizes or with non-finite entries', () => {
    const small = cosineSimilarity(emb.slice(0, 4));
    expect(() => compareSimilarities(sim, small, [2, 2])).toThrow(SimilarityError);
    expect(() => compareSimilarities(sim, small, [2, 2])).toThrow('The two similarity matrices cover different numbers of classes: 8 and 4.');
    const bad = matrixFromRows([
      [1, NaN],
      [NaN, 1],
    ]);
    expect(() => offDiagonalMae(bad, bad)).toThrow('Entry (0, 1) of the first similarity matrix is NaN.');
  });
});
