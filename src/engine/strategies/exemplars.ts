/**
 * Herding exemplar sets and class means (iCaRL; replay with `selection: 'herding'`; NCM's class means).
 *
 * Exemplar budget: `memory` examples in total, m = ⌊memory / classes seen⌋ per class, at least 1 (iCaRL's fixed
 * K). After task t the old classes keep the first m of their herding order (ReduceExemplarSet) and each new class
 * gets its first m by herding on the current network's features (ConstructExemplarSet).
 */
import * as tf from '@tensorflow/tfjs-core';
import { herdingOrder, l2NormalizeRows, type ClassMemory } from '../memory';
import type { TaskContext } from './types';

/** Training examples of task t grouped by output unit (units seenBefore..seen−1). */
export function examplesByUnit(ctx: TaskContext): Map<number, Int32Array> {
  const groups = new Map<number, number[]>();
  for (const e of ctx.trainExamples(ctx.t)) {
    const u = ctx.unitOf(e);
    if (!groups.has(u)) groups.set(u, []);
    (groups.get(u) as number[]).push(e);
  }
  return new Map([...groups.entries()].sort((a, b) => a[0] - b[0]).map(([u, ex]) => [u, Int32Array.from(ex)]));
}

/** Exemplars per class under the budget. */
export function exemplarsPerClass(memory: number, classesSeen: number): number {
  return Math.max(1, Math.floor(memory / Math.max(1, classesSeen)));
}

/** The herding memory after task t (see the header). */
export async function updateHerdingMemory(ctx: TaskContext, mem: ClassMemory, memory: number): Promise<ClassMemory> {
  const m = exemplarsPerClass(memory, ctx.seen);
  const next: ClassMemory = new Map();
  for (const [u, ex] of mem) next.set(u, ex.slice(0, m));
  for (const [u, ex] of examplesByUnit(ctx)) {
    await ctx.checkpoint();
    const feats = await ctx.trainFeatures(ex);
    const order = herdingOrder(feats, ex.length, ctx.network.featureSize, m);
    next.set(
      u,
      Int32Array.from(order, (k) => ex[k]),
    );
  }
  return next;
}

/**
 * The normalised mean of the L2-normalised features of `examples` (iCaRL's μ_y; NCM's class mean):
 * `μ = mean(φ/‖φ‖)`, then `μ/‖μ‖`.
 */
export async function classMean(ctx: TaskContext, examples: Int32Array): Promise<Float32Array> {
  const d = ctx.network.featureSize;
  const phi = l2NormalizeRows(await ctx.trainFeatures(examples), examples.length, d);
  const mu = new Float32Array(d);
  for (let i = 0; i < examples.length; i++) for (let k = 0; k < d; k++) mu[k] += phi[i * d + k] / examples.length;
  return l2NormalizeRows(mu, 1, d);
}

/**
 * Nearest-mean scores [n, count]: `−‖φ(x)/‖φ(x)‖ − μ_u‖² = 2·cos(φ(x), μ_u) − 2` for the first `count` units, so
 * the arg-max is the nearest class mean. `means` is units × d, row-major. Softmax of these scores is what the
 * engine reports as probabilities for NME classifiers (temperature 1; not from the papers, which give none).
 */
export function nearestMeanScores(ctx: TaskContext, x: tf.Tensor4D, means: Float32Array, count: number): tf.Tensor2D {
  const d = ctx.network.featureSize;
  return tf.tidy(() => {
    const f = ctx.network.features(x);
    const norm = tf.maximum(tf.norm(f, 'euclidean', 1, true), 1e-12);
    const phi = tf.div(f, norm);
    const mu = tf.tensor2d(means.subarray(0, count * d), [count, d]);
    return tf.sub(tf.mul(tf.matMul(phi, mu, false, true), 2), 2) as tf.Tensor2D;
  });
}
