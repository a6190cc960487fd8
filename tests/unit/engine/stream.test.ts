import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { RunCancelledError, RunControl } from '../../../src/engine/control';
import { streamFromPool } from '../../../src/engine/stream/data';
import { trainStream, type StreamCheckpoint, type StreamRunConfig, type StreamStepEnd } from '../../../src/engine/stream/train';
import { syntheticDataset } from './synthetic';

const pool = syntheticDataset({ classes: 4, trainPerClass: 40, testPerClass: 1, side: 8, noise: 40 });
const { dataset, stream } = streamFromPool(pool, { kind: 'drift', buckets: 3, perClass: 10, strength: 1, seed: 2 });

function config(extra: Partial<StreamRunConfig> = {}): StreamRunConfig {
  return {
    protocol: 'iid',
    mode: 'finetune',
    buffer: { kind: 'cumulative' },
    bucketSizes: stream.sizes,
    seed: 1,
    model: { kind: 'mlp', hidden: [16] },
    epochs: 3,
    batchSize: 8,
    lr: 0.01,
    ...extra,
  };
}

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
});

describe('trainStream on the cpu backend', () => {
  it('fills R, its CLEAR averages and the training sets of the iid protocol', async () => {
    const steps: StreamStepEnd[] = [];
    const r = await trainStream(dataset, config(), { onStepEnd: (e) => steps.push(e) });
    expect(r.matrix).toHaveLength(3);
    for (const row of r.matrix) expect(row).toHaveLength(3);
    expect(r.testSizes).toEqual([12, 12, 12]); // 30% of 10 per class = 3 × 4 classes
    expect(r.trainSizes).toEqual([28, 56, 84]); // cumulative
    expect(r.compositions[2]).toEqual([28, 28, 28]);
    expect(r.metrics.inDomain).toBeCloseTo((r.matrix[0][0] + r.matrix[1][1] + r.matrix[2][2]) / 3, 12);
    expect(r.metrics.nextDomain).toBeCloseTo((r.matrix[0][1] + r.matrix[1][2]) / 2, 12);
    expect(r.matrix[0][0]).toBeGreaterThan(0.5); // learnt something (4 classes: chance 0.25)
    // tensors back at the baseline after every step
    expect(steps).toHaveLength(3);
    for (const s of steps) expect(s.numTensors).toBe(s.baselineTensors);
  });

  it('streaming tests on whole buckets and reports only next-domain and forward', async () => {
    const r = await trainStream(
      dataset,
      config({ protocol: 'streaming', mode: 'scratch', buffer: { kind: 'reservoir', k: 20, alpha: { kind: 'dynamic', c: 1 } } }),
    );
    expect(r.testSizes).toEqual([40, 40, 40]);
    expect(r.trainSizes).toEqual([20, 20, 20]);
    expect(r.compositions[2]).toEqual([0, 0, 20]); // FIFO keeps only the newest bucket
    expect(r.metrics.inDomain).toBeNull();
    expect(r.metrics.backwardTransfer).toBeNull();
    expect(r.metrics.accuracy).toBeNull();
    expect(r.metrics.nextDomain).not.toBeNull();
    expect(r.byDistance.every((p) => p.distance > 0)).toBe(true);
  });

  it('linear probe: a head on frozen features; tensors released; same seed → same R', async () => {
    const steps: StreamStepEnd[] = [];
    const before = tf.memory().numTensors;
    const a = await trainStream(dataset, config({ mode: 'linear' }), { onStepEnd: (e) => steps.push(e) });
    expect(tf.memory().numTensors).toBe(before);
    for (const s of steps) expect(s.numTensors).toBe(s.baselineTensors);
    const b = await trainStream(dataset, config({ mode: 'linear' }));
    expect(b.matrix).toEqual(a.matrix);
    const c = await trainStream(dataset, config({ mode: 'linear', seed: 2 }));
    expect(c.matrix).not.toEqual(a.matrix);
    expect(a.matrix[0][0]).toBeGreaterThan(0.4);
  });

  it('finetune and scratch differ; every mode frees its tensors', async () => {
    const before = tf.memory().numTensors;
    const f = await trainStream(dataset, config({ epochs: 1 }));
    const s = await trainStream(dataset, config({ epochs: 1, mode: 'scratch' }));
    expect(s.matrix[0]).toEqual(f.matrix[0]); // the same first step
    expect(s.matrix[2]).not.toEqual(f.matrix[2]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('resumes from a checkpoint to the same R; cancels', async () => {
    const cps: StreamCheckpoint[] = [];
    const full = await trainStream(dataset, config({ mode: 'linear', epochs: 2 }), { onCheckpoint: (c) => cps.push(c) });
    expect(cps.map((c) => c.nextStep)).toEqual([1, 2, 3]);
    const resumed = await trainStream(dataset, config({ mode: 'linear', epochs: 2 }), { resumeFrom: cps[0] });
    expect(resumed.matrix).toEqual(full.matrix);
    await expect(trainStream(dataset, config({ epochs: 2 }), { resumeFrom: cps[0] })).rejects.toThrow(/different run/);
    const control = new RunControl();
    control.cancel();
    await expect(trainStream(dataset, config(), { control })).rejects.toBeInstanceOf(RunCancelledError);
  });
});
