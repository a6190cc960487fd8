/**
 * Experience replay with a fixed memory budget: task t trains on its own data together with the memory of
 * earlier tasks (concatenated and shuffled, as PyCIL's replay trains), cross-entropy over the classes seen so far.
 * After the task the memory takes in task t's data by
 * - 'reservoir' (default): reservoir sampling over the stream of all training examples, the stream order of
 *   task t being a seeded permutation of its data; or
 * - 'herding': class-balanced, ⌊memory / classes seen⌋ per class chosen by iCaRL's herding on the features.
 */
import type { ReplayOptions } from '../defaults';
import { classMemoryExamples, classMemoryFromState, classMemoryToState, reservoirUpdate, type ClassMemory } from '../memory';
import { concatExamples } from './concat';
import { updateHerdingMemory } from './exemplars';
import type { Strategy } from './types';

export function createReplay(options: ReplayOptions): Strategy {
  let reservoir: Int32Array = new Int32Array(0);
  let streamSeen = 0;
  let perClass: ClassMemory = new Map();
  const memoryExamples = (): Int32Array => (options.selection === 'herding' ? classMemoryExamples(perClass) : reservoir);
  return {
    id: 'replay',
    async beforeTask() {},
    trainingSet: (ctx) => concatExamples(ctx.trainExamples(ctx.t), memoryExamples()),
    async afterTask(ctx) {
      if (options.selection === 'herding') {
        perClass = await updateHerdingMemory(ctx, perClass, options.memory);
        return;
      }
      const ex = ctx.trainExamples(ctx.t);
      const rng = ctx.rng('memory'); // one stream: the order of the examples, then the reservoir's draws
      const stream = Int32Array.from(rng.permutation(ex.length), (k) => ex[k]);
      const next = reservoirUpdate(reservoir, streamSeen, stream, options.memory, rng);
      reservoir = next.memory;
      streamSeen = next.seen;
    },
    getState: () => ({ reservoir: reservoir.slice(), streamSeen, perClass: classMemoryToState(perClass) }),
    setState(state) {
      reservoir = state.reservoir ? (state.reservoir as Int32Array).slice() : new Int32Array(0);
      streamSeen = (state.streamSeen as number | undefined) ?? 0;
      perClass = classMemoryFromState(state.perClass);
    },
    dispose() {},
  };
}
