/**
 * Transfer and forgetting from the accuracy matrix (docs/science.md §4); 0-based indices, K tasks, last row K−1.
 *
 * - BWT (Lopez-Paz & Ranzato, GEM 2017): `1/(K−1) Σ_{j<K−1} (R[K−1][j] − R[j][j])` — negative = forgetting.
 * - Forgetting (Chaudhry et al., RWalk 2018): `1/(K−1) Σ_{j<K−1} (max_{l<K−1} R[l][j] − R[K−1][j])` — positive =
 *   forgetting. As in Chaudhry's definition (l ∈ 1..k−1) the max runs over every earlier step, including steps
 *   before task j was trained (upper triangle); in class-incremental runs those entries are ~0 and never win.
 * - FWT (Lopez-Paz & Ranzato): `1/(K−1) Σ_{j≥1} (R[j−1][j] − b_j)` with `b_j` the accuracy of the untrained
 *   (randomly initialised) model on task j.
 *
 * With one task (K = 1) no task has a "later" or "earlier" step: all three are undefined (0/0) and return null.
 */
import { type AccuracyMatrix, validateAccuracyMatrix, validateTaskAccuracies } from './accuracy-matrix';

/** BWT (Lopez-Paz & Ranzato); null when K = 1. */
export function backwardTransfer(R: AccuracyMatrix): number | null {
  const K = validateAccuracyMatrix(R);
  if (K === 1) return null;
  let s = 0;
  for (let j = 0; j < K - 1; j++) s += R[K - 1][j] - R[j][j];
  return s / (K - 1);
}

/** Average forgetting (Chaudhry et al.); null when K = 1. */
export function forgetting(R: AccuracyMatrix): number | null {
  const K = validateAccuracyMatrix(R);
  if (K === 1) return null;
  let s = 0;
  for (let j = 0; j < K - 1; j++) {
    let best = -Infinity;
    for (let l = 0; l < K - 1; l++) best = Math.max(best, R[l][j]);
    s += best - R[K - 1][j];
  }
  return s / (K - 1);
}

/**
 * FWT (Lopez-Paz & Ranzato): `untrained[j]` = b_j, the untrained model's accuracy on task j (length K; b_0 is
 * validated but unused). Null when K = 1.
 */
export function forwardTransfer(R: AccuracyMatrix, untrained: readonly number[]): number | null {
  const K = validateAccuracyMatrix(R);
  validateTaskAccuracies(untrained, K, 'untrained (b_j)');
  if (K === 1) return null;
  let s = 0;
  for (let j = 1; j < K; j++) s += R[j - 1][j] - untrained[j];
  return s / (K - 1);
}
