/**
 * What the Forgetting lab trains of an experiment: its datasets, the first 10 classes of one, and the config's ordering
 * of them. A leaf of core (config types only), so the lab entry's binding (src/core/labs/forgetting/binding.ts) and
 * the runs of a config (./from-config.ts) read the same.
 */
import type { ExperimentConfig } from '../config/types';
import { canonicalOrdering, parseOrderingKey } from '../orderings/key';
import type { ForgettingDataset } from './setup';

export const FORGETTING_DATASETS: readonly ForgettingDataset[] = ['digits', 'fashion-mnist', 'emoji'];
/** The lab trains the first 10 classes of a dataset. */
export const FORGETTING_CLASSES: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

export const isForgettingDataset = (id: string): id is ForgettingDataset => (FORGETTING_DATASETS as readonly string[]).includes(id);

/** The config's ordering: `ui.selectedOrdering`, else its classes split by `taskSizes` (tasks as sets). */
export function configTasks(config: ExperimentConfig): number[][] {
  if (config.ui.selectedOrdering) return canonicalOrdering(parseOrderingKey(config.ui.selectedOrdering));
  const tasks: number[][] = [];
  let at = 0;
  for (const m of config.taskSizes) {
    tasks.push(config.classes.slice(at, at + m));
    at += m;
  }
  return canonicalOrdering(tasks);
}
