/**
 * Learning without Forgetting (Li & Hoiem 2016) for class-incremental learning, as Avalanche runs it:
 * `L = CE(seen classes) + α · KD(z_old, z_new; T)` where z_old are the logits of the model as it was before task
 * t (frozen) on the current batch, and both are restricted to the old classes (units 0..seenBefore−1). The old
 * model is rebuilt from the network's weights at the start of each task, so LwF needs no state between tasks.
 * Task 0 has no old classes: plain cross-entropy.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { LwfOptions } from '../defaults';
import { distillation, headPrefix } from '../losses';
import { createNetwork, type Network } from '../models';
import type { LossBatch, Strategy, TaskContext } from './types';

/** The frozen copy of the network at the start of the task (shared with iCaRL). */
export async function frozenCopy(network: Network): Promise<Network> {
  return createNetwork(network.spec, await network.readWeights(), { trainable: false });
}

/**
 * The old-model distillation term shared by LwF and iCaRL: `weight · KD(z_old, z_new; T)` over the old classes
 * (units 0..seenBefore−1), z_old from the frozen copy taken in `beforeTask` (none on task 0 or with no old units).
 */
export interface OldModelDistillation {
  beforeTask(ctx: TaskContext): Promise<void>;
  lossTerm(batch: LossBatch): tf.Scalar | null;
  release(): void;
}

export function oldModelDistillation(temperature: number, weight: number): OldModelDistillation {
  let old: Network | null = null;
  let oldWidth = 0;
  const release = (): void => {
    old?.dispose();
    old = null;
  };
  return {
    async beforeTask(ctx) {
      release();
      oldWidth = ctx.seenBefore;
      if (ctx.t > 0 && oldWidth > 0) old = await frozenCopy(ctx.network);
    },
    lossTerm(batch) {
      const frozen = old;
      if (!frozen) return null;
      return tf.tidy(() => {
        const target = headPrefix(frozen.logits(batch.x), oldWidth);
        return tf.mul(distillation(headPrefix(batch.logits, oldWidth), target, temperature), weight) as tf.Scalar;
      });
    },
    release,
  };
}

export function createLwf(options: LwfOptions): Strategy {
  const kd = oldModelDistillation(options.temperature, options.alpha);
  const release = (): void => kd.release();
  return {
    id: 'lwf',
    beforeTask: (ctx) => kd.beforeTask(ctx),
    trainingSet: (ctx) => ctx.trainExamples(ctx.t),
    lossTerms: (_ctx, batch) => kd.lossTerm(batch),
    async afterTask() {
      release();
    },
    getState: () => ({}),
    setState() {},
    dispose: release,
  };
}
