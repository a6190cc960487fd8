import { describe, expect, it } from 'vitest';
import { PAPER_TABLE_II, PAPER_TABLE_III, paperColumnOf, paperDcor } from '../../../../src/core/forgetting/paper';
import {
  FAST_LR,
  PAPER_LR,
  baseJob,
  dcorTables,
  lrText,
  orderingText,
  paperTaskSizes,
  paperTasks,
  parseOrdering,
  presetDatasetOf,
  presetInfo,
  presetJobs,
  runFraction,
  tableI,
  tasksFromOrder,
  trainConfigOf,
  type RunSummary,
} from '../../../../src/core/forgetting/setup';
import { distanceCorrelation } from '../../../../src/core/conformal/dcor';
import { pooledDcorPermutationTest } from '../../../../src/core/stats/dcor-permutation';
import { memoryForgettingStore, openForgettingStore, type ForgettingRun } from '../../../../src/services/forgetting-store';

describe('orderings', () => {
  it('builds the paper base-task setup (5,1,1,1,1,1)', () => {
    expect(paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual([[0, 1, 2, 3, 4], [5], [6], [7], [8], [9]]);
    expect(paperTaskSizes(10)).toEqual([5, 1, 1, 1, 1, 1]);
    expect(() => paperTasks([0, 1, 2])).toThrow(RangeError);
    expect(tasksFromOrder([3, 1, 2, 0], [2, 1, 1])).toEqual([[3, 1], [2], [0]]);
    expect(() => tasksFromOrder([0, 1], [3])).toThrow(/sum to 3/);
  });
  it('parses a hand-made ordering: with "|" or flat', () => {
    expect(parseOrdering('0 1 2 3 4 | 9 | 8 | 7 | 6 | 5', 10)).toEqual([[0, 1, 2, 3, 4], [9], [8], [7], [6], [5]]);
    expect(parseOrdering('9,8,7,6,5,4,3,2,1,0', 10)).toEqual([[9, 8, 7, 6, 5], [4], [3], [2], [1], [0]]);
    expect(parseOrdering('0 1 | 2 3', 4)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(() => parseOrdering('0 1 2', 10)).toThrow(/missing: 3, 4/);
    expect(() => parseOrdering('0 0 1 2 3 4 5 6 7 8', 10)).toThrow(/twice/);
    expect(() => parseOrdering('0 1 | | 2', 3)).toThrow(/empty/);
    expect(() => parseOrdering('0 1 x', 3)).toThrow(/not a class/);
    expect(orderingText([[0, 1], [2]])).toBe('0 1 | 2');
  });
});

describe('presets', () => {
  it('digits: the paper regime by steps — MLP and EWC at 5 seeds, all images, epochs 300/85, lr, full head', () => {
    const jobs = presetJobs('digits', { dataset: 'emoji', lr: PAPER_LR, seed: 3 });
    expect(jobs.map((j) => j.label)).toEqual([
      'MLP · seed 3',
      'MLP · seed 4',
      'MLP · seed 5',
      'MLP · seed 6',
      'MLP · seed 7',
      'EWC · seed 3',
      'EWC · seed 4',
      'EWC · seed 5',
      'EWC · seed 6',
      'EWC · seed 7',
    ]);
    expect(jobs.map((j) => j.seed)).toEqual([3, 4, 5, 6, 7, 3, 4, 5, 6, 7]);
    for (const j of jobs) {
      expect(j.dataset).toBe('digits');
      expect(j.tasks).toEqual([[0, 1, 2, 3, 4], [5], [6], [7], [8], [9]]);
      expect([j.firstTaskEpochs, j.epochs, j.lr, j.calibrationRatio, j.head, j.batchSize]).toEqual([300, 85, 2e-5, 0.1, 'all', 64]);
      expect([j.trainPerClass, j.testPerClass]).toEqual([null, null]);
      expect(j.hidden).toEqual([256, 128]);
    }
  });
  it('fashion (browser variant) and fashion-paper (the full-data regime) fix their data, epochs and seeds', () => {
    const browser = presetJobs('fashion', { dataset: 'digits', lr: PAPER_LR, seed: 0, trainPerClass: 30, testPerClass: 10 });
    expect(browser).toHaveLength(10);
    expect(browser[0]).toMatchObject({ dataset: 'fashion-mnist', trainPerClass: 1000, testPerClass: 500, firstTaskEpochs: 8, epochs: 3 });
    const full = presetJobs('fashion-paper', { dataset: 'emoji', lr: PAPER_LR, seed: 0 });
    expect(full).toHaveLength(10);
    expect(full[9]).toMatchObject({
      dataset: 'fashion-mnist',
      strategy: 'ewc',
      trainPerClass: null,
      testPerClass: null,
      firstTaskEpochs: 8,
      epochs: 3,
      seed: 4,
    });
    expect(presetInfo('fashion-paper').regime?.where).toBe('cli');
    expect(presetInfo('digits').regime?.where).toBe('browser');
    expect(presetDatasetOf('fashion-paper', 'digits')).toBe('fashion-mnist');
    expect(presetDatasetOf('grid', 'emoji')).toBe('emoji');
    expect(() => presetInfo('nope' as never)).toThrow(/unknown preset/);
  });
  it('grid: one run per calibration ratio and model; EWC variants; lrs; edge', () => {
    const grid = presetJobs('grid', { dataset: 'digits', lr: FAST_LR, seed: 1 });
    expect(grid).toHaveLength(8);
    expect(new Set(grid.map((j) => j.calibrationRatio))).toEqual(new Set([0.05, 0.1, 0.15, 0.2]));
    expect(grid.every((j) => j.lr === FAST_LR && j.seed === 1)).toBe(true);
    expect(presetJobs('ewc-variants', { dataset: 'digits', lr: FAST_LR, seed: 0 }).map((j) => [j.strategy, j.ewcMode])).toEqual([
      ['ewc', 'single'],
      ['ewc', 'multi'],
    ]);
    expect(presetJobs('lr', { dataset: 'digits', lr: FAST_LR, seed: 0 }).map((j) => j.lr)).toEqual([2e-5, 1e-4, 1e-3, 1e-2]);
    expect(() => presetJobs('edge', { dataset: 'digits', lr: FAST_LR, seed: 0 })).toThrow(/EDGE orderings/);
    const edge = presetJobs('edge', {
      dataset: 'digits',
      lr: FAST_LR,
      seed: 0,
      edgeOrderings: [{ label: 'EDGE hard', tasks: [[9, 8, 7, 6, 5], [4], [3], [2], [1], [0]] }],
    });
    expect(edge[0].tasks[0]).toEqual([9, 8, 7, 6, 5]);
    expect(presetJobs('grid', { dataset: 'fashion-mnist', lr: FAST_LR, seed: 0 })[0]).toMatchObject({
      dataset: 'fashion-mnist',
      trainPerClass: 800,
      testPerClass: 200,
      firstTaskEpochs: 8,
      epochs: 3,
    });
  });
  it('lrText and the engine config of a job', () => {
    expect(lrText(2e-5)).toBe('2e-5');
    expect(lrText(0.001)).toBe('1e-3');
    const c = trainConfigOf(baseJob('digits', { strategy: 'ewc', ewcMode: 'multi', ewcLambda: 500, calibrationRatio: 0.2 }));
    expect(c.strategyOptions).toEqual({ mode: 'multi', lambda: 500 });
    expect(c.probs).toEqual({ calibrationRatio: 0.2, softmax: 'all' });
    expect(trainConfigOf(baseJob('digits')).strategyOptions).toBeUndefined();
  });
  it('runFraction weighs tasks by classes × epochs', () => {
    const tasks = [[0, 1, 2, 3, 4], [5], [6]];
    // weights 40, 3, 3
    expect(runFraction(tasks, 8, 3, { task: 0, epoch: 0, step: 0, steps: 10 })).toBe(0);
    expect(runFraction(tasks, 8, 3, { task: 0, epoch: 4, step: 0, steps: 10 })).toBeCloseTo(20 / 46);
    expect(runFraction(tasks, 8, 3, { task: 2, epoch: 2, step: 10, steps: 10 })).toBeCloseTo(1);
  });
});

describe('paper tables', () => {
  it('holds the paper numbers and maps our datasets to its columns', () => {
    expect(PAPER_TABLE_II['0.10'].MLP.FashionMNIST).toBe(0.2118);
    expect(PAPER_TABLE_II['0.10'].EWC.FashionMNIST).toBe(0.3046);
    expect(PAPER_TABLE_III['0.10']).toEqual(PAPER_TABLE_II['0.10']);
    expect(paperColumnOf('digits')).toBe('MNIST');
    expect(paperColumnOf('emoji')).toBeNull();
    expect(paperDcor('III', 0.2, 'EWC', 'MNIST')).toBe(0.8012);
    expect(paperDcor('II', 0.3, 'EWC', 'MNIST')).toBeNull();
  });
  it('builds Table II/III rows beside ours and Table I', () => {
    const s = (strategy: 'finetune' | 'ewc', calibrationRatio: number, ewcMode: 'single' | 'multi' = 'single'): RunSummary => ({
      job: baseJob('digits', { strategy, calibrationRatio, ewcMode }),
      dcor: (a) => a + calibrationRatio + (strategy === 'ewc' ? 1 : 0),
      omega: { omegaBase: 0.1, omegaNew: 0.9, omegaAll: 0.2, omegaPrev: 0.3 },
    });
    const t = dcorTables([s('finetune', 0.1), s('ewc', 0.1)], 'digits');
    expect(t.column).toBe('MNIST');
    expect(t.tableII).toHaveLength(8);
    expect(t.tableII.find((r) => r.key === 0.1 && r.model === 'EWC')).toEqual({ key: 0.1, model: 'EWC', paper: 0.6754, ours: 1.2, summary: null });
    expect(t.tableII.find((r) => r.key === 0.05 && r.model === 'MLP')?.ours).toBeNull();
    expect(t.tableIII.find((r) => r.key === 0.2 && r.model === 'MLP')?.ours).toBeCloseTo(0.3);
    const t1 = tableI([s('ewc', 0.1, 'multi')]);
    expect(t1[0].ours).toBeNull();
    expect(t1[1].ours?.omegaPrev).toBe(0.3);
    expect(t1[1].paper?.omegaPrev).toBe(0.342);
  });
});

describe('paper tables over seeds', () => {
  it('a cell gathers every seed of its model: mean ± sd, the pooled permutation p, the notes', () => {
    const series = [
      { cpcf: [1, 2, 3, 4, 5], aPrev: [0.9, 0.7, 0.6, 0.3, 0.1] },
      { cpcf: [1.2, 2.1, 2.8, 4.5, 4.9], aPrev: [0.95, 0.8, 0.5, 0.35, 0.2] },
      { cpcf: [2, 1, 3, 5, 4], aPrev: [0.5, 0.6, 0.4, 0.2, 0.3] },
    ];
    const runs: RunSummary[] = series.map((x, k) => ({
      job: baseJob('fashion-mnist', { strategy: 'finetune', seed: k, trainPerClass: 1000 }),
      dcor: () => distanceCorrelation(x.cpcf, x.aPrev),
      series: () => x,
      baseAccuracy: 0.85,
      omega: { omegaBase: 0, omegaNew: 0, omegaAll: 0, omegaPrev: 0 },
    }));
    const t = dcorTables(runs, 'fashion-mnist', { resamples: 499 });
    const row = t.tableII.find((r) => r.key === 0.1 && r.model === 'MLP')!;
    const values = series.map((x) => distanceCorrelation(x.cpcf, x.aPrev));
    expect(row.summary?.values).toEqual(values);
    expect(row.summary?.dcor.n).toBe(3);
    expect(row.ours).toBeCloseTo(values.reduce((a, b) => a + b, 0) / 3, 12);
    expect(row.summary?.p).toBe(
      pooledDcorPermutationTest(
        series.map((x) => ({ x: x.cpcf, y: x.aPrev })),
        { resamples: 499, seed: 0 },
      ).p,
    );
    expect(row.paper).toBe(0.2118);
    expect(row.summary?.comparable).toBe(false);
    expect(row.summary?.notes).toEqual(['less data: 1000 training images per class, the paper ≈6000']);
    expect(t.tableII.find((r) => r.model === 'EWC' && r.key === 0.1)?.summary).toBeNull();
  });

  it('a live run with one point so far (after its second task) gives no summary yet, and no error', () => {
    const live: RunSummary = {
      job: baseJob('digits', { strategy: 'finetune' }),
      dcor: () => NaN,
      series: () => ({ cpcf: [1.4], aPrev: [0.8] }),
      baseAccuracy: 1,
      omega: { omegaBase: 0, omegaNew: 0, omegaAll: 0, omegaPrev: 0 },
    };
    const t = dcorTables([live], 'digits');
    const row = t.tableII.find((r) => r.key === 0.1 && r.model === 'MLP')!;
    expect(row.summary).toBeNull();
    expect(row.ours).toBeNaN();
  });
});

describe('store', () => {
  const run = (id: string, group: string, createdAt: number): ForgettingRun => ({
    id,
    group,
    preset: null,
    job: baseJob('digits'),
    matrix: [[1]],
    testCounts: [1],
    trainCounts: [1],
    calibrationCounts: [1],
    classOrder: [0],
    probs: [],
    backend: 'cpu',
    seconds: 1,
    createdAt,
  });
  it('keeps runs in memory (and Node has no IndexedDB: the fallback says so)', async () => {
    const s = memoryForgettingStore();
    await s.put(run('b', 'g2', 2));
    await s.put(run('a', 'g1', 1));
    expect((await s.all()).map((r) => r.id)).toEqual(['a', 'b']);
    await s.deleteGroup('g1');
    expect((await s.all()).map((r) => r.id)).toEqual(['b']);
    const fallback = await openForgettingStore();
    expect(fallback.persistent).toBe(false);
    expect(fallback.notice).toMatch(/memory only/);
  });
});
