/**
 * Exactness of the fast ground-truth paths: prefix sharing and population training must give the same
 * accuracy matrices as training each ordering alone with `trainRun` and the same seeds — identical on the cpu
 * backend up to 1e-5, and within 1e-3 on wasm. Every strategy family is covered: none (finetune), a loss term
 * through the population's member views (EWC, LwF, iCaRL), a memory (replay), gradient surgery that trains one
 * model at a time (A-GEM, SI), and both heads.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../src/core/orderings/enumerate';
import { planPrefixes } from '../../../src/core/ground-truth/prefix-plan';
import { selectBackend } from '../../../src/engine/backend';
import { RunControl } from '../../../src/engine/control';
import { choosePopulation, memberBytes } from '../../../src/engine/population';
import { trainShared, type SharedCheckpoint } from '../../../src/engine/shared-train';
import { createDealer } from '../../../src/core/ground-truth/deal';
import { trainRun } from '../../../src/engine/trainer';
import type { TrainRunConfig, TrainRunResult } from '../../../src/engine/types';
import { syntheticDataset } from './synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 24, testPerClass: 10 });

/** 10 of the 90 orderings of 6 classes in 3 tasks of 2, with shared prefixes (the first ones in enumeration order) and a few far apart. */
function orderings(): number[][][] {
  const all = Array.from(enumerateOrderings([2, 2, 2]), (o) => o.map((t) => [...t]));
  return [...all.slice(0, 7), all[40], all[41], all[89]];
}

function configs(extra: Partial<TrainRunConfig> & Pick<TrainRunConfig, 'strategy'>): TrainRunConfig[] {
  return orderings().map((tasks) => ({ tasks, seed: 3, model: { kind: 'mlp', hidden: [16] }, epochs: 2, batchSize: 16, lr: 0.01, ...extra }) as TrainRunConfig);
}

async function naive(cs: TrainRunConfig[]): Promise<TrainRunResult[]> {
  const out: TrainRunResult[] = [];
  for (const c of cs) out.push(await trainRun(ds, c));
  return out;
}

function expectSameMatrices(got: TrainRunResult[], want: TrainRunResult[], tol: number): void {
  expect(got.length).toBe(want.length);
  got.forEach((r, o) => {
    expect(r.tasks).toEqual(want[o].tasks);
    expect(r.matrix.length).toBe(want[o].matrix.length);
    r.matrix.forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - want[o].matrix[i][j]), `ordering ${o}, R[${i}][${j}]`).toBeLessThanOrEqual(tol)));
    r.untrained.forEach((v, j) => expect(Math.abs(v - want[o].untrained[j])).toBeLessThanOrEqual(tol));
  });
}

describe('prefix plan', () => {
  it('counts the trie of all 90 orderings of 6 classes in 3 tasks: 15 + 90 + 90 nodes against 270 tasks', () => {
    const all = Array.from(enumerateOrderings([2, 2, 2]), (o) => o.map((t) => [...t]));
    const plan = planPrefixes(all);
    expect(plan.naiveTasks).toBe(270);
    expect(plan.sharedTasks).toBe(195);
    expect(plan.roots.length).toBe(15);
    expect(plan.nodes.filter((n) => n.depth === 1).length).toBe(90);
    // depth-first: every parent before its children, and each node's orderings are its children's union
    for (const n of plan.nodes) {
      if (n.parent) expect(n.parent.index).toBeLessThan(n.index);
      if (n.children.length) expect(n.children.flatMap((c) => c.orderings).sort((a, b) => a - b)).toEqual(n.orderings);
    }
  });
  it('8 classes in 4 tasks of 2: 5,488 tasks instead of 10,080; class order inside a task does not matter', () => {
    const all = Array.from(enumerateOrderings([2, 2, 2, 2]), (o) => o.map((t) => [...t]));
    const plan = planPrefixes(all);
    expect(plan.naiveTasks).toBe(10080);
    expect(plan.sharedTasks).toBe(28 + 420 + 2520 + 2520);
    const swapped = planPrefixes([
      [
        [1, 0],
        [2, 3],
      ],
      [
        [0, 1],
        [3, 2],
      ],
    ]);
    expect(swapped.sharedTasks).toBe(2);
  });
});

describe('population size', () => {
  const spec = { kind: 'mlp' as const, inputShape: [28, 28, 1] as [number, number, number], outputs: 6, hidden: [256, 128] };
  it('is 1 on wasm and cpu (measured no faster there), and fits the memory budget on GPU backends', () => {
    expect(choosePopulation('auto', 'wasm', spec, 64)).toBe(1);
    expect(choosePopulation('auto', 'cpu', spec, 64)).toBe(1);
    const per = memberBytes(spec, 64);
    expect(per).toBeGreaterThan(4 * 4 * 235_000);
    expect(choosePopulation('auto', 'webgpu', spec, 64, { budgetBytes: 10 * per })).toBe(10);
    expect(choosePopulation('auto', 'webgl', spec, 64)).toBe(Math.min(32, Math.floor((256 * 2 ** 20) / per)));
    expect(choosePopulation(64, 'cpu', spec, 64, { max: 8 })).toBe(8);
    expect(choosePopulation('auto', 'webgl', spec, 64, { softwareGpu: true })).toBe(1);
    expect(choosePopulation('auto', 'webgpu', spec, 64, { softwareGpu: true, budgetBytes: 4 * per })).toBe(4);
  });
});

describe('shared training equals naive training (cpu backend, to 1e-5)', () => {
  beforeAll(async () => {
    await selectBackend('cpu', { strict: true });
  });
  for (const strategy of ['finetune', 'ewc', 'replay', 'lwf', 'icarl', 'agem', 'si'] as const) {
    it(`${strategy}: prefix sharing and a population of 4 give naive's R`, async () => {
      const cs = configs({
        strategy,
        ...(strategy === 'replay' || strategy === 'icarl' || strategy === 'agem' ? { strategyOptions: { memory: 20 } } : {}),
      } as never);
      const want = await naive(cs);
      const before = tf.memory().numTensors;
      const done: number[] = [];
      const prefix = await trainShared(ds, cs, { population: 1 }, { onRunDone: (o) => done.push(o) });
      expectSameMatrices(prefix, want, 1e-5);
      expect([...done].sort((a, b) => a - b)).toEqual(cs.map((_, i) => i));
      const population = await trainShared(ds, cs, { population: 4 });
      expectSameMatrices(population, want, 1e-5);
      expect(tf.memory().numTensors).toBe(before);
    }, 120_000);
  }
  it("the 'all' head (future tasks evaluated with each ordering's own units) and augmentation", async () => {
    const cs = configs({ strategy: 'finetune', head: 'all', augment: true });
    const want = await naive(cs);
    expect(want.every((r) => r.untrained.some((b) => b > 0))).toBe(true); // the full head's untrained accuracies are evaluated (chance level)
    expectSameMatrices(await trainShared(ds, cs, { population: 1 }), want, 1e-5);
    expectSameMatrices(await trainShared(ds, cs, { population: 3 }), want, 1e-5);
  }, 120_000);
  it('the naive path (share: false) trains every task of every ordering; prefix sharing fewer', async () => {
    const cs = configs({ strategy: 'finetune' });
    let naiveProgress = { tasksPlanned: 0, naiveTasks: 0 };
    await trainShared(ds, cs, { share: false }, { onProgress: (p) => (naiveProgress = p) });
    expect(naiveProgress.tasksPlanned).toBe(30);
    let shared = { tasksPlanned: 0, tasksDone: 0 };
    await trainShared(ds, cs, {}, { onProgress: (p) => (shared = p) });
    expect(shared.tasksPlanned).toBe(planPrefixes(orderings()).sharedTasks);
    expect(shared.tasksDone).toBe(shared.tasksPlanned);
    expect(shared.tasksPlanned).toBeLessThan(30);
  }, 120_000);
  it('refuses runs of different experiments, and cancels without leaking tensors', async () => {
    const cs = configs({ strategy: 'finetune' });
    await expect(trainShared(ds, [cs[0], { ...cs[1], seed: 4 }])).rejects.toThrow(/one experiment/);
    const before = tf.memory().numTensors;
    const control = new RunControl();
    let steps = 0;
    const p = trainShared(ds, cs, { population: 2 }, { control, onProgress: () => (++steps === 3 ? control.cancel() : undefined) });
    await expect(p).rejects.toThrow(/cancelled/);
    expect(tf.memory().numTensors).toBe(before);
  }, 120_000);
});

describe("the sample order: orderings finish in the order asked, with depth-first's R (cpu, exact)", () => {
  beforeAll(async () => {
    await selectBackend('cpu', { strict: true });
  });
  // a seeded permutation of the 10 orderings, as src/core/ground-truth/schedule.ts draws them
  const order = [7, 2, 9, 0, 5, 8, 3, 1, 6, 4];
  for (const population of [1, 3] as const) {
    it(`population ${population}: finished orderings are the first n of the order at every moment; every R equals depth-first's and naive's`, async () => {
      const cs = configs({ strategy: 'ewc' });
      const want = await naive(cs);
      const depthFirst = await trainShared(ds, cs, { population });
      const finishedOrder: number[] = [];
      let tasksPlanned = 0;
      let tasksDone = 0;
      const before = tf.memory().numTensors;
      const got = await trainShared(
        ds,
        cs,
        { population, order },
        { onRunDone: (o) => finishedOrder.push(o), onProgress: (p) => ((tasksPlanned = p.tasksPlanned), (tasksDone = p.tasksDone)) },
      );
      if (population === 1) expect(finishedOrder).toEqual(order);
      else {
        // a population trains up to P same-depth nodes at once: within P − 1 of the order
        finishedOrder.forEach((o, n) => expect(order.indexOf(o)).toBeLessThanOrEqual(n + population - 1));
        expect([...finishedOrder].sort()).toEqual([...order].sort());
      }
      // nothing is trained twice
      expect(tasksDone).toBe(tasksPlanned);
      expect(tasksPlanned).toBe(planPrefixes(orderings()).sharedTasks);
      got.forEach((r, o) => expect(r.matrix, `ordering ${o}`).toEqual(depthFirst[o].matrix));
      expectSameMatrices(got, want, 1e-5);
      expect(tf.memory().numTensors).toBe(before);
    }, 120_000);
  }
  it('pull mode: two workers dealt one order by the dealer train every prefix once, hand checkpoints over, and give depth-first R', async () => {
    // the 10 orderings and a copy of ordering 0 with each task's classes swapped: the same trie leaf, so one worker
    // finishes it from the other's checkpoint of its last task, without training
    const cs = [...configs({ strategy: 'finetune', head: 'all' }), { ...configs({ strategy: 'finetune', head: 'all' })[0] }];
    cs[10] = { ...cs[10], tasks: cs[10].tasks.map((t) => [...t].reverse()) };
    const depthFirst = await trainShared(ds, cs, { population: 1 });
    // 10 and 0 dealt first, one to each worker whichever asks first: the second must take the first's checkpoints
    const dealOrder = [10, 0, ...order.filter((o) => o !== 0)];
    const dealer = createDealer<SharedCheckpoint>(
      cs.map((c) => c.tasks),
      dealOrder,
      2,
    );
    const finished: number[] = [];
    const runWorker = async (w: number) => {
      const done: number[] = [];
      let progress = { tasksDone: 0, stepsDone: 0, predictionsDone: 0 };
      const results = await trainShared(
        ds,
        cs,
        { population: 1 },
        {
          onRunDone: (o) => (done.push(o), finished.push(o)),
          onProgress: (p) => (progress = p),
          next: () => dealer.next(w),
          onCheckpoint: (c) => dealer.publish(w, c.key, c),
        },
      );
      return { done, results, progress };
    };
    const before = tf.memory().numTensors;
    const [a, b] = await Promise.all([runWorker(0), runWorker(1)]);
    expect(tf.memory().numTensors).toBe(before);
    // each ordering finished once, on one worker, with depth-first's R (bit for bit on cpu)
    expect([...a.done, ...b.done].sort((x, y) => x - y)).toEqual(cs.map((_, i) => i));
    for (const { done, results } of [a, b]) for (const o of done) expect(results[o].matrix, `ordering ${o}`).toEqual(depthFirst[o].matrix);
    // the finished orderings are the first n of the order within one, at every moment
    finished.forEach((o, n) => expect(dealOrder.indexOf(o)).toBeLessThanOrEqual(n + 1));
    // nothing trained twice: the two workers' tasks add up to the trie's nodes, and their steps to the planned steps
    const trie = planPrefixes(cs.map((c) => c.tasks));
    expect(a.progress.tasksDone + b.progress.tasksDone).toBe(trie.sharedTasks);
    expect(dealer.tasksPlanned).toBe(trie.sharedTasks);
    const stepsPerTask = 2 * Math.ceil((2 * 24) / 16);
    expect(a.progress.stepsDone + b.progress.stepsDone).toBe(trie.sharedTasks * stepsPerTask);
    // evaluation: each trained prefix predicts every test example of the run's classes once ('all' head), and each
    // worker the untrained model's once
    const classes = new Set(cs[0].tasks.flat());
    const testExamples = Array.from(ds.test.labels).filter((y) => classes.has(y)).length;
    expect(testExamples).toBeGreaterThan(0);
    expect(a.progress.predictionsDone + b.progress.predictionsDone).toBe((trie.sharedTasks + 2) * testExamples);
    expect(dealer.stats.imports).toBeGreaterThan(0);
    expect(dealer.stats.kept).toBe(0);
  }, 120_000);
});

describe('shared training on wasm agrees with naive within 1e-3', () => {
  beforeAll(async () => {
    await selectBackend('wasm', { strict: true });
  });
  afterAll(async () => {
    await selectBackend('cpu', { strict: true });
  });
  it('finetune and EWC, prefix and population', async () => {
    for (const strategy of ['finetune', 'ewc'] as const) {
      // 5 of the 10: three sharing their first task and two far apart (wasm arithmetic is what is checked here; the
      // cpu tests above cover every strategy on all 10)
      const cs = configs({ strategy }).filter((_, i) => [0, 1, 2, 7, 9].includes(i));
      const want = await naive(cs);
      expectSameMatrices(await trainShared(ds, cs, { population: 1 }), want, 1e-3);
      expectSameMatrices(await trainShared(ds, cs, { population: 4 }), want, 1e-3);
    }
  }, 120_000);
});
