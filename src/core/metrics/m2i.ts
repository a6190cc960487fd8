/**
 * M2I/I2M metrics (docs/science.md §4, §8; paper: [M2I] in docs/science.md, References, §2.3 Eqs. 1–3). 0-based indices,
 * K tasks (the paper's N):
 *
 * - ACC (Eq. 1)  `Σ_{i≥j} R[i][j] / (K(K+1)/2)` — the count of i ≥ j entries. The paper prints N(N−1)/2, a typo:
 *   with it a perfect model would score above 1 (docs/science.md §4).
 * - BWT (Eq. 2)  `Σ_{i=1}^{K−1} Σ_{j<i} (R[i][j] − R[j][j]) / (K(K−1)/2)` — every later step against the
 *   just-trained diagonal, averaged over all K(K−1)/2 pairs (unlike GEM's BWT, which uses the last row only).
 *   Eq. 2's denominator is the count of its terms, so it is kept as printed.
 * - FWT (Eq. 3)  `Σ_{i<j} R[i][j] / (K(K−1)/2)` — the raw mean of the upper triangle (no untrained baseline).
 * - ACC₀ (§8, ours)  `Σ_j (K−j)·a_j / (K(K+1)/2)` (0-based; `(K−j+1)` 1-based) with `a_j` the accuracy of a model
 *   trained on task j alone: the ACC that a model with no transfer and no forgetting (R[i][j] = a_j for i ≥ j)
 *   gets, because task j sits in K−j rows of the lower triangle. Easy-first orders win ACC by this artefact alone.
 *
 * K = 1: BWT and FWT are 0/0 and return null; ACC = R[0][0].
 */
import { type AccuracyMatrix, AccuracyMatrixError, validateAccuracyMatrix, validateTaskAccuracies } from './accuracy-matrix';
import { sumLowerWithDiagonal, sumStrictlyUpper } from './clear';

/** M2I metrics of one accuracy matrix. */
export interface M2iMetrics {
  /** Eq. 1 with the K(K+1)/2 denominator. */
  accuracy: number;
  /** Eq. 2; null when K = 1. */
  bwt: number | null;
  /** Eq. 3, raw mean of the upper triangle; null when K = 1. */
  fwt: number | null;
}

/** M2I ACC (Eq. 1, corrected denominator K(K+1)/2). */
export function m2iAccuracy(R: AccuracyMatrix): number {
  const K = validateAccuracyMatrix(R);
  return sumLowerWithDiagonal(R) / ((K * (K + 1)) / 2);
}

/** M2I BWT (Eq. 2): mean over all i > j of `R[i][j] − R[j][j]`; null when K = 1. */
export function m2iBackwardTransfer(R: AccuracyMatrix): number | null {
  const K = validateAccuracyMatrix(R);
  if (K === 1) return null;
  let s = 0;
  for (let i = 1; i < K; i++) for (let j = 0; j < i; j++) s += R[i][j] - R[j][j];
  return s / ((K * (K - 1)) / 2);
}

/** M2I FWT (Eq. 3): raw mean of R over i < j; null when K = 1. */
export function m2iForwardTransfer(R: AccuracyMatrix): number | null {
  const K = validateAccuracyMatrix(R);
  return K === 1 ? null : sumStrictlyUpper(R) / ((K * (K - 1)) / 2);
}

/** All three M2I metrics. */
export function m2iMetrics(R: AccuracyMatrix): M2iMetrics {
  return { accuracy: m2iAccuracy(R), bwt: m2iBackwardTransfer(R), fwt: m2iForwardTransfer(R) };
}

/**
 * The artefact baseline ACC₀ (docs/science.md §8): `isolated[j]` = accuracy of a model trained on task j alone, in the
 * order the tasks are presented. Returns `Σ_j (K−j)·a_j / (K(K+1)/2)` (0-based j).
 */
export function artefactBaselineAccuracy(isolated: readonly number[]): number {
  if (!Array.isArray(isolated) || isolated.length === 0) {
    throw new AccuracyMatrixError('ACC₀ needs one isolated-training accuracy per task (at least one task)');
  }
  const K = isolated.length;
  validateTaskAccuracies(isolated, K, 'isolated accuracy (a_j)');
  let s = 0;
  for (let j = 0; j < K; j++) s += (K - j) * isolated[j];
  return s / ((K * (K + 1)) / 2);
}
