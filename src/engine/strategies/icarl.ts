/**
 * iCaRL (Rebuffi et al. 2017), as PyCIL trains it:
 * - training set of task t = its data ∪ the exemplars of the old classes;
 * - loss = CE over the classes seen so far + `distillWeight` · KD(old model, new model; T) over the old classes
 *   (PyCIL's `loss_clf + loss_kd`; the paper's sigmoid-BCE formulation is not used);
 * - after the task, exemplars by herding under a fixed budget (exemplars.ts) and class means μ_y of the
 *   normalised features of every class's exemplars, recomputed with the current network;
 * - prediction: nearest mean of exemplars (NME) over the classes seen so far.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { IcarlOptions } from '../defaults';
import { distillation, headPrefix } from '../losses';
import { classMemoryExamples, classMemoryFromState, classMemoryToState, type ClassMemory } from '../memory';
import type { Network } from '../models';
import { concatExamples } from './concat';
import { classMean, nearestMeanScores, updateHerdingMemory } from './exemplars';
import { frozenCopy } from './lwf';
import type { Strategy } from './types';

export function createIcarl(options: IcarlOptions): Strategy {
  let exemplars: ClassMemory = new Map();
  let means = new Float32Array(0); // units × featureSize, units 0..meansCount−1
  let meansCount = 0;
  let old: Network | null = null;
  let oldWidth = 0;
  const release = (): void => {
    old?.dispose();
    old = null;
  };
  return {
    id: 'icarl',
    async beforeTask(ctx) {
      release();
      oldWidth = ctx.seenBefore;
      if (ctx.t > 0 && oldWidth > 0) old = await frozenCopy(ctx.network);
    },
    trainingSet: (ctx) => concatExamples(ctx.trainExamples(ctx.t), classMemoryExamples(exemplars)),
    lossTerms(_ctx, batch) {
      const frozen = old;
      if (!frozen) return null;
      return tf.tidy(() => {
        const target = headPrefix(frozen.logits(batch.x), oldWidth);
        return tf.mul(distillation(headPrefix(batch.logits, oldWidth), target, options.temperature), options.distillWeight) as tf.Scalar;
      });
    },
    async afterTask(ctx) {
      release();
      exemplars = await updateHerdingMemory(ctx, exemplars, options.memory);
      const d = ctx.network.featureSize;
      const units = [...exemplars.keys()].sort((a, b) => a - b);
      meansCount = units.length === 0 ? 0 : units[units.length - 1] + 1;
      means = new Float32Array(meansCount * d);
      for (const u of units) means.set(await classMean(ctx, exemplars.get(u) as Int32Array), u * d);
    },
    predictScores: (ctx, x) => (meansCount > 0 ? nearestMeanScores(ctx, x, means, Math.min(meansCount, ctx.seen)) : null),
    getState: () => ({ exemplars: classMemoryToState(exemplars), means: means.slice(), meansCount }),
    setState(state) {
      exemplars = classMemoryFromState(state.exemplars);
      means = state.means ? (state.means as Float32Array).slice() : new Float32Array(0);
      meansCount = (state.meansCount as number | undefined) ?? 0;
    },
    dispose: release,
  };
}
