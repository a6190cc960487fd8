/**
 * The Time lab's summaries of R (docs/science.md §4, §7): CLEAR's raw averages from src/core/metrics/clear.ts,
 * under the names the `cil-lab stream` output uses, with the protocol's blind spots as null.
 *
 * Under the streaming protocol bucket j is tested as a whole before it is trained on, and trained on afterwards:
 * the diagonal and everything below it measure accuracy on training data. In-domain, backward (mean_{i>j}) and
 * accuracy (mean_{i≥j}) are therefore null there (the paper reports only next-domain and forward for streaming).
 * All five are averages of entries of R, not differences.
 */
import { clearAverages } from '../metrics/clear';
import { validateAccuracyMatrix, type AccuracyMatrix } from '../metrics/accuracy-matrix';

export type StreamProtocol = 'iid' | 'streaming';
export const STREAM_PROTOCOLS: readonly StreamProtocol[] = ['iid', 'streaming'];

export interface StreamMetrics {
  /** mean_i R[i][i]: test accuracy on the bucket just trained on (null in streaming) */
  inDomain: number | null;
  /** mean_i R[i][i+1]: accuracy on the next bucket (null when K = 1) */
  nextDomain: number | null;
  /** mean_{i>j} R[i][j]: average accuracy on past buckets (null in streaming and when K = 1) */
  backwardTransfer: number | null;
  /** mean_{i<j} R[i][j]: average accuracy on future buckets (null when K = 1) */
  forwardTransfer: number | null;
  /** mean_{i≥j} R[i][j] (null in streaming) */
  accuracy: number | null;
}

/** Labels for the UI and exports: each says it is an average and of what. */
export const STREAM_METRIC_LABELS: Readonly<Record<keyof StreamMetrics, string>> = {
  inDomain: 'In-domain (average of R[i][i])',
  nextDomain: 'Next-domain (average of R[i][i+1])',
  backwardTransfer: 'Backward (average of R[i][j], i > j)',
  forwardTransfer: 'Forward (average of R[i][j], i < j)',
  accuracy: 'Accuracy (average of R[i][j], i ≥ j)',
};

export const STREAM_METRIC_KEYS: readonly (keyof StreamMetrics)[] = ['inDomain', 'nextDomain', 'backwardTransfer', 'forwardTransfer', 'accuracy'];

/** Does the protocol use cell (i, j) of R as a test? iid: every cell; streaming: only j > i (future buckets). */
export function cellUsed(protocol: StreamProtocol, i: number, j: number): boolean {
  return protocol === 'iid' || j > i;
}

/** CLEAR's averages of R under the protocol (see the header). */
export function streamMetrics(R: AccuracyMatrix, protocol: StreamProtocol): StreamMetrics {
  const c = clearAverages(R);
  const iid = protocol === 'iid';
  return {
    inDomain: iid ? c.inDomainAccuracy : null,
    nextDomain: c.nextDomainAccuracy,
    backwardTransfer: iid ? c.bwtAverage : null,
    forwardTransfer: c.fwtAverage,
    accuracy: iid ? c.accuracy : null,
  };
}

export interface DistancePoint {
  /** test distance d = j − i (0 = the bucket just trained on, 1 = the next, −1 = the previous) */
  distance: number;
  /** mean of R[i][j] over the used cells with j − i = d */
  mean: number;
  /** how many cells */
  count: number;
}

/** Accuracy against test distance j − i, over the cells the protocol uses, d ascending. */
export function accuracyByDistance(R: AccuracyMatrix, protocol: StreamProtocol): DistancePoint[] {
  const K = validateAccuracyMatrix(R);
  const out: DistancePoint[] = [];
  for (let d = 1 - K; d <= K - 1; d++) {
    let s = 0;
    let n = 0;
    for (let i = 0; i < K; i++) {
      const j = i + d;
      if (j < 0 || j >= K || !cellUsed(protocol, i, j)) continue;
      s += R[i][j];
      n++;
    }
    if (n > 0) out.push({ distance: d, mean: s / n, count: n });
  }
  return out;
}
