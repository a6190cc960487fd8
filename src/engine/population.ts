/**
 * Population training: P MLPs of one architecture trained in lockstep as one computation. Each weight tensor of the
 * members is stacked into one Variable [P, …shape], and a step runs one batched matMul per layer over the members'
 * own batches. The loss is the sum of the members' losses (each on its slice), so member p's gradient is exactly its
 * own loss's, and one Adam over the stacks is P independent Adams (elementwise, same step count): the numbers equal
 * training each member alone up to the backend's summation order (population.test.ts). A strategy's loss terms see
 * its member as a Network over slices of the stacks taken inside the tape (models.ts `networkOver`), so EWC, LwF
 * and iCaRL work unchanged.
 */
import * as tf from '@tensorflow/tfjs-core';
import { createDefaultRng, type DefaultRng } from '../core/random/default-rng';
import { augmentBatch, augmentSeed } from './augment';
import { batchImages, epochOrder, imagesOnly } from './dataset';
import { crossEntropy, headPrefix } from './losses';
import { networkOver, paramInfo, type Network, type NetworkSpec } from './models';
import type { Strategy, TaskContext } from './strategies/types';
import type { ProgressEvent, ResolvedTrainConfig } from './types';

/** One member of a population: its strategy, its task context (whose network holds its weights) and its training set. */
export interface PopulationMember {
  strategy: Strategy;
  ctx: TaskContext;
  set: Int32Array;
}

/**
 * Whether a run of this model and strategy can train in a population: not the CNN, and not a strategy that rewrites
 * or observes each step's gradients (A-GEM's projection, SI's path integral); those train one model at a time.
 */
export function populationSupported(spec: NetworkSpec, strategy: Strategy): boolean {
  return spec.kind === 'mlp' && !strategy.adjustGradients && !strategy.afterStep;
}

/** Bytes one member needs while training: weights, two Adam moments and a gradient, plus a batch's activations. */
export function memberBytes(spec: NetworkSpec, batchSize: number): number {
  const weights = paramInfo(spec).reduce((n, p) => n + p.shape.reduce((a, b) => a * b, 1), 0);
  const [h, w, c] = spec.inputShape;
  const widths = [h * w * c, ...(spec.hidden ?? []), spec.outputs];
  const activations = batchSize * widths.reduce((a, b) => a + b, 0);
  return 4 * (4 * weights + 3 * activations);
}

/**
 * P for a backend. It is worth it only where per-kernel overhead dominates. Measured here (SwiftShader, no GPU):
 * WebGPU 191 ms per model-step alone against 143 ms in a population of 16; tfjs-backend-wasm multiplies batched
 * (rank-3) products on a slow path (8 products of 64×784·784×256: 69 ms batched against 7.3 ms one by one) and cpu
 * gains nothing; on `npm run bench:groundtruth` a population beat prefix-only training on WebGPU (888 s against
 * 928 s) but not on software WebGL (330 s against 270 s). So 'auto' gives 1 on wasm, cpu and software WebGL;
 * on webgl/webgpu otherwise as many
 * members as fit in `budgetBytes` (default 256 MB), at most `max` (default 32). An explicit number is capped the
 * same way.
 */
export function choosePopulation(
  requested: number | 'auto',
  backend: string,
  spec: NetworkSpec,
  batchSize: number,
  options: { budgetBytes?: number; max?: number; softwareGpu?: boolean } = {},
): number {
  const budget = options.budgetBytes ?? 256 * 2 ** 20;
  const max = options.max ?? 32;
  const fit = Math.max(1, Math.floor(budget / memberBytes(spec, batchSize)));
  if (requested !== 'auto') return Math.max(1, Math.min(Math.floor(requested), fit, max));
  if (backend !== 'webgl' && backend !== 'webgpu') return 1;
  // SwiftShader's WebGL measured slower with a population (bench:groundtruth: 330 s vs 270 s prefix-only)
  if (backend === 'webgl' && options.softwareGpu) return 1;
  return Math.min(fit, max);
}

/** The members' stacked logits [P, b, outputs] for stacked inputs [P, b, D]. */
function stackedLogits(spec: NetworkSpec, stacks: tf.Tensor[], x: tf.Tensor3D): tf.Tensor3D {
  const layers = (spec.hidden ?? []).length + 1;
  let a: tf.Tensor3D = x;
  for (let l = 0; l < layers; l++) {
    const z = tf.add(tf.matMul(a, stacks[2 * l] as tf.Tensor3D), tf.expandDims(stacks[2 * l + 1], 1)) as tf.Tensor3D;
    a = l < layers - 1 ? (tf.relu(z) as tf.Tensor3D) : z;
  }
  return a;
}

/** Member p's weights as slices of the stacks (inside a tape the slices carry gradients to the stacks). */
function memberParams(stacks: tf.Tensor[], p: number): tf.Tensor[] {
  return stacks.map((s) => tf.squeeze(tf.slice(s, [p], [1]), [0]));
}

/**
 * Train one task for every member in lockstep: each member's own batch order (its 'batches' stream, as the
 * trainer draws it), its own augmentation stream when on, `epochs` passes with a fresh Adam (or SGD). All
 * members must have training sets of the same size (the caller groups them so). Afterwards every member's
 * network holds its trained weights.
 */
export async function trainPopulationTask(
  members: PopulationMember[],
  spec: NetworkSpec,
  cfg: ResolvedTrainConfig,
  epochs: number,
  pausePoint: () => Promise<void>,
  onProgress?: (e: ProgressEvent) => void,
): Promise<void> {
  const P = members.length;
  const n = members[0].set.length;
  if (members.some((m) => m.set.length !== n)) throw new Error('Population members must have training sets of the same size.');
  const [h, w, c] = spec.inputShape;
  const D = h * w * c;
  // tidy frees each tf.stack once its Variable holds a copy (a Variable is never freed by tidy)
  const stacks = members[0].ctx.network.params.map((_, i) => tf.tidy(() => tf.variable(tf.stack(members.map((m) => m.ctx.network.params[i])), true)));
  const optimizer: tf.Optimizer = cfg.optimizer === 'sgd' ? tf.train.sgd(cfg.lr) : tf.train.adam(cfg.lr, cfg.beta1, cfg.beta2, cfg.epsilon);
  try {
    const rngs = members.map((m) => m.ctx.rng('batches'));
    const augmentRngs: (DefaultRng | null)[] = members.map((m) => (cfg.augment ? createDefaultRng(augmentSeed(m.ctx.taskSeed)) : null));
    const steps = Math.ceil(n / cfg.batchSize);
    const t = members[0].ctx.t;
    for (let epoch = 0; epoch < epochs; epoch++) {
      const orders = members.map((m, p) => epochOrder(rngs[p], m.set));
      for (let s = 0; s < steps; s++) {
        await pausePoint();
        const lo = s * cfg.batchSize;
        const hi = Math.min(n, (s + 1) * cfg.batchSize);
        const idx = orders.map((o) => o.slice(lo, hi));
        const batches = members.map((m, p) => {
          const ds = m.ctx.dataset;
          const rng = augmentRngs[p];
          if (rng && cfg.augment) {
            const images = augmentBatch(imagesOnly(ds, 'Augmentation').train.images, idx[p], ds.shape, rng, cfg.augment);
            return batchImages(
              ds,
              { images, labels: new Uint8Array(idx[p].length) },
              Int32Array.from(idx[p], (_, k) => k),
            );
          }
          return batchImages(ds, ds.train, idx[p]);
        });
        const labels = members.map((m, p) => tf.tensor1d(Int32Array.from(idx[p], m.ctx.unitOf), 'int32'));
        const x = tf.tidy(() => tf.reshape(tf.stack(batches), [P, hi - lo, D]) as tf.Tensor3D);
        try {
          const report = onProgress !== undefined && (s === steps - 1 || (s + 1) % cfg.progressEvery === 0);
          const { value, grads } = tf.variableGrads(() => {
            const logits = stackedLogits(spec, stacks, x);
            let total: tf.Scalar = tf.scalar(0);
            members.forEach((m, p) => {
              const lg = headPrefix(tf.squeeze(tf.slice(logits, [p], [1]), [0]) as tf.Tensor2D, m.ctx.headWidth);
              let loss = crossEntropy(lg, labels[p]);
              if (m.strategy.lossTerms) {
                const view: Network = networkOver(spec, memberParams(stacks, p), false);
                const extra = m.strategy.lossTerms({ ...m.ctx, network: view }, { x: batches[p], labels: labels[p], logits: lg });
                if (extra) loss = tf.add(loss, extra);
              }
              total = tf.add(total, loss);
            });
            return total;
          }, stacks);
          optimizer.applyGradients(grads);
          tf.dispose(grads);
          if (report && onProgress) {
            const loss = (await value.data())[0] / P;
            onProgress({ task: t, epoch, step: s + 1, steps, loss, accuracy: NaN, tasks: members[0].ctx.taskCount, epochs });
          }
          value.dispose();
        } finally {
          tf.dispose([x, ...batches, ...labels]);
        }
      }
    }
    // hand every member its trained weights
    members.forEach((m, p) => {
      tf.tidy(() => {
        m.ctx.network.variables.forEach((v, i) => v.assign(tf.squeeze(tf.slice(stacks[i], [p], [1]), [0])));
      });
    });
  } finally {
    optimizer.dispose();
    tf.dispose(stacks);
  }
}
