/**
 * The per-task path the Forgetting lab draws from while a run trains: the trainer's `onTaskEnd` carries
 * the task's row of R and the softmax outputs recorded after it; `trainRunWithFallback` delivers each task exactly
 * once, after its checkpoint, also when a backend fails and the run resumes on the next one; and the gathered
 * deliveries give CPCF / a_prev / a_new / coverage for the finished steps, equal to the finished run's first steps.
 * Worker-less: the engine on the cpu / wasm backends in Node, as the other engine tests.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpcfFromRun } from '../../../src/core/conformal/from-run';
import { addDeliveredTask, emptyLiveRun, type LiveRun } from '../../../src/core/forgetting/live';
import { selectBackend } from '../../../src/engine/backend';
import { deliverAfterCheckpoint, trainRunWithFallback, type FallbackNotice } from '../../../src/engine/fallback';
import { trainRun, type TaskEndEvent } from '../../../src/engine/trainer';
import type { ProbsRecord, TrainRunConfig } from '../../../src/engine/types';
import { syntheticDataset } from './synthetic';

const ds = syntheticDataset({ classes: 6, trainPerClass: 40, testPerClass: 12 });
const cfg: TrainRunConfig = {
  tasks: [[0, 1, 2], [3], [4], [5]],
  seed: 5,
  strategy: 'finetune',
  model: { kind: 'mlp', hidden: [16] },
  epochs: 2,
  firstTaskEpochs: 3,
  batchSize: 16,
  lr: 0.01,
  head: 'all',
  probs: { calibrationRatio: 0.25, softmax: 'all' },
};

const key = (p: ProbsRecord) => `${p.afterTask}/${p.split}/${p.taskIndex}`;
const asDelivery = (e: TaskEndEvent) => ({ task: e.task, tasks: cfg.tasks.length, row: e.row, probs: e.probs ?? [] });

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
});
afterAll(async () => {
  await selectBackend('cpu', { strict: true });
});

describe('onTaskEnd with recorded softmax outputs', () => {
  it('trainRun hands each task its row of R and exactly the outputs recorded after it', async () => {
    const events: TaskEndEvent[] = [];
    const r = await trainRun(ds, cfg, { onTaskEnd: (e) => events.push(e) });
    expect(events.map((e) => e.task)).toEqual([0, 1, 2, 3]);
    for (const e of events) {
      expect(e.row).toEqual(r.matrix[e.task]);
      // every task's calibration and test split, after this task only
      expect(e.probs!.map(key).sort()).toEqual(
        r
          .probs!.filter((p) => p.afterTask === e.task)
          .map(key)
          .sort(),
      );
      for (const p of e.probs!) {
        const same = r.probs!.find((q) => key(q) === key(p))!;
        expect(Array.from(p.probs)).toEqual(Array.from(same.probs));
        expect(Array.from(p.labels)).toEqual(Array.from(same.labels));
      }
    }
    // without `probs` the event has none
    const plain: TaskEndEvent[] = [];
    await trainRun(ds, { ...cfg, probs: undefined, epochs: 1, firstTaskEpochs: 1 }, { onTaskEnd: (e) => plain.push(e) });
    expect(plain.every((e) => e.probs === undefined)).toBe(true);
  });

  it('the gathered deliveries give, after each task, the first steps of the finished run’s CPCF report', async () => {
    let live: LiveRun = emptyLiveRun(cfg.tasks.length);
    const partial: { tasks: number; cpcf: number[]; aPrev: number[]; aNew: number[]; coverage: number[] }[] = [];
    const r = await trainRunWithFallback(ds, cfg, {
      onTaskEnd: (e) => {
        live = addDeliveredTask(live, asDelivery(e));
        if (live.matrix.length >= 2) {
          const rep = cpcfFromRun(live, { alpha: 0.1, score: 'aps' });
          partial.push({ tasks: live.matrix.length, cpcf: rep.cpcf, aPrev: rep.aPrev, aNew: rep.aNew, coverage: rep.coverage });
        }
      },
    });
    expect(live.matrix).toEqual(r.matrix);
    expect(live.testCounts).toEqual(r.testCounts);
    const full = cpcfFromRun(r, { alpha: 0.1, score: 'aps' });
    expect(partial.map((p) => p.tasks)).toEqual([2, 3, 4]);
    for (const p of partial) {
      const n = p.tasks - 1;
      expect(p.cpcf).toEqual(full.cpcf.slice(0, n));
      expect(p.aPrev).toEqual(full.aPrev.slice(0, n));
      expect(p.aNew).toEqual(full.aNew.slice(0, n));
      expect(p.coverage).toEqual(full.coverage.slice(0, n));
    }
    // the last delivery is the whole run: the same report
    expect(cpcfFromRun(live, { alpha: 0.1, score: 'aps' })).toEqual(full);
    // a repeated delivery changes nothing
    expect(addDeliveredTask(live, { task: 1, tasks: 4, row: [9, 9, 9, 9], probs: [] })).toBe(live);
    expect(() => addDeliveredTask(emptyLiveRun(4), { task: 1, tasks: 4, row: [0, 0, 0, 0], probs: [] })).toThrow(/before task 1/);
  });

  it('a run that falls back to another backend mid-run delivers every task once, with the numbers of its result', async () => {
    await selectBackend('wasm', { strict: true });
    // unit files share one tfjs per worker: what this run leaves is counted from here
    const tensorsBefore = tf.memory().numTensors;
    const delivered: TaskEndEvent[] = [];
    const notices: FallbackNotice[] = [];
    let failed = false;
    const r = await trainRunWithFallback(ds, cfg, {
      onProgress: (e) => {
        // the wasm backend "fails" in the middle of task 3 (0-based 2): tasks 1 and 2 were delivered from wasm
        if (tf.getBackend() === 'wasm' && e.task === 2 && !failed) {
          failed = true;
          throw new Error('simulated device loss');
        }
      },
      onTaskEnd: (e) => delivered.push(e),
      onNotice: (n) => notices.push(n),
    });
    expect(notices).toEqual([expect.objectContaining({ from: 'wasm', to: 'cpu', resumeTask: 2 })]);
    expect(r.backends).toEqual(['wasm', 'cpu']);
    expect(delivered.map((e) => e.task)).toEqual([0, 1, 2, 3]);
    delivered.forEach((e) => expect(e.row).toEqual(r.matrix[e.task]));
    const all = delivered.flatMap((e) => e.probs ?? []);
    expect(all.map(key).sort()).toEqual(r.probs!.map(key).sort());
    expect(tf.memory().numTensors).toBe(tensorsBefore);
  });
});

describe('deliverAfterCheckpoint', () => {
  const event = (task: number, v: number): TaskEndEvent => ({ task, row: [v], numTensors: 0, baselineTensors: 0, numBytes: 0 });

  it('holds a task until its checkpoint is saved; a task whose checkpoint never came is delivered from the attempt that saved it', () => {
    const got: TaskEndEvent[] = [];
    const shared = { next: 0 };
    // attempt 1: tasks 0 and 1 saved; task 2 ends but the backend dies before its checkpoint
    const a = deliverAfterCheckpoint((e) => got.push(e), shared);
    a.onTaskEnd(event(0, 0.9));
    expect(got).toEqual([]);
    a.onSaved({ nextTask: 1 });
    a.onTaskEnd(event(1, 0.8));
    a.onSaved({ nextTask: 2 });
    a.onTaskEnd(event(2, 0.111));
    // attempt 2 resumes from the checkpoint after task 1: task 2 again, then task 3
    const b = deliverAfterCheckpoint((e) => got.push(e), shared);
    b.onTaskEnd(event(2, 0.7));
    b.onSaved({ nextTask: 3 });
    b.onTaskEnd(event(3, 0.6));
    b.onSaved({ nextTask: 4 });
    expect(got.map((e) => [e.task, e.row[0]])).toEqual([
      [0, 0.9],
      [1, 0.8],
      [2, 0.7],
      [3, 0.6],
    ]);
    // a stale checkpoint (an earlier task) or a task already delivered is never delivered again
    const c = deliverAfterCheckpoint((e) => got.push(e), shared);
    c.onTaskEnd(event(3, 0.5));
    c.onSaved({ nextTask: 4 });
    expect(got).toHaveLength(4);
  });
});
