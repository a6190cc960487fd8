/**
 * iCaRL (Rebuffi et al. 2017), as PyCIL trains it:
 * - training set of task t = its data ∪ the exemplars of the old classes;
 * - loss = CE over the classes seen so far + `distillWeight` · KD(old model, new model; T) over the old classes
 *   (PyCIL's `loss_clf + loss_kd`; the paper's sigmoid-BCE formulation is not used);
 * - after the task, exemplars by herding under a fixed budget (exemplars.ts) and class means μ_y of the
 *   normalised features of every class's exemplars, recomputed with the current network;
 * - prediction: nearest mean of exemplars (NME) over the classes seen so far.
 */
import type { IcarlOptions } from '../defaults';
import { classMemoryExamples, classMemoryFromState, classMemoryToState, type ClassMemory } from '../memory';
import { concatExamples } from './concat';
import { classMean, nearestMeanScores, updateHerdingMemory } from './exemplars';
import { oldModelDistillation } from './lwf';
import type { Strategy } from './types';

export function createIcarl(options: IcarlOptions): Strategy {
  let exemplars: ClassMemory = new Map();
  let means = new Float32Array(0); // units × featureSize, units 0..meansCount−1
  let meansCount = 0;
  const kd = oldModelDistillation(options.temperature, options.distillWeight);
  const release = (): void => kd.release();
  return {
    id: 'icarl',
    beforeTask: (ctx) => kd.beforeTask(ctx),
    trainingSet: (ctx) => concatExamples(ctx.trainExamples(ctx.t), classMemoryExamples(exemplars)),
    lossTerms: (_ctx, batch) => kd.lossTerm(batch),
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
