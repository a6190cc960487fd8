/**
 * Synaptic Intelligence (Zenke, Poole & Ganguli 2017).
 *
 * During task t every step adds to the per-parameter path integral `ω_i −= g_i · Δθ_i` (g the gradient the step
 * applied, Δθ the step's change of the parameter — with Adam not −lr·g, which is why the change is measured).
 * At the end of the task `Ω_i += ω_i / (Δ_i² + ξ)` with Δ_i the parameter's total change over the task, and the
 * weights become the new anchor θ*. Later tasks add `c · Σ_i Ω_i (θ_i − θ*_i)²` to the loss.
 *
 * Cross-entropy over the head masked to the classes seen so far, like finetuning.
 * g here is the gradient of the whole loss (cross-entropy plus the SI term), as the widely used implementation of
 * van de Ven et al. does; the original uses the same update rule.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { SiOptions } from '../defaults';
import type { StrategyState } from '../types';
import type { Strategy } from './types';

export function createSi(options: SiOptions): Strategy {
  // between tasks (plain)
  let importance: Float32Array[] | null = null; // Ω
  let anchor: Float32Array[] | null = null; // θ*
  // during a task (tensors)
  let omegaT: tf.Tensor[] = [];
  let anchorT: tf.Tensor[] = [];
  let pathT: tf.Variable[] = []; // ω
  let prevT: tf.Variable[] = []; // θ before the step
  let startT: tf.Tensor[] = []; // θ at the start of the task

  const release = (): void => {
    for (const t of [...omegaT, ...anchorT, ...pathT, ...prevT, ...startT]) t.dispose();
    omegaT = [];
    anchorT = [];
    pathT = [];
    prevT = [];
    startT = [];
  };

  return {
    id: 'si',
    async beforeTask(ctx) {
      release();
      const shapes = ctx.network.info.map((p) => p.shape);
      if (importance && anchor) {
        omegaT = importance.map((a, i) => tf.tensor(a, shapes[i]));
        anchorT = anchor.map((a, i) => tf.tensor(a, shapes[i]));
      }
      // tidy disposes the initial values; the variables (which share or copy them) survive it
      pathT = tf.tidy(() => ctx.network.params.map((p) => tf.variable(tf.zerosLike(p), false)));
      prevT = tf.tidy(() => ctx.network.params.map((p) => tf.variable(tf.clone(p), false)));
      startT = ctx.network.params.map((p) => tf.clone(p));
    },
    trainingSet: (ctx) => ctx.trainExamples(ctx.t),
    lossTerms(ctx) {
      if (omegaT.length === 0) return null;
      return tf.tidy(() => {
        let s: tf.Scalar = tf.scalar(0);
        ctx.network.params.forEach((p, i) => {
          s = tf.add(s, tf.sum(tf.mul(omegaT[i], tf.square(tf.sub(p, anchorT[i])))));
        });
        return tf.mul(s, options.c) as tf.Scalar;
      });
    },
    afterStep(ctx, grads) {
      tf.tidy(() => {
        ctx.network.variables.forEach((v, i) => {
          const g = grads[v.name];
          if (g) pathT[i].assign(tf.sub(pathT[i], tf.mul(g, tf.sub(v, prevT[i]))));
          prevT[i].assign(v);
        });
      });
    },
    async afterTask(ctx) {
      const next = tf.tidy(() =>
        ctx.network.params.map((p, i) => {
          const delta = tf.sub(p, startT[i]);
          const add = tf.div(pathT[i], tf.add(tf.square(delta), options.xi));
          return omegaT.length > 0 ? tf.add(omegaT[i], add) : add;
        }),
      );
      try {
        const data = await Promise.all(next.map((t) => t.data()));
        importance = data.map((d) => Float32Array.from(d as Float32Array));
      } finally {
        for (const t of next) t.dispose();
      }
      anchor = await ctx.network.readWeights();
      release();
    },
    getState: (): StrategyState => (importance && anchor ? { importance, anchor } : {}),
    setState(state) {
      importance = state.importance ? (state.importance as Float32Array[]).map((a) => a.slice()) : null;
      anchor = state.anchor ? (state.anchor as Float32Array[]).map((a) => a.slice()) : null;
    },
    dispose: release,
  };
}
