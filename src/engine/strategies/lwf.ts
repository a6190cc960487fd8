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
import type { Strategy } from './types';

/** The frozen copy of the network at the start of the task (shared with iCaRL). */
export async function frozenCopy(network: Network): Promise<Network> {
  return createNetwork(network.spec, await network.readWeights(), { trainable: false });
}

export function createLwf(options: LwfOptions): Strategy {
  let old: Network | null = null;
  let oldWidth = 0;
  const release = (): void => {
    old?.dispose();
    old = null;
  };
  return {
    id: 'lwf',
    async beforeTask(ctx) {
      release();
      oldWidth = ctx.seenBefore;
      if (ctx.t > 0 && oldWidth > 0) old = await frozenCopy(ctx.network);
    },
    trainingSet: (ctx) => ctx.trainExamples(ctx.t),
    lossTerms(_ctx, batch) {
      const frozen = old;
      if (!frozen) return null;
      return tf.tidy(() => {
        const target = headPrefix(frozen.logits(batch.x), oldWidth);
        return tf.mul(distillation(headPrefix(batch.logits, oldWidth), target, options.temperature), options.alpha) as tf.Scalar;
      });
    },
    async afterTask() {
      release();
    },
    getState: () => ({}),
    setState() {},
    dispose: release,
  };
}
