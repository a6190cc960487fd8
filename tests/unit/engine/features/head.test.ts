/**
 * The `head` model on a feature dataset (src/engine/dataset.ts, trainer.ts networkSpec, kernels/fused-mlp.ts float
 * input). The sharpest check: a head over features that ARE the pixels scaled by 1/255 is the MLP on those pixels, so
 * its R must equal the MLP's exactly — on cpu (tfjs reads the same float32 values) and on wasm (the fused step lists
 * the float rows with `compress` and the byte rows with `compressBytes` to the same values). Then every strategy:
 * tensor counts back to baseline, prefix sharing and populations equal naive runs; and the refusals.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enumerateOrderings } from '../../../../src/core/orderings/enumerate';
import { selectBackend } from '../../../../src/engine/backend';
import { STRATEGY_IDS, type StrategyId } from '../../../../src/engine/defaults';
import { isFeatureDataset, subsetPerClass } from '../../../../src/engine/dataset';
import { featureDatasetOf } from '../../../../src/engine/features/dataset';
import { setFusedMlp } from '../../../../src/engine/kernels/fused-mlp';
import { trainShared } from '../../../../src/engine/shared-train';
import { trainRun, type TaskEndEvent } from '../../../../src/engine/trainer';
import type { FeatureDataset, ImageDataset, TrainRunConfig, TrainRunResult } from '../../../../src/engine/types';
import { syntheticDataset } from '../synthetic';

const images: ImageDataset = syntheticDataset({ classes: 6, trainPerClass: 24, testPerClass: 10 });

/** The same examples as feature vectors: each pixel v as Math.fround(v / 255), what batchImages makes of it. */
function pixelFeatures(ds: ImageDataset): FeatureDataset {
  const size = ds.shape[0] * ds.shape[1] * ds.shape[2];
  const split = (s: ImageDataset['train']) => ({ images: Float32Array.from(s.images, (v) => v / 255), labels: Int32Array.from(s.labels) });
  return { shape: [1, 1, size], classNames: ds.classNames.slice(), train: split(ds.train), test: split(ds.test) };
}
const features = pixelFeatures(images);

function orderings(): number[][][] {
  const all = Array.from(enumerateOrderings([2, 2, 2]), (o) => o.map((t) => [...t]));
  return [...all.slice(0, 5), all[40], all[89]];
}

function config(strategy: StrategyId, model: TrainRunConfig['model'], extra: Partial<TrainRunConfig> = {}): TrainRunConfig {
  return {
    tasks: [
      [0, 1],
      [2, 3],
      [4, 5],
    ],
    seed: 3,
    strategy,
    model,
    epochs: 2,
    batchSize: 16,
    lr: 0.01,
    ...(['replay', 'icarl', 'agem', 'gdumb'].includes(strategy) ? { strategyOptions: { memory: 20 } } : {}),
    ...extra,
  } as TrainRunConfig;
}

const mlp = { kind: 'mlp' as const, hidden: [16] };
const head = { kind: 'head' as const, hidden: [16] };

describe('a feature dataset', () => {
  it('is recognised by its float rows, and subsets keep them float with their labels', () => {
    expect(isFeatureDataset(features)).toBe(true);
    expect(isFeatureDataset(images)).toBe(false);
    const sub = subsetPerClass(features, { trainPerClass: 3, testPerClass: 2 });
    expect(sub.train.images).toBeInstanceOf(Float32Array);
    expect(sub.train.labels).toBeInstanceOf(Int32Array);
    expect(sub.train.labels.length).toBe(18);
    expect(sub.test.labels.length).toBe(12);
    expect(Array.from(sub.train.images.subarray(0, 36))).toEqual(Array.from(features.train.images.subarray(0, 36)));
  });

  it('is built from a feature set with the set’s class indices, train and test rows apart', () => {
    const set = {
      features: Float32Array.from({ length: 12 }, (_, i) => i),
      n: 6,
      d: 2,
      labels: Int32Array.from([2, 0, 2, 1, 0, 2]),
      split: Uint8Array.from([0, 0, 1, 0, 1, 1]),
      classNames: ['a', 'b', 'c'],
    };
    const all = featureDatasetOf(set);
    expect(all.shape).toEqual([1, 1, 2]);
    expect(Array.from(all.train.labels)).toEqual([2, 0, 1]);
    expect(Array.from(all.train.images)).toEqual([0, 1, 2, 3, 6, 7]);
    expect(Array.from(all.test.labels)).toEqual([2, 0, 2]);
    const some = featureDatasetOf(set, [2]);
    expect(Array.from(some.train.labels)).toEqual([2]);
    expect(Array.from(some.test.images)).toEqual([4, 5, 10, 11]);
    expect(() => featureDatasetOf({ ...set, labels: Int32Array.from([0, 0, 0, 0, 0, 3]) })).toThrow(/label 3/);
  });
});

describe('the head on pixel features is the MLP on the pixels', () => {
  afterAll(async () => {
    setFusedMlp(true);
    await selectBackend('cpu', { strict: true });
  });
  it('cpu: identical R for finetune, EWC and iCaRL', async () => {
    await selectBackend('cpu', { strict: true });
    for (const s of ['finetune', 'ewc', 'icarl'] as const) {
      const a = await trainRun(images, config(s, mlp));
      const b = await trainRun(features, config(s, head));
      expect(b.matrix, s).toEqual(a.matrix);
      expect(b.config.model).toEqual({ kind: 'head', hidden: [16] });
    }
  }, 60_000);
  it('wasm: identical R with the fused step (float rows listed as the byte rows are), and close to the tfjs step', async () => {
    await selectBackend('wasm', { strict: true });
    setFusedMlp(true);
    const a = await trainRun(images, config('finetune', mlp));
    const b = await trainRun(features, config('finetune', head));
    expect(b.matrix).toEqual(a.matrix);
    const linear = await trainRun(features, config('replay', { kind: 'head', hidden: [] }));
    const linearPixels = await trainRun(images, config('replay', { kind: 'mlp', hidden: [] }));
    expect(linear.matrix).toEqual(linearPixels.matrix);
    setFusedMlp(false);
    const tfjs = await trainRun(features, config('finetune', head));
    tfjs.matrix.forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - b.matrix[i][j])).toBeLessThanOrEqual(0.1)));
  }, 60_000);
});

describe('every strategy trains a head (cpu)', () => {
  beforeAll(async () => {
    await selectBackend('cpu', { strict: true });
  });
  it('learns above chance and returns the tensor count to its baseline after every task', async () => {
    const before = tf.memory().numTensors;
    for (const strategy of STRATEGY_IDS) {
      const events: TaskEndEvent[] = [];
      const r = await trainRun(features, config(strategy, { kind: 'head', hidden: [] }, { epochs: 8 }), { onTaskEnd: (e) => events.push(e) });
      expect(events.map((e) => e.task)).toEqual([0, 1, 2]);
      for (const e of events) expect(e.numTensors, `${strategy} after task ${e.task}`).toBe(e.baselineTensors);
      expect(r.matrix[0][0], strategy).toBeGreaterThan(0.6);
    }
    expect(tf.memory().numTensors).toBe(before);
  }, 120_000);

  it('prefix sharing and a population of 3 give the naive runs’ R (to 1e-5)', async () => {
    for (const strategy of ['replay', 'lwf'] as const) {
      const cs = orderings().map((tasks) => ({ ...config(strategy, head), tasks }));
      const naive: TrainRunResult[] = [];
      for (const c of cs) naive.push(await trainRun(features, c));
      for (const population of [1, 3]) {
        const shared = await trainShared(features, cs, { population });
        shared.forEach((r, o) =>
          r.matrix.forEach((row, i) =>
            row.forEach((v, j) => expect(Math.abs(v - naive[o].matrix[i][j]), `${strategy} ${o} R[${i}][${j}]`).toBeLessThanOrEqual(1e-5)),
          ),
        );
      }
    }
  }, 120_000);
});

describe('refusals', () => {
  it('a head on images, an MLP or CNN on features, augmentation of features', async () => {
    await expect(trainRun(images, config('finetune', head))).rejects.toThrow(/head model trains on feature vectors/);
    await expect(trainRun(features, config('finetune', mlp))).rejects.toThrow(/train with the head model, not an MLP/);
    await expect(trainShared(features, [config('finetune', { kind: 'cnn' })])).rejects.toThrow(/not a CNN/);
    await expect(trainRun(features, config('finetune', head, { augment: true }))).rejects.toThrow(/cannot be augmented/);
    await expect(trainRun(features, config('finetune', { kind: 'head', hidden: [4, 4] }))).rejects.toThrow(/one hidden layer/);
  });
});
