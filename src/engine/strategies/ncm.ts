/**
 * Nearest class mean: the network trains (cross-entropy) on the first task only; its features are then
 * frozen, and every class is represented by the normalised mean of the L2-normalised features of all its
 * training data (exemplars.ts `classMean`), computed when its task arrives. Prediction is the nearest class mean
 * over the classes seen so far — also after task 0, so every row of R uses the same classifier. Because the
 * features never change after task 0 the old class means stay valid and nothing is forgotten in the
 * classifier; what limits NCM is how well first-task features separate later classes.
 */
import { classMean, examplesByUnit, nearestMeanScores } from './exemplars';
import type { Strategy } from './types';

export function createNcm(): Strategy {
  let means = new Float32Array(0);
  let meansCount = 0;
  return {
    id: 'ncm',
    async beforeTask() {},
    trainingSet: (ctx) => (ctx.t === 0 ? ctx.trainExamples(0) : null),
    async afterTask(ctx) {
      const d = ctx.network.featureSize;
      const grow = new Float32Array(ctx.seen * d);
      grow.set(means.subarray(0, Math.min(means.length, grow.length)));
      for (const [u, ex] of examplesByUnit(ctx)) {
        await ctx.checkpoint();
        grow.set(await classMean(ctx, ex), u * d);
      }
      means = grow;
      meansCount = ctx.seen;
    },
    predictScores: (ctx, x) => (meansCount > 0 ? nearestMeanScores(ctx, x, means, Math.min(meansCount, ctx.seen)) : null),
    getState: () => ({ means: means.slice(), meansCount }),
    setState(state) {
      means = state.means ? (state.means as Float32Array).slice() : new Float32Array(0);
      meansCount = (state.meansCount as number | undefined) ?? 0;
    },
    dispose() {},
  };
}
