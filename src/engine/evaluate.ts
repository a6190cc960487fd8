/**
 * Evaluation in batches: predictions (for R: `predictionsOn`, then `accuracyFrom` per task) and softmax outputs (for
 * CPCF, docs/science.md §3) of a scoring function over a set of examples. The scoring function returns [n, w] scores whose arg-max is the prediction: the
 * network's logits masked to the head width, or a strategy's own classifier (NME).
 */
import * as tf from '@tensorflow/tfjs-core';
import { batchImages } from './dataset';
import type { FeatureSplit, ImageSplit, TrainDataset } from './types';

export type ScoreFn = (x: tf.Tensor4D) => tf.Tensor2D;

/** Output unit of each example. */
export function unitsOf(split: ImageSplit | FeatureSplit, examples: Int32Array, unitOfClass: Int32Array): Int32Array {
  const out = new Int32Array(examples.length);
  const labels = split.labels;
  for (let i = 0; i < examples.length; i++) out[i] = unitOfClass[labels[examples[i]]];
  return out;
}

/** The arg-max (first maximum) of each example's scores, in batches of `batchSize`. */
export async function predictionsOn(
  ds: TrainDataset,
  split: ImageSplit | FeatureSplit,
  examples: Int32Array,
  score: ScoreFn,
  batchSize: number,
): Promise<Int32Array> {
  const out = new Int32Array(examples.length);
  for (let at = 0; at < examples.length; at += batchSize) {
    const idx = examples.subarray(at, Math.min(examples.length, at + batchSize));
    const pred = tf.tidy(() => tf.argMax(score(batchImages(ds, split, idx)), 1));
    out.set((await pred.data()) as Int32Array, at);
    pred.dispose();
  }
  return out;
}

/** The examples of several lists, each once, in increasing order (what one prediction pass evaluates). */
export function sortedUnion(lists: Int32Array[]): Int32Array {
  const all = new Int32Array(lists.reduce((n, l) => n + l.length, 0));
  let o = 0;
  for (const l of lists) {
    all.set(l, o);
    o += l.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
  return all.slice(0, n);
}

/**
 * Predictions by example: `predAt[e]` is the predicted unit of example e (−1 where not predicted), from predictions
 * `pred` of the examples `examples`.
 */
export function predictionTable(splitSize: number, examples: Int32Array, pred: Int32Array): Int32Array {
  const predAt = new Int32Array(splitSize).fill(-1);
  for (let k = 0; k < examples.length; k++) predAt[examples[k]] = pred[k];
  return predAt;
}

/** Fraction of `examples` whose prediction (by `predictionTable`) is their unit; NaN for none. */
export function accuracyFrom(predAt: Int32Array, examples: Int32Array, units: Int32Array): number {
  if (examples.length === 0) return NaN;
  let correct = 0;
  for (let k = 0; k < examples.length; k++) if (predAt[examples[k]] === units[k]) correct++;
  return correct / examples.length;
}

/** softmax(scores) of every example, n × width row-major (width = the scores' columns). */
export async function softmaxOn(
  ds: TrainDataset,
  split: ImageSplit | FeatureSplit,
  examples: Int32Array,
  score: ScoreFn,
  batchSize: number,
): Promise<{ probs: Float32Array; width: number }> {
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
