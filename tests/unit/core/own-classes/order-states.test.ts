/**
 * Every ordering by class-set states (src/core/own-classes/order-states.ts) against the Ground-truth lab's own
 * assembly of every ordering's R (runPtmGroundTruth, src/core/ptm/ground-truth.ts): the same final accuracy and AIA
 * for each of the C! orderings, in rank order; a seeded sample; where the taught order lands.
 */
import { describe, expect, it } from 'vitest';
import { closedFormHead } from '../../../../src/core/own-classes/closed-form';
import {
  countAbove,
  factorialText,
  numbersOfOrders,
  orderingsOverview,
  rankOfOrder,
  scorerOfEvaluator,
  scorerOfScores,
  type StateScorer,
} from '../../../../src/core/own-classes/order-states';
import type { FeatureSet } from '../../../../src/core/features/feature-set';
import type { PtmStrategy } from '../../../../src/core/ptm/defaults';
import { allOrderings, preparePtm, runPtmGroundTruth, type PtmRunRecord } from '../../../../src/core/ptm/ground-truth';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';

const set = syntheticFeatures({ classes: 5, dims: 10, trainPerClass: 8, testPerClass: 4, separation: 0.3, seed: 11 });
const C = 5;
const testCounts = new Array(C).fill(4);
const classes = [0, 1, 2, 3, 4];

async function truthOf(strategy: PtmStrategy): Promise<PtmRunRecord[]> {
  const evaluator = preparePtm({ features: set, classes, strategy, seed: 2 });
  const records: PtmRunRecord[] = [];
  await runPtmGroundTruth(
    { evaluator, taskSizes: [1, 1, 1, 1, 1], orderings: allOrderings([1, 1, 1, 1, 1], 1000).orderings },
    { onRecord: (r) => records.push(r) },
  );
  return records;
}

function scorerOf(strategy: PtmStrategy, viaScores: boolean, s: FeatureSet = set): StateScorer {
  if (!viaScores) return scorerOfEvaluator(preparePtm({ features: s, classes: s.classNames.map((_, k) => k), strategy, seed: 2 }));
  const head = closedFormHead(strategy, s.d, 2);
  for (let k = 0; k < s.classNames.length; k++) {
    const pick = (split: number) => {
      const out: number[] = [];
      for (let i = 0; i < s.n; i++) if (s.labels[i] === k && s.split[i] === split) out.push(...s.features.subarray(i * s.d, (i + 1) * s.d));
      return out;
    };
    head.add({ train: pick(0), test: pick(1) }, false);
  }
  const sc = head.scores()!;
  return scorerOfScores(sc.scores, sc.testStart);
}

describe('every ordering of a closed-form head, by class-set states', () => {
  for (const [strategy, viaScores] of [
    [{ id: 'simplecil', options: { metric: 'cosine' } }, true],
    [{ id: 'fecam', options: { shrinkage: 1 } }, true],
    [{ id: 'fecam', options: { shrinkage: 1 } }, false],
    [{ id: 'ranpac', options: { projection: 32, lambdaFrom: 'task' } }, false],
  ] as [PtmStrategy, boolean][]) {
    it(`${strategy.id} (${viaScores ? 'score matrix' : 'evaluator'}): each ordering's final accuracy and AIA are the ground truth's`, async () => {
      const truth = await truthOf(strategy);
      const o = await orderingsOverview(testCounts, scorerOf(strategy, viaScores), null);
      expect(o.exact).toBe(true);
      expect(o.orderings).toBe(120);
      expect(o.omega).toBe('120');
      for (let i = 0; i < 120; i++) {
        expect(o.finals[i]).toBeCloseTo(truth[i].finalAccuracy, 12);
        expect(o.aias[i]).toBeCloseTo(truth[i].aia, 12);
      }
      // the sets of 5 classes: at most 31 states (RanPAC: a set with each λ its last class chose)
      if (strategy.id !== 'ranpac') expect(o.states).toBe(31);
      const aias = truth.map((r) => r.aia);
      expect(o.aia.min).toBeCloseTo(Math.min(...aias), 12);
      expect(o.aia.max).toBeCloseTo(Math.max(...aias), 12);
      expect(o.aia.mean).toBeCloseTo(aias.reduce((a, b) => a + b, 0) / 120, 12);
      expect(o.taught.aia).toBeCloseTo(truth[0].aia, 12);
      expect(o.taught.betterAia).toBe(aias.filter((a) => a > truth[0].aia + 1e-12).length);
      // the picks' numbers are those of their rank
      const picks = numbersOfOrders([[4, 2, 0, 1, 3]], testCounts, scorerOf(strategy, viaScores));
      const r = rankOfOrder([4, 2, 0, 1, 3]);
      expect(picks[0].aia).toBeCloseTo(truth[r].aia, 12);
    });
  }

  it('varies in AIA while the final accuracy of a per-class method is the same in every order', async () => {
    const o = await orderingsOverview(testCounts, scorerOf({ id: 'simplecil', options: { metric: 'cosine' } }, true), null);
    expect(o.final.max - o.final.min).toBeLessThan(1e-12);
    expect(o.aia.max - o.aia.min).toBeGreaterThan(0.02);
  });

  it('draws a seeded sample beyond the exact bound and places the taught order against it', async () => {
    const scorer = scorerOf({ id: 'simplecil', options: { metric: 'cosine' } }, true);
    const a = await orderingsOverview(testCounts, scorer, { count: 30, seed: 7 });
    const b = await orderingsOverview(testCounts, scorer, { count: 30, seed: 7 });
    expect(a.exact).toBe(false);
    expect(a.orderings).toBe(30);
    expect(a.orders).toEqual(b.orders);
    expect(new Set(a.orders!.map((x) => x.join())).size).toBe(30);
    const truth = await truthOf({ id: 'simplecil', options: { metric: 'cosine' } });
    a.orders!.forEach((order, i) => expect(a.aias[i]).toBeCloseTo(truth[rankOfOrder(order)].aia, 12));
    expect(a.taught.aia).toBeCloseTo(truth[0].aia, 12);
    expect(a.taught.betterAia).toBe(countAbove(a.aias, a.taught.aia));
  });

  it('enumerates 8 classes’ 40 320 orderings from at most 2⁸ − 1 states', async () => {
    const eight = syntheticFeatures({ classes: 8, dims: 6, trainPerClass: 4, testPerClass: 3, separation: 0.3, seed: 1 });
    const progress: number[] = [];
    const o = await orderingsOverview(new Array(8).fill(3), scorerOf({ id: 'simplecil', options: { metric: 'euclidean' } }, true, eight), null, {
      onProgress: (done) => progress.push(done),
      checkEvery: 10_000,
    });
    expect(o.orderings).toBe(40_320);
    expect(o.states).toBe(255);
    expect(progress.at(-1)).toBe(40_320);
    await expect(orderingsOverview(new Array(9).fill(3), scorerOf({ id: 'simplecil', options: { metric: 'cosine' } }, true), null)).rejects.toThrow(
      /362880 orderings/,
    );
  });

  it('writes C! exactly while it fits, then in scientific notation', () => {
    expect(factorialText(8)).toBe('40320');
    expect(factorialText(18)).toBe('6402373705728000');
    expect(factorialText(19)).toBe('1.21e17');
  });
});
