/**
 * EDGE's third ordering, the random "median" one (docs/science.md §1): a seeded random ordering drawn with numpy's
 * `default_rng(seed).permutation(N)` (PCG64); seed 0 reproduces the authors' reference choice.
 */
import { splitIntoTasks } from '../orderings/key';
import type { Ordering, TaskSizes } from '../orderings/types';
import { defaultRngPermutation } from '../random/default-rng';

export function edgeMedianOrdering(sizes: TaskSizes, seed = 0): Ordering {
  const n = sizes.reduce((a, b) => a + b, 0);
  return splitIntoTasks(defaultRngPermutation(seed, n), sizes);
}
