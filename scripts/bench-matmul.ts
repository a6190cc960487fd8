/**
 * `npx tsx scripts/bench-matmul.ts [wasm|cpu]`: milliseconds of the matrix products of one dense layer's training
 * step (the CPCF/EDGE MLP's first layer, batch 64: 64×784 by 784×256), with and without tfjs's transpose flags.
 * On wasm only the flag-free product goes through XNNPACK; this is why src/engine/gradients.ts replaces matMul's
 * gradient there. Random inputs; the numbers do not affect the timing.
 */
import * as tf from '@tensorflow/tfjs-core';
import { selectBackend } from '../src/engine/backend';
await selectBackend((process.argv[2] ?? 'wasm') as 'wasm', { strict: true });
const x = tf.randomUniform([64, 784]) as tf.Tensor2D;
const W = tf.randomUniform([784, 256]) as tf.Tensor2D;
const dh = tf.randomUniform([64, 256]) as tf.Tensor2D;
const W3 = tf.randomUniform([8, 784, 256]) as tf.Tensor3D;
const x3 = tf.randomUniform([8, 64, 784]) as tf.Tensor3D;
async function time(name: string, f: () => tf.Tensor) {
  for (let i = 0; i < 3; i++) {
    const r = f();
    await r.data();
    r.dispose();
  }
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 1500) {
    const r = f();
    await r.data();
    r.dispose();
    n++;
  }
  console.log(name.padEnd(40), ((performance.now() - t0) / n).toFixed(2), 'ms');
}
await time('fwd x@W', () => tf.matMul(x, W));
await time('dW = x^T@dh (transposeA)', () => tf.matMul(x, dh, true, false));
await time('dW via transpose(x)@dh', () => tf.matMul(tf.transpose(x), dh));
await time('dW^T = dh^T@x then T', () => tf.transpose(tf.matMul(dh, x, true, false)));
await time('dx = dh@W^T (transposeB)', () => tf.matMul(dh, W, false, true));
await time('batched 8: x3@W3', () => tf.matMul(x3, W3));
await time('8 separate x@W', () => tf.stack(Array.from({ length: 8 }, () => tf.matMul(x, W))));
