/**
 * ODIN (Liang et al.; docs/science.md §5), the part that needs gradients: the input perturbation
 * `x' = x − ε·sign(∇ₓ CE(z/T, argmax z))`, T = 1000, ε = 0.0014, then the score `max softmax(f(x')/T)` (the pure
 * score function is src/core/ood/scores.ts `odinScores`).
 *
 * As OpenOOD's odin_postprocessor: the label is the unperturbed prediction, the loss is the batch-mean
 * cross-entropy of the tempered logits (a positive factor does not change the sign), and the sign is taken as
 * `+1 where the gradient ≥ 0, −1 elsewhere` (OpenOOD's `(ge(grad, 0) − 0.5)·2`; it differs from sign() only where
 * the gradient is exactly 0). OpenOOD then divides by the normalisation std of the images; our inputs are pixels in
 * [0, 1] without normalisation, so there is nothing to divide by. No clipping, as OpenOOD.
 */
import * as tf from '@tensorflow/tfjs-core';
import { odinScores, ODIN_TEMPERATURE } from '../../core/ood/scores';
import { batchImages } from '../dataset';
import { ensureGradients } from '../gradients';
import { crossEntropy, headPrefix } from '../losses';
import type { Network } from '../models';
import type { ImageDataset, ImageSplit } from '../types';
import { rowsOf } from './extract';

export const ODIN_EPSILON = 0.0014;

/** x' for one batch (a new tensor; `x` is not disposed). Needs the engine's gradients registered (`ensureGradients`). */
export function odinPerturb(network: Network, x: tf.Tensor4D, width: number, temperature = ODIN_TEMPERATURE, epsilon = ODIN_EPSILON): tf.Tensor4D {
  return tf.tidy(() => {
    const labels = tf.argMax(headPrefix(network.logits(x), width), 1) as tf.Tensor1D;
    const loss = (input: tf.Tensor): tf.Scalar =>
      crossEntropy(tf.div(headPrefix(network.logits(input as tf.Tensor4D), width), temperature) as tf.Tensor2D, labels);
    const g = tf.grad(loss)(x) as tf.Tensor4D;
    const sign = tf.sub(tf.mul(tf.cast(tf.greaterEqual(g, 0), 'float32'), 2), 1);
    return tf.sub(x, tf.mul(sign, epsilon)) as tf.Tensor4D;
  });
}

/** ODIN scores of `examples` of `split` (higher = more in-distribution). */
export async function odinScoresOn(
  network: Network,
  ds: ImageDataset,
  split: ImageSplit,
  examples: ArrayLike<number>,
  width: number,
  options: { temperature?: number; epsilon?: number; batchSize?: number } = {},
): Promise<number[]> {
  await ensureGradients();
  const T = options.temperature ?? ODIN_TEMPERATURE;
  const eps = options.epsilon ?? ODIN_EPSILON;
  const bs = options.batchSize ?? 256;
  const idx = Int32Array.from(examples as ArrayLike<number>);
  const out: number[] = [];
  for (let at = 0; at < idx.length; at += bs) {
    const part = idx.subarray(at, Math.min(idx.length, at + bs));
    const z = tf.tidy(() => {
      const x = batchImages(ds, split, part);
      return headPrefix(network.logits(odinPerturb(network, x, width, T, eps)), width);
    });
    const data = (await z.data()) as Float32Array;
    z.dispose();
    out.push(...odinScores(rowsOf(data, part.length, width), T));
  }
  return out;
}
