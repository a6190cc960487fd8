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
  presetJobs,
  runFraction,
  tableI,
  tasksFromOrder,
  trainConfigOf,
  type RunSummary,
} from '../../../../src/core/forgetting/setup';
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
    expect(parseOrdering('0 1 | 2 3', 4)).toEqual([[0, 1], [2, 3]]);
    expect(() => parseOrdering('0 1 2', 10)).toThrow(/missing: 3, 4/);
    expect(() => parseOrdering('0 0 1 2 3 4 5 6 7 8', 10)).toThrow(/twice/);
    expect(() => parseOrdering('0 1 | | 2', 3)).toThrow(/empty/);
    expect(() => parseOrdering('0 1 x', 3)).toThrow(/not a class/);
    expect(orderingText([[0, 1], [2]])).toBe('0 1 | 2');
  });
});

describe('presets', () => {
  it('digits: MLP and EWC at calibration 0.1, paper epochs, lr, full head', () => {
    const jobs = presetJobs('digits', { dataset: 'emoji', lr: PAPER_LR, seed: 0 });
    expect(jobs.map((j) => j.label)).toEqual(['MLP', 'EWC']);
    for (const j of jobs) {
      expect(j.dataset).toBe('digits');
      expect(j.tasks).toEqual([[0, 1, 2, 3, 4], [5], [6], [7], [8], [9]]);
      expect([j.firstTaskEpochs, j.epochs, j.lr, j.calibrationRatio, j.head]).toEqual([8, 3, 2e-5, 0.1, 'all']);
      expect(j.hidden).toEqual([256, 128]);
    }
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
    const edge = presetJobs('edge', { dataset: 'digits', lr: FAST_LR, seed: 0, edgeOrderings: [{ label: 'EDGE hard', tasks: [[9, 8, 7, 6, 5], [4], [3], [2], [1], [0]] }] });
    expect(edge[0].tasks[0]).toEqual([9, 8, 7, 6, 5]);
    expect(presetJobs('fashion', { dataset: 'digits', lr: FAST_LR, seed: 0 })[0]).toMatchObject({ dataset: 'fashion-mnist', trainPerClass: 800, testPerClass: 200 });
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
    expect(t.tableII.find((r) => r.key === 0.1 && r.model === 'EWC')).toEqual({ key: 0.1, model: 'EWC', paper: 0.6754, ours: 1.2 });
    expect(t.tableII.find((r) => r.key === 0.05 && r.model === 'MLP')?.ours).toBeNull();
    expect(t.tableIII.find((r) => r.key === 0.2 && r.model === 'MLP')?.ours).toBeCloseTo(0.3);
    const t1 = tableI([s('ewc', 0.1, 'multi')]);
    expect(t1[0].ours).toBeNull();
    expect(t1[1].ours?.omegaPrev).toBe(0.3);
    expect(t1[1].paper?.omegaPrev).toBe(0.342);
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
