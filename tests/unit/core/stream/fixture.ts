/** Typed access to tests/fixtures/stream.json (made by scripts/make-stream-fixtures.py). */
import raw from '../../../fixtures/stream.json';
import type { AlphaSpec } from '../../../../src/core/stream/reservoir';
import type { StreamMetrics, StreamProtocol } from '../../../../src/core/stream/metrics';

export interface FxStream {
  metrics: { K: number; protocol: StreamProtocol; R: number[][]; metrics: StreamMetrics; byDistance: { distance: number; mean: number; count: number }[] }[];
  reservoirExact: { sizes: number[]; k: number; alpha: AlphaSpec; seed: number; buffers: number[][] }[];
  reservoirTrials: { sizes: number[]; k: number; alpha: AlphaSpec; trials: number; seed: number; shares: number[]; shareStd: number[] }[];
}
export const fx = raw as unknown as FxStream;
