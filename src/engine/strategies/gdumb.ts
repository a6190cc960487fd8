/**
 * GDumb (Prabhu, Torr & Dokania 2020): a greedy class-balanced memory fed by the stream, and at every task a
 * model retrained from scratch on the memory alone (the task's own data is used only through the memory).
 * The stream order of task t is a seeded permutation of its data; the retraining starts from seeded initial
 * weights derived from the task seed. Cross-entropy and prediction over the classes seen so far (GDumb masks the
 * classes not in memory at test time). The paper's SGD schedule and cutmix are not reproduced: the run's optimiser
 * and epochs apply.
 */
import type { GdumbOptions } from '../defaults';
import { greedyClassBalancedUpdate } from '../memory';
import { deriveSeed, STREAM } from '../seeds';
import type { Strategy } from './types';

export function createGdumb(options: GdumbOptions): Strategy {
  let memory: Int32Array = new Int32Array(0);
  return {
    id: 'gdumb',
    async beforeTask(ctx) {
      const ex = ctx.trainExamples(ctx.t);
      const rng = ctx.rng('memory');
      const stream = Int32Array.from(rng.permutation(ex.length), (k) => ex[k]);
      memory = greedyClassBalancedUpdate(memory, stream, (e) => ctx.unitOf(e), options.memory, rng);
      ctx.network.setWeights(ctx.initialWeights(deriveSeed(ctx.taskSeed, STREAM.reinit)));
    },
    trainingSet: () => memory,
    async afterTask() {},
    getState: () => ({ memory: memory.slice() }),
    setState(state) {
      memory = state.memory ? (state.memory as Int32Array).slice() : new Int32Array(0);
    },
    dispose() {},
  };
}
