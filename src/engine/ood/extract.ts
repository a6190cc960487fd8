/**
 * The CIL model's outputs on a set of examples, for the OOD detectors (docs/science.md §5): logits over the
 * classes seen so far (a prefix of the head, models.ts) and the penultimate features, read back in batches with
 * every tensor disposed. Rows come back as views into one Float32Array per quantity, which the pure scores of
 * src/core/ood take as `Float32Array[]`.
 */
import * as tf from '@tensorflow/tfjs-core';
import { batchImages } from '../dataset';
import { headPrefix } from '../losses';
import type { Network } from '../models';
import type { ImageDataset, ImageSplit } from '../types';

export interface Outputs {
  n: number;
  /** logits over the first `width` output units, n × width row-major */
  logits: Float32Array;
  width: number;
  /** penultimate features, n × featureSize (empty when not asked for) */
  features: Float32Array;
  featureSize: number;
}

/** `n` rows of a row-major matrix as subarray views. */
export function rowsOf(data: Float32Array, n: number, width: number): Float32Array[] {
  return Array.from({ length: n }, (_, i) => data.subarray(i * width, (i + 1) * width));
}

/** Logits (first `width` units) and, with `features`, the penultimate activations of `examples` of `split`. */
export async function outputsOn(
  network: Network,
  ds: ImageDataset,
  split: ImageSplit,
  examples: ArrayLike<number>,
  width: number,
  options: { features?: boolean; batchSize?: number } = {},
): Promise<Outputs> {
  const n = examples.length;
  const d = network.featureSize;
  const wantFeatures = options.features ?? false;
  const bs = options.batchSize ?? 512;
  const logits = new Float32Array(n * width);
  const features = new Float32Array(wantFeatures ? n * d : 0);
  const idx = Int32Array.from(examples as ArrayLike<number>);
  for (let at = 0; at < n; at += bs) {
    const part = idx.subarray(at, Math.min(n, at + bs));
    const [z, h] = tf.tidy(() => {
      const x = batchImages(ds, split, part);
      const f = network.features(x);
      return [headPrefix(network.head(f), width), f] as const;
    });
    try {
      logits.set((await z.data()) as Float32Array, at * width);
      if (wantFeatures) features.set((await h.data()) as Float32Array, at * d);
    } finally {
      z.dispose();
      h.dispose();
    }
  }
  return { n, logits, width, features, featureSize: wantFeatures ? d : 0 };
}
