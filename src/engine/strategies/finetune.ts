/**
 * Fine-tuning (naive): train on each task's data only, with nothing against forgetting — the lower bound of
 * class-incremental learning. Cross-entropy over the head masked to the classes seen so far (the default 'seen'
 * head), so old classes keep their output units but get no positive examples and are forgotten.
 */
import type { Strategy } from './types';

export function createFinetune(): Strategy {
  return {
    id: 'finetune',
    async beforeTask() {},
    trainingSet: (ctx) => ctx.trainExamples(ctx.t),
    async afterTask() {},
    getState: () => ({}),
    setState() {},
    dispose() {},
  };
}
