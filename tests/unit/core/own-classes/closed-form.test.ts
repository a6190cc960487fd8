/**
 * The closed-form heads grown one class at a time (src/core/own-classes/closed-form.ts) against the Ground-truth
 * lab's evaluator on the whole set (src/core/ptm, itself checked against numpy in its own tests): row t after
 * adding class t equals the evaluator's counts for the set {0..t} with class t the last task, for SimpleCIL, NCM,
 * FeCAM and RanPAC (its dual form, and the primal form grown in place above RANPAC_DUAL_ROWS); the per-class
 * methods' score matrix equals prototypeScores / fecamScores bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { closedFormHead, RANPAC_DUAL_ROWS } from '../../../../src/core/own-classes/closed-form';
import type { FeatureSet } from '../../../../src/core/features/feature-set';
import { addToMask, maskMembers } from '../../../../src/core/ptm/class-set';
import type { PtmStrategy } from '../../../../src/core/ptm/defaults';
import { preparePtm } from '../../../../src/core/ptm/ground-truth';
import { fecamScores } from '../../../../src/core/ptm/fecam';
import { ptmProblem } from '../../../../src/core/ptm/problem';
import { prototypeScores } from '../../../../src/core/ptm/prototypes';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';

/** Class k's train and test rows of a feature set. */
function rowsOf(set: FeatureSet, k: number) {
  const pick = (split: number) => {
    const out: number[] = [];
    for (let i = 0; i < set.n; i++) if (set.labels[i] === k && set.split[i] === split) out.push(...set.features.subarray(i * set.d, (i + 1) * set.d));
    return Float32Array.from(out);
  };
  return { train: pick(0), test: pick(1) };
}

/** The evaluator's row t of the teaching order: correct counts of the set {0..t}, class t the last task. */
function evaluatorRows(set: FeatureSet, strategy: PtmStrategy, seed: number): number[][] {
  const C = set.classNames.length;
  const ev = preparePtm({ features: set, classes: Array.from({ length: C }, (_, k) => k), strategy, seed });
  const mask = new Uint32Array(Math.ceil(C / 32));
  return Array.from({ length: C }, (_, t) => {
    addToMask(mask, [t]);
    const counts = ev.correctCounts(mask, maskMembers(mask, C), [t]);
    return Array.from({ length: t + 1 }, (_, p) => counts[p]);
  });
}

const set = syntheticFeatures({ classes: 7, dims: 12, trainPerClass: 9, testPerClass: 5, separation: 0.35, seed: 4 });

describe('closed-form heads taught one class at a time', () => {
  const strategies: PtmStrategy[] = [
    { id: 'simplecil', options: { metric: 'cosine' } },
    { id: 'simplecil', options: { metric: 'euclidean' } },
    { id: 'fecam', options: { shrinkage: 1 } },
    { id: 'ranpac', options: { projection: 64, lambdaFrom: 'task' } },
  ];
  for (const strategy of strategies) {
    it(`${strategy.id} ${JSON.stringify(strategy.options)}: row t is the evaluator's for the classes 0..t`, () => {
      const head = closedFormHead(strategy, set.d, 3);
      const want = evaluatorRows(set, strategy, 3);
      const some = new Set<number>();
      for (let t = 0; t < 7; t++) {
        const step = head.add(rowsOf(set, t))!;
        expect(step.correct).toEqual(want[t]);
        expect(step.testCounts).toEqual(new Array(t + 1).fill(5));
        expect(step.row).toEqual(want[t].map((n) => n / 5));
        for (const x of step.row) some.add(x);
      }
      // the data is hard enough that the rows are not all 100 %
      expect(some.size).toBeGreaterThan(2);
      expect(head.classes).toBe(7);
    });
  }

  it('keeps the per-class methods’ score matrix, bit for bit the batch scores', () => {
    const problem = ptmProblem(set, [0, 1, 2, 3, 4, 5, 6]);
    for (const [strategy, batch] of [
      [{ id: 'simplecil', options: { metric: 'cosine' } }, prototypeScores(problem, 'cosine')],
      [{ id: 'simplecil', options: { metric: 'euclidean' } }, prototypeScores(problem, 'euclidean')],
      [{ id: 'fecam', options: { shrinkage: 1 } }, fecamScores(problem, 1).map((x) => -x)],
    ] as [PtmStrategy, Float64Array][]) {
      const head = closedFormHead(strategy, set.d, 0);
      for (let t = 0; t < 7; t++) head.add(rowsOf(set, t), false);
      const s = head.scores()!;
      expect(Array.from(s.testStart)).toEqual([0, 5, 10, 15, 20, 25, 30, 35]);
      expect(Array.from(s.scores)).toEqual(Array.from(batch));
    }
    expect(closedFormHead({ id: 'ranpac', options: { projection: 8, lambdaFrom: 'task' } }, set.d, 0).scores()).toBeNull();
  });

  it('grows RanPAC in the primal form above RANPAC_DUAL_ROWS training rows, with the evaluator’s numbers', () => {
    // 3 classes of 400 training rows: 800 rows after class 2 (dual), 1 200 after class 3 (primal, M = 40 < rows)
    const big = syntheticFeatures({ classes: 3, dims: 6, trainPerClass: 400, testPerClass: 20, separation: 0.25, seed: 9 });
    expect(2 * 400).toBeLessThanOrEqual(RANPAC_DUAL_ROWS);
    expect(3 * 400).toBeGreaterThan(RANPAC_DUAL_ROWS);
    const strategy: PtmStrategy = { id: 'ranpac', options: { projection: 40, lambdaFrom: 'task' } };
    const head = closedFormHead(strategy, big.d, 1);
    const want = evaluatorRows(big, strategy, 1);
    for (let t = 0; t < 3; t++) expect(head.add(rowsOf(big, t))!.correct).toEqual(want[t]);
  });

  it('refuses a class without enough samples, in words', () => {
    const head = closedFormHead({ id: 'simplecil', options: { metric: 'cosine' } }, 2, 0);
    expect(() => head.add({ train: [1, 0], test: [1, 0] })).toThrow(/1 training samples; every class needs at least 2/);
    expect(() => head.add({ train: [1, 0, 0, 1], test: [] })).toThrow(/no test samples/);
    expect(() => closedFormHead({ id: 'fecam', options: { shrinkage: 0 } }, 2, 0).add({ train: [1, 0, 1, 0, 1, 0], test: [1, 0] })).toThrow(/singular/);
  });
});
