/**
 * matMul's gradient on wasm (src/engine/gradients.ts) takes explicit transposes instead of tfjs's transpose flags.
 * It must give the stock gradient's numbers: every flag combination on wasm is compared with the same gradient
 * computed on the cpu backend (stock gradient), to float32 rounding.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/engine/backend';
import { ensureGradients } from '../../../src/engine/gradients';
import { createDefaultRng } from '../../../src/core/random/default-rng';

function values(n: number, seed: number): Float32Array {
  const rng = createDefaultRng(seed);
  return Float32Array.from({ length: n }, () => 2 * rng.random() - 1);
}

async function grads(backend: 'wasm' | 'cpu', ta: boolean, tb: boolean): Promise<{ da: Float32Array; db: Float32Array; y: Float32Array }> {
  await selectBackend(backend, { strict: true });
  await ensureGradients();
  // y = op(a)·op(b) with op(a) 5×7 and op(b) 7×3; loss = Σ y ⊙ w, so dL/dy = w (not all ones: a wrong transpose shows)
  const a = tf.tensor2d(values(35, 1), ta ? [7, 5] : [5, 7]);
  const b = tf.tensor2d(values(21, 2), tb ? [3, 7] : [7, 3]);
  const w = tf.tensor2d(values(15, 3), [5, 3]);
  const f = (x: tf.Tensor, z: tf.Tensor): tf.Scalar => tf.sum(tf.mul(tf.matMul(x as tf.Tensor2D, z as tf.Tensor2D, ta, tb), w));
  const [da, db] = tf.grads(f)([a, b]);
  const y = tf.matMul(a, b, ta, tb);
  const out = { da: (await da.data()) as Float32Array, db: (await db.data()) as Float32Array, y: (await y.data()) as Float32Array };
  tf.dispose([a, b, w, da, db, y]);
  return out;
}

describe('matMul gradient on wasm (explicit transposes)', () => {
  afterAll(async () => {
    await selectBackend('cpu', { strict: true });
  });
  for (const [ta, tb] of [
    [false, false],
    [false, true],
    [true, false],
    [true, true],
  ] as const) {
    it(`transposeA=${ta}, transposeB=${tb}: equals the stock gradient on cpu`, async () => {
      const ref = await grads('cpu', ta, tb);
      const got = await grads('wasm', ta, tb);
      expect(got.da.length).toBe(ref.da.length);
      got.da.forEach((v, i) => expect(v).toBeCloseTo(ref.da[i], 5));
      got.db.forEach((v, i) => expect(v).toBeCloseTo(ref.db[i], 5));
    });
  }
  it('is installed on wasm (the registered gradient is ours)', async () => {
    await ensureGradients();
    expect((tf.getGradient('BatchMatMul') as { cilLab?: boolean }).cilLab).toBe(true);
  });
});
