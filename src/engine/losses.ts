/**
 * Loss pieces shared by the trainer and the strategies. Logits here are already masked to the output units that
 * take part (a prefix of the head, see models.ts), so "softmax over the classes seen so far" is a plain softmax.
 */
import * as tf from '@tensorflow/tfjs-core';

/** The first `width` output units (the classes seen so far); the logits themselves when width = all. */
export function headPrefix(logits: tf.Tensor2D, width: number): tf.Tensor2D {
  if (width === logits.shape[1]) return logits;
  return tf.slice(logits, [0, 0], [logits.shape[0], width]);
}

/** One-hot rows [n, width] of integer labels (tf.oneHot refuses width 1, which a one-class first task has). */
export function oneHotRows(labels: tf.Tensor1D, width: number): tf.Tensor2D {
  return tf.tidy(
    () => tf.cast(tf.equal(tf.expandDims(tf.cast(labels, 'int32'), 1), tf.expandDims(tf.range(0, width, 1, 'int32'), 0)), 'float32') as tf.Tensor2D,
  );
}

/** Mean cross-entropy of integer labels under softmax(logits): −mean_n log softmax(z_n)[y_n]. */
export function crossEntropy(logits: tf.Tensor2D, labels: tf.Tensor1D): tf.Scalar {
  return tf.tidy(() => {
    const oneHot = oneHotRows(labels, logits.shape[1]);
    return tf.neg(tf.mean(tf.sum(tf.mul(oneHot, tf.logSoftmax(logits)), 1))) as tf.Scalar;
  });
}

/**
 * Knowledge distillation (Hinton et al.; LwF; iCaRL as PyCIL trains it): soft cross-entropy between the old
 * model's and the new model's tempered softmax over the old classes,
 * `−mean_n Σ_k softmax(z_old/T)_k · log softmax(z_new/T)_k`. It differs from the KL divergence by the old
 * outputs' entropy, a constant, so the gradient is the same; PyCIL's `_KD_loss` (no T² factor) is this.
 */
export function distillation(newLogits: tf.Tensor2D, oldLogits: tf.Tensor2D, temperature: number): tf.Scalar {
  return tf.tidy(() => {
    const target = tf.softmax(tf.div(oldLogits, temperature));
    const logp = tf.logSoftmax(tf.div(newLogits, temperature));
    return tf.neg(tf.mean(tf.sum(tf.mul(target, logp), 1))) as tf.Scalar;
  });
}

/** Fraction of rows whose arg-max is the label. */
export function batchAccuracy(scores: tf.Tensor2D, labels: tf.Tensor1D): tf.Scalar {
  return tf.tidy(() => tf.mean(tf.cast(tf.equal(tf.argMax(scores, 1), tf.cast(labels, 'int32')), 'float32')));
}
