import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { createNetwork, type NetworkSpec } from '../../../src/engine/models';
import { createEwc, ewcPenaltyWeight, type EwcStrategy } from '../../../src/engine/strategies/ewc';
import type { TaskContext } from '../../../src/engine/strategies/types';
import { trainRun } from '../../../src/engine/trainer';
import { syntheticDataset } from './synthetic';

beforeAll(async () => {
  await selectBackend('cpu', { strict: true });
});

describe('EWC penalty weights (docs/science.md §3)', () => {
  it('multi-penalisation: λ_j = λ / 2^{t−j−1}', () => {
    expect([0, 1, 2].map((j) => ewcPenaltyWeight('multi', 8, 3, j))).toEqual([2, 4, 8]);
    expect(ewcPenaltyWeight('multi', 1000, 5, 0)).toBe(1000 / 16);
    expect(() => ewcPenaltyWeight('multi', 1, 2, 2)).toThrow(RangeError);
  });

  it('single-penalisation: λ for the last task only', () => {
    expect([0, 1, 2].map((j) => ewcPenaltyWeight('single', 8, 3, j))).toEqual([0, 0, 8]);
  });

  it('the strategy penalises Σ_j (λ_j/2) Σ_i F_ji (θ_i − θ*_ji)² with those weights', async () => {
    const spec: NetworkSpec = { kind: 'mlp', inputShape: [1, 1, 2], outputs: 2, hidden: [] };
    const theta = [Float32Array.from([1, 2, 3, 4]), Float32Array.from([0, 0])];
    const net = createNetwork(spec, theta);
    const ctx = { t: 3, network: net } as unknown as TaskContext;
    const ewc = createEwc({ lambda: 8, mode: 'multi', fisherSamples: 10 }) as EwcStrategy;
    // three past tasks, each with a Fisher of ones on the kernel and anchor θ* = θ − (j+1) on the first weight
    const anchor = (j: number) => [Float32Array.from([1 - (j + 1), 2, 3, 4]), Float32Array.from([0, 0])];
    const fisher = [Float32Array.from([1, 1, 1, 1]), Float32Array.from([0, 0])];
    ewc.setState({ tasks: Int32Array.from([0, 1, 2]), fishers: [fisher, fisher, fisher], anchors: [anchor(0), anchor(1), anchor(2)] });
    await ewc.beforeTask(ctx);
    expect(ewc.penaltyWeights()).toEqual([
      { task: 0, weight: 2 },
      { task: 1, weight: 4 },
      { task: 2, weight: 8 },
    ]);
    const penalty = ewc.lossTerms?.(ctx, {} as never) as tf.Scalar;
    // (2/2)·1² + (4/2)·2² + (8/2)·3² = 1 + 8 + 36
    expect((await penalty.data())[0]).toBeCloseTo(45, 5);
    penalty.dispose();
    ewc.dispose();
    net.dispose();
  });

  it('single mode keeps only the last Fisher; multi one per past task (one-class tasks too)', async () => {
    const ds = syntheticDataset({ classes: 4, trainPerClass: 10, testPerClass: 4 });
    const base = { tasks: [[0], [1], [2], [3]], seed: 1, model: { kind: 'mlp' as const, hidden: [8] }, epochs: 1, batchSize: 10 };
    const single = await trainRun(
      ds,
      { ...base, strategy: 'ewc', strategyOptions: { mode: 'single', fisherSamples: 5 } },
      {
        onCheckpoint: (c) => expect((c.strategy.fishers as unknown[]).length).toBe(1),
      },
    );
    const multi: number[] = [];
    await trainRun(
      ds,
      { ...base, strategy: 'ewc', strategyOptions: { mode: 'multi', fisherSamples: 5 } },
      {
        onCheckpoint: (c) => multi.push((c.strategy.fishers as unknown[]).length),
      },
    );
    expect(multi).toEqual([1, 2, 3, 4]);
    expect(single.matrix).toHaveLength(4);
  });
});
