/**
 * Averaged Gradient Episodic Memory (Chaudhry et al. 2019).
 *
 * An episodic memory keeps examples of past tasks under a fixed total budget: after task t each task holds
 * ⌊memory / (t+1)⌋ examples (earlier tasks keep a prefix of their seeded random selection). At every step of a
 * later task a reference batch of `sampleSize` examples is drawn from the memory (seeded, without replacement)
 * and its gradient g_ref computed (cross-entropy over the same head width as training). If the step's gradient g
 * would increase the memory loss (g·g_ref < 0) it is projected: `g ← g − (g·g_ref / g_ref·g_ref) · g_ref`.
 * The dot products run over all parameters at once, as in the paper. The projection is written without reading
 * values back (`min(g·g_ref, 0)`), so it stays on the device.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { DefaultRng } from '../../core/random/default-rng';
import type { AgemOptions } from '../defaults';
import { crossEntropy, headPrefix } from '../losses';
import type { StateValue } from '../types';
import type { Strategy } from './types';

export function createAgem(options: AgemOptions): Strategy {
  let perTask: Int32Array[] = [];
  let pool = new Int32Array(0);
  let rng: DefaultRng | null = null;
  return {
    id: 'agem',
    async beforeTask(ctx) {
      pool = Int32Array.from(perTask.flatMap((a) => Array.from(a)));
      rng = ctx.rng('agemReference');
    },
    trainingSet: (ctx) => ctx.trainExamples(ctx.t),
    adjustGradients(ctx, grads) {
      if (pool.length === 0 || !rng) return grads;
      const take = Math.min(options.sampleSize, pool.length);
      const pick = rng
        .permutation(pool.length)
        .slice(0, take)
        .map((k) => pool[k]);
      const { x, y } = ctx.batch(pick);
      try {
        return tf.tidy(() => {
          const vars = ctx.network.variables;
          const { grads: ref } = tf.variableGrads(() => crossEntropy(headPrefix(ctx.network.logits(x), ctx.headWidth), y), vars);
          let dot: tf.Scalar = tf.scalar(0);
          let refNorm: tf.Scalar = tf.scalar(0);
          for (const v of vars) {
            const g = grads[v.name];
            const r = ref[v.name];
            if (!g || !r) continue;
            dot = tf.add(dot, tf.sum(tf.mul(g, r)));
            refNorm = tf.add(refNorm, tf.sum(tf.square(r)));
          }
          const coef = tf.div(tf.minimum(dot, 0), tf.add(refNorm, 1e-12));
          const out: tf.NamedTensorMap = {};
          for (const [name, g] of Object.entries(grads)) {
            const r = ref[name];
            out[name] = r ? tf.sub(g, tf.mul(coef, r)) : tf.clone(g);
          }
          return out;
        });
      } finally {
        x.dispose();
        y.dispose();
      }
    },
    async afterTask(ctx) {
      rng = null;
      const per = Math.floor(options.memory / (ctx.t + 1));
      const ex = ctx.trainExamples(ctx.t);
      const chosen = Int32Array.from(ctx.rng('memory').permutation(ex.length).slice(0, per), (k) => ex[k]);
      perTask = [...perTask.map((a) => a.slice(0, per)), chosen];
    },
    getState: () => ({ perTask: perTask.map((a) => a.slice()) }),
    setState(state) {
      perTask = ((state.perTask as StateValue[] | undefined) ?? []).map((a) => (a as Int32Array).slice());
    },
    dispose() {
      rng = null;
    },
  };
}
