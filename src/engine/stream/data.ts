/**
 * The drifting stream as engine data (docs/science.md §7): the core builds the buckets from a pool of labelled
 * images (src/core/stream/buckets.ts); here they become an ImageDataset whose `train` split holds every bucket's
 * images in order (bucket 0 first), so the engine's batch and evaluation helpers read them by sample position.
 */
import { buildStream, type StreamBuckets, type StreamSpec } from '../../core/stream/buckets';
import type { ImageDataset } from '../types';

export interface StreamDataset {
  /** `train` = all buckets concatenated; `test` is empty (the protocol decides what tests) */
  dataset: ImageDataset;
  stream: StreamBuckets;
}

/** Cut the stream from the pool's training split (Fashion-MNIST: 60,000 images). */
export function streamFromPool(pool: ImageDataset, spec: StreamSpec): StreamDataset {
  const stream = buildStream(spec, { images: pool.train.images, labels: pool.train.labels, shape: pool.shape, numClasses: pool.classNames.length });
  return {
    dataset: {
      shape: pool.shape,
      classNames: pool.classNames.slice(),
      train: { images: stream.images, labels: stream.labels },
      test: { images: new Uint8Array(0), labels: new Uint8Array(0) },
    },
    stream,
  };
}
