/**
 * RS protocol (docs/science.md §1): the community's class orders, `np.random.seed(s); np.random.permutation(N)`
 * (PyCIL, PILOT, OpenCIL) with seeds 0, 42, 1993 by default; the first m_1 classes form task 1, and so on.
 * Bit-identical to numpy's legacy RandomState, so the order equals the one a user's PyTorch run used.
 */
import { randomStatePermutation } from '../random/random-state';

export const DEFAULT_RS_SEEDS = [0, 42, 1993] as const;

/** The class order numpy's legacy generator gives for `seed` (not split into tasks). */
export function rsClassOrder(seed: number, classCount: number): number[] {
  return randomStatePermutation(seed, classCount);
}
