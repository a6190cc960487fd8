/**
 * Evaluation in batches: accuracy (for R) and softmax outputs (for CPCF, docs/science.md §3) of a scoring function
 * over a set of examples. The scoring function returns [n, w] scores whose arg-max is the prediction: the
 * network's logits masked to the head width, or a strategy's own classifier (NME).
 */
import * as tf from '@tensorflow/tfjs-core';
import { batchImages } from './dataset';
import type { ImageDataset, ImageSplit } from './types';

export type ScoreFn = (x: tf.Tensor4D) => tf.Tensor2D;

/** Output unit of each example. */
export function unitsOf(split: ImageSplit, examples: Int32Array, unitOfClass: Int32Array): Int32Array {
  return Int32Array.from(examples, (e) => unitOfClass[split.labels[e]]);
}

/** Fraction of `examples` whose arg-max score is their unit. */
export async function accuracyOn(ds: ImageDataset, split: ImageSplit, examples: Int32Array, units: Int32Array, score: ScoreFn, batchSize: number): Promise<number> {
  if (examples.length === 0) return NaN;
  let correct = 0;
  for (let at = 0; at < examples.length; at += batchSize) {
    const idx = examples.subarray(at, Math.min(examples.length, at + batchSize));
    const pred = tf.tidy(() => {
      const x = batchImages(ds, split, idx);
      return tf.argMax(score(x), 1);
    });
    const p = (await pred.data()) as Int32Array;
    pred.dispose();
    for (let k = 0; k < idx.length; k++) if (p[k] === units[at + k]) correct++;
  }
  return correct / examples.length;
}

/** softmax(scores) of every example, n × width row-major (width = the scores' columns). */
export async function softmaxOn(ds: ImageDataset, split: ImageSplit, examples: Int32Array, score: ScoreFn, batchSize: number): Promise<{ probs: Float32Array; width: number }> {
  const parts: Float32Array[] = [];
  let width = 0;
  for (let at = 0; at < examples.length; at += batchSize) {
    const idx = examples.subarray(at, Math.min(examples.length, at + batchSize));
    const p = tf.tidy(() => tf.softmax(score(batchImages(ds, split, idx))));
    width = p.shape[1];
    parts.push(Float32Array.from((await p.data()) as Float32Array));
    p.dispose();
  }
  const probs = new Float32Array(parts.reduce((n, a) => n + a.length, 0));
  let o = 0;
  for (const a of parts) {
    probs.set(a, o);
    o += a.length;
  }
  return { probs, width };
}
