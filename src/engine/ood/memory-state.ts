/**
 * The exemplar memory of a run between tasks, read from the strategy state a checkpoint carries (trainer.ts
 * `onCheckpoint`), for the OOD detectors' set-up data (docs/science.md §5: the current task's training data plus
 * the exemplar memory only). Strategies without a memory (finetune, joint, EWC, LwF, SI, NCM) give none.
 */
import type { StrategyId } from '../defaults';
import { classMemoryExamples, classMemoryFromState } from '../memory';
import type { StateValue, StrategyState } from '../types';

/** Training-split indices held in the memory of `strategy`'s state. */
export function memoryExamples(strategy: StrategyId, state: StrategyState | undefined): Int32Array {
  if (!state) return new Int32Array(0);
  switch (strategy) {
    case 'replay': {
      const reservoir = state.reservoir as Int32Array | undefined;
      return reservoir && reservoir.length > 0 ? reservoir.slice() : classMemoryExamples(classMemoryFromState(state.perClass));
    }
    case 'icarl':
      return classMemoryExamples(classMemoryFromState(state.exemplars));
    case 'gdumb':
      return ((state.memory as Int32Array | undefined) ?? new Int32Array(0)).slice();
    case 'agem':
      return Int32Array.from(((state.perTask as StateValue[] | undefined) ?? []).flatMap((a) => Array.from(a as Int32Array)));
    default:
      return new Int32Array(0);
  }
}
