import { describe, expect, it } from 'vitest';
import { countOrderings } from '../../../../src/core/orderings/count';
import { orderingKey } from '../../../../src/core/orderings/key';
import { sampleOrderingsByShuffle } from '../../../../src/core/orderings/sample';
import type { PtmStrategy } from '../../../../src/core/ptm/defaults';
import { directRunner } from '../../../../src/core/ptm/direct-run';
import { allOrderings, preparePtm, runPtmGroundTruth, sampledOrderings, type PtmRunRecord } from '../../../../src/core/ptm/ground-truth';
import { PtmInputError } from '../../../../src/core/ptm/problem';
import { syntheticFeatures } from '../../../../src/core/ptm/synthetic';

// Property: for any ordering, the accuracies assembled from the cache by class set equal a direct step-by-step run's.
const features = syntheticFeatures({ classes: 9, dims: 10, trainPerClass: 12, testPerClass: 15, separation: 0.4, seed: 21 });
const classes = [8, 2, 5, 0, 7, 3, 1, 6]; // label ids, not in label order; class 4 left out
const STRATEGIES: [string, PtmStrategy][] = [
  ['SimpleCIL', { id: 'simplecil', options: { metric: 'cosine' } }],
  ['NCM', { id: 'simplecil', options: { metric: 'euclidean' } }],
  ['FeCAM', { id: 'fecam', options: { shrinkage: 1 } }],
  ['RanPAC, λ from the last task, primal', { id: 'ranpac', options: { projection: 20, lambdaFrom: 'task' } }],
  ['RanPAC, λ from every seen class, primal', { id: 'ranpac', options: { projection: 20, lambdaFrom: 'seen' } }],
  ['RanPAC, λ from the last task, dual', { id: 'ranpac', options: { projection: 100, lambdaFrom: 'task' } }],
];

async function collect(strategy: PtmStrategy, sizes: number[], orderings: Iterable<number[][]>, cacheBytes?: number) {
  const evaluator = preparePtm({ features, classes, strategy, seed: 4 });
  const records: PtmRunRecord[] = [];
  const summary = await runPtmGroundTruth({ evaluator, taskSizes: sizes, orderings, cacheBytes }, { onRecord: (r) => records.push(r) });
  return { evaluator, records, summary };
}

describe.each(STRATEGIES)('%s: cache by class set = a direct run, ordering by ordering', (_name, strategy) => {
  it.each([
    [[2, 2, 2, 2], 6, 1],
    [[3, 1, 4], 5, 2],
    [[1, 1, 1, 1, 1, 1, 1, 1], 4, 3],
  ])('task sizes %j: %i seeded random orderings (sample seed %i)', async (sizes, count, seed) => {
    const orderings = sampleOrderingsByShuffle(sizes, count, seed);
    const { evaluator, records } = await collect(strategy, sizes, orderings);
    const direct = directRunner(evaluator.problem, strategy, 4);
    orderings.forEach((o, k) => {
      expect(records[k].matrix, records[k].orderingKey).toEqual(direct(o).matrix);
      expect(records[k].tasks).toEqual(o.map((t) => t.map((p) => classes[p]).sort((a, b) => a - b)));
    });
  });
});

describe('the exact ground truth', () => {
  it('8 classes in 4 tasks: 2 520 orderings from 127 sets (28 + 70 + 28 + 1); SimpleCIL’s final accuracy is one number, its AIA is not', async () => {
    const sizes = [2, 2, 2, 2];
    const { records, summary } = await collect(STRATEGIES[0][1], sizes, allOrderings(sizes, 10_000).orderings);
    expect(records.length).toBe(Number(countOrderings(sizes)));
    expect(summary.cache.computed).toBe(127);
    expect(summary.path).toBe('exact by class set: 127 states for 2 520 orderings');
    expect(new Set(records.map((r) => r.finalAccuracy)).size).toBe(1);
    expect(new Set(records.map((r) => r.aia)).size).toBeGreaterThan(10);
    expect(new Set(records.map((r) => r.orderingKey)).size).toBe(records.length);
    for (const r of records.slice(0, 50)) expect(r.orderingKey).toBe(orderingKey(r.tasks));
  });
  it('RanPAC (λ from the last task) caches by (set, λ): at least one state per set, final accuracy decided by the last task', async () => {
    const sizes = [4, 4];
    const { records, summary } = await collect(STRATEGIES[3][1], sizes, allOrderings(sizes, 100).orderings);
    expect(records.length).toBe(70);
    expect(summary.cache.computed).toBeGreaterThanOrEqual(71);
    expect(summary.stateRule).toMatch(/λ its last task chose/);
    const byLast = new Map<string, Set<number>>();
    for (const r of records) byLast.set(r.orderingKey.split('|')[1], (byLast.get(r.orderingKey.split('|')[1]) ?? new Set()).add(r.finalAccuracy));
    for (const finals of byLast.values()) expect(finals.size).toBe(1);
  });
  it('refuses an Ω beyond the limit with its size', () => {
    expect(() => allOrderings([2, 2, 2, 2, 2], 1000)).toThrow(/113 400 orderings, more than the limit of 1 000/);
  });
});

describe('a bounded cache', () => {
  it('evicts the oldest states, recomputes them when needed again, and gives the same records', async () => {
    const sizes = [2, 2, 2, 2];
    const orderings = sampledOrderings(sizes, 300, 7).orderings;
    const free = await collect(STRATEGIES[2][1], sizes, orderings);
    const tight = await collect(STRATEGIES[2][1], sizes, orderings, 4 * (4 * 8 + 400)); // room for 4 states
    expect(tight.summary.cache.maxEntries).toBe(4);
    expect(tight.summary.cache.peakEntries).toBe(4);
    expect(tight.summary.cache.evictions).toBeGreaterThan(0);
    expect(tight.summary.cache.computed).toBeGreaterThan(free.summary.cache.computed);
    expect(tight.summary.path).toMatch(/the cache holds at most 4; [\d ]+ were dropped/);
    expect(tight.records).toEqual(free.records);
  });
});

describe('hooks: progress, checkpoints, cancellation', () => {
  it('reports progress, awaits the checkpoint between orderings, and stops when it throws', async () => {
    const evaluator = preparePtm({ features, classes, strategy: STRATEGIES[0][1], seed: 0 });
    const progress: number[] = [];
    let checks = 0;
    const summary = await runPtmGroundTruth(
      { evaluator, taskSizes: [4, 4], ...allOrderings([4, 4], 100) },
      { onProgress: (p) => progress.push(p.done), checkpoint: () => void checks++, checkEvery: 10, progressEvery: 30 },
    );
    expect(summary.orderings).toBe(70);
    expect(progress).toEqual([30, 60, 70]);
    expect(checks).toBeGreaterThanOrEqual(7);
    let seen = 0;
    await expect(
      runPtmGroundTruth(
        { evaluator, taskSizes: [4, 4], ...allOrderings([4, 4], 100) },
        {
          onRecord: () => seen++,
          checkpoint: () => {
            if (seen >= 20) throw new Error('cancelled');
          },
          checkEvery: 5,
        },
      ),
    ).rejects.toThrow('cancelled');
    expect(seen).toBeLessThan(70);
  });
});

describe('bad input gets one clear sentence', () => {
  it('classes and task sizes', async () => {
    expect(() => preparePtm({ features, classes: [0, 0], strategy: STRATEGIES[0][1], seed: 0 })).toThrow(PtmInputError);
    expect(() => preparePtm({ features, classes: [0, 12], strategy: STRATEGIES[0][1], seed: 0 })).toThrow(
      /Class 12 is not in the feature set, whose labels are 0–8/,
    );
    const evaluator = preparePtm({ features, classes: [0, 1, 2], strategy: STRATEGIES[0][1], seed: 0 });
    await expect(runPtmGroundTruth({ evaluator, taskSizes: [2, 2], orderings: [] })).rejects.toThrow(/do not add up to the 3 classes/);
    await expect(runPtmGroundTruth({ evaluator, taskSizes: [2, 1], orderings: [[[0, 0], [1]]] })).rejects.toThrow(/twice/);
  });
  it('a class without two training rows or without test rows', () => {
    expect(() => preparePtm({ features, classes: [0, 1], strategy: STRATEGIES[0][1], seed: 0, trainPerClass: 1 })).toThrow(
      /has 1 training row; every class needs at least 2/,
    );
    const noTest = { ...features, split: features.split.map((s, i) => (features.labels[i] === 1 ? 0 : s)) };
    expect(() => preparePtm({ features: noTest, classes: [0, 1], strategy: STRATEGIES[0][1], seed: 0 })).toThrow(/Class 1 \(class 1\) has no test rows/);
  });
  it('method options', () => {
    expect(() => preparePtm({ features, classes, strategy: { id: 'ranpac', options: { projection: 20_000, lambdaFrom: 'task' } }, seed: 0 })).toThrow(
      /projection must be a whole number from 0 to 10000/,
    );
    expect(() => preparePtm({ features, classes, strategy: { id: 'fecam', options: { shrinkage: -1 } }, seed: 0 })).toThrow(/shrinkage must be a number/);
    expect(() => preparePtm({ features, classes, strategy: { id: 'fecam', options: { shrinkage: 0 } }, seed: 0 })).not.toThrow();
  });
  it('a FeCAM covariance that cannot be inverted names the class and the fix', () => {
    const flat = syntheticFeatures({ classes: 2, dims: 4, trainPerClass: 3, testPerClass: 1, separation: 1, seed: 1 });
    const rows = flat.features.slice();
    // every training row of class 1 the same: its covariance is zero, and so is the shrinkage added to it
    for (let i = 0; i < flat.n; i++) if (flat.labels[i] === 1 && flat.split[i] === 0) rows.set([1, 2, 3, 4], i * 4);
    expect(() => preparePtm({ features: { ...flat, features: rows }, classes: [0, 1], strategy: { id: 'fecam', options: { shrinkage: 1 } }, seed: 0 })).toThrow(
      /FeCAM: the shrunk covariance of class 1 \(class 1\) is singular .* raise the shrinkage above 1/,
    );
  });
});
