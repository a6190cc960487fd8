/**
 * Accuracy-matrix metrics (docs/science.md §4): re-exports, and `allMetrics`, the bundle the CLI prints as `metrics`
 * and the labs store per run.
 */
import { type AccuracyMatrix, aiaWeighted, averageIncrementalAccuracy, finalAccuracy, finalAccuracyWeighted, validateAccuracyMatrix } from './accuracy-matrix';
import { type ClearAverages, clearAverages } from './clear';
import { type M2iMetrics, m2iMetrics } from './m2i';
import { backwardTransfer, forgetting, forwardTransfer } from './transfer';

export * from './accuracy-matrix';
export * from './transfer';
export * from './clear';
export * from './m2i';

/** Optional per-task inputs that some metrics need besides R. */
export interface AllMetricsOptions {
  /** b_j: the untrained model's accuracy on each task (FWT needs it). */
  untrained?: readonly number[];
  /** n_j: test samples per task (the sample-weighted accuracies need them). */
  testCounts?: readonly number[];
}

/** Every §4 metric of one accuracy matrix. Null = undefined for this input (K = 1, or a missing option). */
export interface AllMetrics {
  /** Task-mean final accuracy, mean_j R[K][j]. */
  finalAccuracy: number;
  /** Task-mean average incremental accuracy. */
  aia: number;
  /** Sample-weighted final accuracy (docs/science.md §2); null without testCounts. */
  finalAccuracyWeighted: number | null;
  /** Sample-weighted AIA (docs/science.md §2); null without testCounts. */
  aiaWeighted: number | null;
  /** Lopez-Paz & Ranzato BWT; null when K = 1. */
  bwt: number | null;
  /** Chaudhry forgetting; null when K = 1. */
  forgetting: number | null;
  /** Lopez-Paz & Ranzato FWT; null without `untrained` or when K = 1. */
  fwt: number | null;
  /** CLEAR's raw averages. */
  clear: ClearAverages;
  /** M2I/I2M ACC, BWT (Eq. 2), FWT (raw mean). */
  m2i: M2iMetrics;
}

/** All metrics of R; `untrained` enables FWT, `testCounts` the sample-weighted accuracies. */
export function allMetrics(R: AccuracyMatrix, options: AllMetricsOptions = {}): AllMetrics {
  validateAccuracyMatrix(R);
  const { untrained, testCounts } = options;
  return {
    finalAccuracy: finalAccuracy(R),
    aia: averageIncrementalAccuracy(R),
    finalAccuracyWeighted: testCounts ? finalAccuracyWeighted(R, testCounts) : null,
    aiaWeighted: testCounts ? aiaWeighted(R, testCounts) : null,
    bwt: backwardTransfer(R),
    forgetting: forgetting(R),
    fwt: untrained ? forwardTransfer(R, untrained) : null,
    clear: clearAverages(R),
    m2i: m2iMetrics(R),
  };
}
