/**
 * The Time lab's settings (src/core/labs/time/settings.ts) as engine inputs: the stream spec, one run's config per
 * protocol, and the bucket samples the lab shows so the drift is visible. Used by the Time lab's jobs (./job.ts) and their tests.
 */
import type { StreamBuckets, StreamSpec } from '../../core/stream/buckets';
import type { TimeLabConfig } from '../../core/labs/time/settings';
import type { StreamProtocol } from '../../core/stream/metrics';
import type { StreamRunConfig } from './train';

export function streamSpecOf(c: TimeLabConfig): StreamSpec {
  return { kind: c.stream, buckets: c.buckets, perClass: c.perClass, strength: c.strength, seed: c.seed };
}

export function streamRunConfigOf(c: TimeLabConfig, protocol: StreamProtocol, bucketSizes: number[]): StreamRunConfig {
  return {
    protocol,
    mode: c.mode,
    buffer: c.buffer === 'cumulative' ? { kind: 'cumulative' } : { kind: 'reservoir', k: c.k, alpha: c.alpha },
    bucketSizes: bucketSizes.slice(),
    seed: c.seed,
    model: c.model === 'mlp' ? { kind: 'mlp', hidden: c.hidden.slice() } : { kind: 'cnn' },
    epochs: c.epochs,
    lr: c.lr,
    batchSize: c.batchSize,
    trainRatio: c.trainRatio,
  };
}

/** What the lab shows of the stream: for every bucket, the first image of each class (columns = classes). */
export interface StreamPreview {
  shape: [number, number, number];
  classNames: string[];
  sizes: number[];
  levels: number[];
  /** rows[b][c]: the bytes of bucket b's first image of class c (null when the bucket has none) */
  rows: (Uint8Array | null)[][];
}

export function streamPreview(s: StreamBuckets, classNames: string[]): StreamPreview {
  const size = s.shape[0] * s.shape[1] * s.shape[2];
  const rows: (Uint8Array | null)[][] = [];
  let offset = 0;
  for (const n of s.sizes) {
    const row: (Uint8Array | null)[] = classNames.map(() => null);
    for (let q = offset; q < offset + n; q++) {
      const c = s.labels[q];
      if (row[c] === null) row[c] = s.images.slice(q * size, (q + 1) * size);
    }
    rows.push(row);
    offset += n;
  }
  return { shape: [s.shape[0], s.shape[1], s.shape[2]], classNames: classNames.slice(), sizes: s.sizes.slice(), levels: s.levels.slice(), rows };
}
