/**
 * CLEAR's five summaries of R (docs/science.md §4; paper: [CLEAR] in docs/science.md, References, supplement §3, Eqs. 1–5). All five are
 * raw AVERAGES of entries of R — not differences against the diagonal as in GEM's BWT/FWT (transfer.ts) —
 * so they are named and labelled as averages. 0-based indices, K tasks:
 *
 * - Accuracy      `Σ_{i≥j} R[i][j] / (K(K+1)/2)`   mean of the diagonal and below
 * - BwT (average) `Σ_{i>j} R[i][j] / (K(K−1)/2)`   mean strictly below the diagonal
 * - FwT (average) `Σ_{i<j} R[i][j] / (K(K−1)/2)`   mean strictly above the diagonal
 * - In-domain     `mean_i R[i][i]`                  mean of the diagonal
 * - Next-domain   `mean_{i<K−1} R[i][i+1]`          mean of the super-diagonal
 *
 * With K = 1 there is no entry off the diagonal: BwT, FwT and Next-domain are null.
 */
import { type AccuracyMatrix, validateAccuracyMatrix } from './accuracy-matrix';

/** CLEAR's raw averages of R. */
export interface ClearAverages {
  /** Mean of R on and below the diagonal. */
  accuracy: number;
  /** CLEAR "BwT": mean of R strictly below the diagonal (an average accuracy, not a difference). Null when K = 1. */
  bwtAverage: number | null;
  /** CLEAR "FwT": mean of R strictly above the diagonal (an average accuracy, not a difference). Null when K = 1. */
  fwtAverage: number | null;
  /** Mean of the diagonal R[i][i]. */
  inDomainAccuracy: number;
  /** Mean of the super-diagonal R[i][i+1]. Null when K = 1. */
  nextDomainAccuracy: number | null;
}

/** UI labels that say what each CLEAR number is an average of. */
export const CLEAR_LABELS: Readonly<Record<keyof ClearAverages, string>> = {
  accuracy: 'Accuracy (CLEAR): mean of R on and below the diagonal',
  bwtAverage: 'BwT (CLEAR): mean of R below the diagonal — an average, not a difference',
  fwtAverage: 'FwT (CLEAR): mean of R above the diagonal — an average, not a difference',
  inDomainAccuracy: 'In-domain accuracy (CLEAR): mean of the diagonal',
  nextDomainAccuracy: 'Next-domain accuracy (CLEAR): mean of the super-diagonal',
};

/** Sum of R over the lower triangle including the diagonal (i ≥ j); shared with m2i.ts. */
export function sumLowerWithDiagonal(R: AccuracyMatrix): number {
  let s = 0;
  for (let i = 0; i < R.length; i++) for (let j = 0; j <= i; j++) s += R[i][j];
  return s;
}

/** Sum of R strictly below the diagonal (i > j). */
export function sumStrictlyLower(R: AccuracyMatrix): number {
  let s = 0;
  for (let i = 1; i < R.length; i++) for (let j = 0; j < i; j++) s += R[i][j];
  return s;
}

/** Sum of R strictly above the diagonal (i < j). */
export function sumStrictlyUpper(R: AccuracyMatrix): number {
  let s = 0;
  for (let i = 0; i < R.length; i++) for (let j = i + 1; j < R.length; j++) s += R[i][j];
  return s;
}

/** CLEAR Accuracy: `Σ_{i≥j} R / (K(K+1)/2)`. */
export function clearAccuracy(R: AccuracyMatrix): number {
  const K = validateAccuracyMatrix(R);
  return sumLowerWithDiagonal(R) / ((K * (K + 1)) / 2);
}

/** CLEAR BwT, a raw average: `Σ_{i>j} R / (K(K−1)/2)`; null when K = 1. */
export function clearBwtAverage(R: AccuracyMatrix): number | null {
  const K = validateAccuracyMatrix(R);
  return K === 1 ? null : sumStrictlyLower(R) / ((K * (K - 1)) / 2);
}

/** CLEAR FwT, a raw average: `Σ_{i<j} R / (K(K−1)/2)`; null when K = 1. */
export function clearFwtAverage(R: AccuracyMatrix): number | null {
  const K = validateAccuracyMatrix(R);
  return K === 1 ? null : sumStrictlyUpper(R) / ((K * (K - 1)) / 2);
}

/** CLEAR In-domain accuracy: `mean_i R[i][i]`. */
export function inDomainAccuracy(R: AccuracyMatrix): number {
  const K = validateAccuracyMatrix(R);
  let s = 0;
  for (let i = 0; i < K; i++) s += R[i][i];
  return s / K;
}

/** CLEAR Next-domain accuracy: `mean_{i<K−1} R[i][i+1]`; null when K = 1. */
export function nextDomainAccuracy(R: AccuracyMatrix): number | null {
  const K = validateAccuracyMatrix(R);
  if (K === 1) return null;
  let s = 0;
  for (let i = 0; i < K - 1; i++) s += R[i][i + 1];
  return s / (K - 1);
}

/** All five CLEAR averages. */
export function clearAverages(R: AccuracyMatrix): ClearAverages {
  return {
    accuracy: clearAccuracy(R),
    bwtAverage: clearBwtAverage(R),
    fwtAverage: clearFwtAverage(R),
    inDomainAccuracy: inDomainAccuracy(R),
    nextDomainAccuracy: nextDomainAccuracy(R),
  };
}
