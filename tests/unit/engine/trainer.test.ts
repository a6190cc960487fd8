import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { STRATEGY_IDS, type StrategyId } from '../../../src/engine/defaults';
import { RunCancelledError, RunControl } from '../../../src/engine/control';
import { trainRun, type TaskEndEvent } from '../../../src/engine/trainer';
import type { ProgressEvent, RunCheckpoint, TrainRunConfig } from '../../../src/engine/types';
import { syntheticDataset } from './synthetic';

const ds = syntheticDataset();
const TASKS = [
  [0, 1],
  [2, 3],
  [4, 5],
];

function config(strategy: StrategyId, extra: Partial<TrainRunConfig> = {}): TrainRunConfig {
  return {
    tasks: TASKS,
    seed: 3,
    strategy,
    model: { kind: 'mlp', hidden: [16] },
    epochs: 2,
    batchSize: 16,
    lr: 0.01,
    ...(strategy === 'replay' || strategy === 'icarl' || strategy === 'agem' || strategy === 'gdumb' ? { strategyOptions: { memory: 24 } } : {}),
    ...extra,
  } as TrainRunConfig;
}

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
});

describe('trainRun on the cpu backend', () => {
  it('records the full K×K matrix, untrained accuracies and counts', async () => {
    const r = await trainRun(ds, config('finetune'));
    expect(r.matrix).toHaveLength(3);
    for (const row of r.matrix) expect(row).toHaveLength(3);
    expect(r.untrained).toHaveLength(3);
    expect(r.testCounts).toEqual([24, 24, 24]);
    expect(r.trainCounts).toEqual([80, 80, 80]);
    expect(r.calibrationCounts).toEqual([0, 0, 0]);
    expect(r.classOrder).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.backend).toBe('cpu');
    // the default 'seen' head cannot predict classes of future tasks: the upper triangle is 0 by construction
    expect(r.matrix[0][1]).toBe(0);
    expect(r.matrix[1][2]).toBe(0);
    expect(r.matrix[0][0]).toBeGreaterThan(0.9);
    // b_j under the rule of R[j−1][j] is 0 with the 'seen' head (trainer.ts header)
    expect(r.untrained).toEqual([0, 0, 0]);
  });

  it('the same seed gives an identical R twice; another seed a different one', async () => {
    const a = await trainRun(ds, config('ewc', { epochs: 1 }));
    const b = await trainRun(ds, config('ewc', { epochs: 1 }));
    expect(b.matrix).toEqual(a.matrix);
    const c = await trainRun(ds, config('ewc', { epochs: 1, head: 'all' }));
    const d = await trainRun(ds, config('ewc', { epochs: 1, head: 'all', seed: 4 }));
    expect(d.matrix).not.toEqual(c.matrix);
  });

  it('the untrained model is measured over the full head with head "all" (chance level)', async () => {
    const r = await trainRun(ds, config('finetune', { head: 'all', epochs: 1 }));
    for (const b of r.untrained) expect(b).toBeLessThan(0.7);
    expect(r.untrained.some((b) => b > 0)).toBe(true);
  });

  it('tf.memory().numTensors returns to its baseline after every task, for every strategy', async () => {
    const before = tf.memory().numTensors;
    for (const strategy of STRATEGY_IDS) {
      const events: TaskEndEvent[] = [];
      await trainRun(ds, config(strategy, { epochs: 1 }), { onTaskEnd: (e) => events.push(e) });
      expect(
        events.map((e) => e.task),
        strategy,
      ).toEqual([0, 1, 2]);
      for (const e of events) expect(e.numTensors, `${strategy} after task ${e.task}`).toBe(e.baselineTensors);
      expect(tf.memory().numTensors, `${strategy} after the run`).toBe(before);
    }
  });

  it('checkpoint → restore → continue gives the same R as the uninterrupted run, for every strategy', async () => {
    for (const strategy of STRATEGY_IDS) {
      const cfg = config(strategy, { epochs: 1 });
      const checkpoints: RunCheckpoint[] = [];
      const full = await trainRun(ds, cfg, { onCheckpoint: (c) => checkpoints.push(c) });
      expect(checkpoints.map((c) => c.nextTask)).toEqual([1, 2, 3]);
      // resume from the middle: what the backend fallback does after a failure in task 2
      const resumed = await trainRun(ds, cfg, { resumeFrom: checkpoints[1] });
      expect(resumed.matrix, strategy).toEqual(full.matrix);
      expect(resumed.untrained).toEqual(full.untrained);
    }
  });

  it('a checkpoint of another config is refused', async () => {
    const checkpoints: RunCheckpoint[] = [];
    await trainRun(ds, config('finetune', { epochs: 1 }), { onCheckpoint: (c) => checkpoints.push(c) });
    await expect(trainRun(ds, config('finetune', { epochs: 2 }), { resumeFrom: checkpoints[0] })).rejects.toThrow(/different config/);
  });

  it('orderings that share a prefix of tasks train that prefix identically (prefix seed rule)', async () => {
    const a = await trainRun(
      ds,
      config('replay', {
        tasks: [
          [1, 0],
          [2, 3],
          [4, 5],
        ],
      }),
    );
    const b = await trainRun(
      ds,
      config('replay', {
        tasks: [
          [0, 1],
          [2, 3],
          [5, 4],
        ],
      }),
    );
    const c = await trainRun(
      ds,
      config('replay', {
        tasks: [
          [0, 1],
          [4, 5],
          [2, 3],
        ],
      }),
    );
    expect(b.matrix).toEqual(a.matrix); // order inside a task does not matter
    expect(c.matrix[0][0]).toBe(a.matrix[0][0]); // same first task
    expect(c.matrix[1]).not.toEqual(a.matrix[1]);
  });

  it('reports progress and holds out calibration data it never trains on, with softmax outputs after every task', async () => {
    const events: ProgressEvent[] = [];
    const r = await trainRun(ds, config('finetune', { probs: { calibrationRatio: 0.25 }, epochs: 2, firstTaskEpochs: 3 }), {
      onProgress: (e) => events.push(e),
    });
    expect(r.calibrationCounts).toEqual([20, 20, 20]);
    expect(r.trainCounts).toEqual([60, 60, 60]);
    // 60 examples / batch 16 = 4 steps per epoch; 3 epochs on task 0, 2 afterwards
    expect(events.filter((e) => e.task === 0)).toHaveLength(12);
    expect(events.filter((e) => e.task === 1)).toHaveLength(8);
    expect(events[0]).toMatchObject({ task: 0, epoch: 0, step: 1, steps: 4, tasks: 3, epochs: 3 });
    for (const e of events) {
      expect(Number.isFinite(e.loss)).toBe(true);
      expect(e.accuracy).toBeGreaterThanOrEqual(0);
    }
    const probs = r.probs ?? [];
    expect(probs).toHaveLength(3 * 3 * 2);
    const cell = probs.find((p) => p.afterTask === 1 && p.split === 'calibration' && p.taskIndex === 0);
    expect(cell?.width).toBe(4); // softmax over the classes seen after task 1
    expect(cell?.labels).toHaveLength(20);
    const row0 = Array.from(cell?.probs.subarray(0, 4) ?? []);
    expect(row0.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 5);
  });

  it('trains the CNN too (im2col convolution off the GPU), leaving no tensors behind', async () => {
    const events: TaskEndEvent[] = [];
    const r = await trainRun(ds, config('icarl', { model: { kind: 'cnn', filters: [4, 8], dense: 16 }, batchSize: 40, epochs: 3 }), {
      onTaskEnd: (e) => events.push(e),
    });
    expect(r.config.model).toEqual({ kind: 'cnn', filters: [4, 8], dense: 16 });
    expect(r.matrix[0][0]).toBeGreaterThan(0.6);
    for (const e of events) expect(e.numTensors).toBe(e.baselineTensors);
  });

  it('can train with plain SGD instead of Adam', async () => {
    const adam = await trainRun(ds, config('finetune', { epochs: 1 }));
    const sgd = await trainRun(ds, config('finetune', { epochs: 1, optimizer: 'sgd', lr: 0.5 }));
    expect(sgd.config.optimizer).toBe('sgd');
    expect(sgd.matrix).not.toEqual(adam.matrix);
    expect(sgd.matrix[0][0]).toBeGreaterThan(0.5);
  });

  it('trains 8 epochs on the first task and 3 afterwards (the CPCF preset)', async () => {
    const seen: number[] = [];
    await trainRun(ds, config('finetune', { firstTaskEpochs: 8, epochs: 3, batchSize: 80 }), { onProgress: (e) => seen.push(e.task) });
    expect(seen.filter((t) => t === 0)).toHaveLength(8);
    expect(seen.filter((t) => t === 2)).toHaveLength(3);
  });

  it('pauses, resumes and cancels between steps without leaking tensors', async () => {
    const before = tf.memory().numTensors;
    const control = new RunControl();
    let steps = 0;
    let pausedAt = -1;
    const run = trainRun(ds, config('lwf', { epochs: 3 }), {
      control,
      onProgress: () => {
        steps++;
        if (steps === 3) {
          control.pause();
          pausedAt = steps;
        }
      },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(control.state).toBe('paused');
    expect(steps).toBe(pausedAt);
    control.resume();
    const r = await run;
    expect(r.matrix).toHaveLength(3);

    const cancel = new AbortController();
    const doomed = trainRun(ds, config('si', { epochs: 3 }), { control: new RunControl(cancel.signal), onProgress: (e) => e.task === 1 && cancel.abort() });
    await expect(doomed).rejects.toBeInstanceOf(RunCancelledError);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects bad configs with a clear message', async () => {
    await expect(
      trainRun(
        ds,
        config('finetune', {
          tasks: [
            [0, 1],
            [1, 2],
          ],
        }),
      ),
    ).rejects.toThrow(/Class 1 appears in more than one task/);
    await expect(trainRun(ds, config('finetune', { tasks: [[0, 9]] }))).rejects.toThrow(/Class 9 does not exist/);
    await expect(trainRun(ds, { ...config('ewc'), strategyOptions: { lamda: 3 } } as unknown as TrainRunConfig)).rejects.toThrow(/no option "lamda"/);
  });
});
