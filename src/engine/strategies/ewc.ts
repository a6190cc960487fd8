/**
 * Elastic Weight Consolidation (Kirkpatrick et al. 2017) with the two variants of docs/science.md §3 (CPCF paper):
 *
 * - single-penalisation: only the Fisher of the last task and the weights θ* after it,
 *   `L = CE + (λ/2) Σ_i F_i (θ_i − θ*_i)²`;
 * - multi-penalisation: one Fisher F_j and anchor θ*_j per past task j, each with its own weight
 *   `λ_j = λ / 2^{t−j−1}` (t the current task, 0-based like j: the last task gets λ, the one before λ/2, …),
 *   `L = CE + Σ_{j<t} (λ_j/2) Σ_i F_{j,i} (θ_i − θ*_{j,i})²`.
 *
 * The Fisher is the empirical diagonal Fisher: the mean over training samples of the task of the squared
 * per-sample gradient of log p(y|x) at the true label y, with p the softmax over the head width the task trained
 * with (the classes seen so far). Per-sample gradients are exact (one backward pass per sample) over up to
 * `fisherSamples` samples drawn without replacement from the task's training data with the task's seed.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { EwcOptions } from '../defaults';
import { headPrefix, oneHotRows } from '../losses';
import type { StateValue } from '../types';
import type { Strategy, TaskContext } from './types';

/**
 * The penalty weight of each stored task j (0-based) while training task t (docs/science.md §3):
 * multi → λ / 2^{t−j−1}; single → λ for the last task only.
 */
export function ewcPenaltyWeight(mode: 'single' | 'multi', lambda: number, t: number, j: number): number {
  if (j >= t) throw new RangeError(`EWC penalises past tasks only: j = ${j} is not before t = ${t}.`);
  if (mode === 'single') return j === t - 1 ? lambda : 0;
  return lambda / 2 ** (t - j - 1);
}

interface StoredTask {
  task: number;
  fisher: Float32Array[];
  anchor: Float32Array[];
}

interface PenaltyTerm {
  weight: number;
  fisher: tf.Tensor[];
  anchor: tf.Tensor[];
}

export interface EwcStrategy extends Strategy {
  /** (task j, λ_j) of the terms the current task is penalised with (for tests and the UI). */
  penaltyWeights(): { task: number; weight: number }[];
}

/** Empirical diagonal Fisher of the network on `examples` (see the header). */
export async function empiricalFisher(ctx: TaskContext, examples: Int32Array): Promise<Float32Array[]> {
  const vars = ctx.network.variables;
  const acc = vars.map((v) => tf.zeros(v.shape));
  try {
    for (let k = 0; k < examples.length; k++) {
      if (k % 25 === 0) await ctx.checkpoint();
      const { x, y } = ctx.batch([examples[k]]);
      tf.tidy(() => {
        const { grads } = tf.variableGrads(() => {
          const logp = tf.logSoftmax(headPrefix(ctx.network.logits(x), ctx.headWidth));
          return tf.neg(tf.sum(tf.mul(oneHotRows(y, ctx.headWidth), logp))) as tf.Scalar;
        }, vars);
        vars.forEach((v, i) => {
          const g = grads[v.name];
          if (!g) return;
          const next = tf.keep(tf.add(acc[i], tf.square(g)));
          acc[i].dispose();
          acc[i] = next;
        });
      });
      x.dispose();
      y.dispose();
    }
    const n = Math.max(1, examples.length);
    const data = await Promise.all(acc.map((a) => a.data()));
    return data.map((d) => Float32Array.from(d as Float32Array, (v) => v / n));
  } finally {
    for (const a of acc) a.dispose();
  }
}

export function createEwc(options: EwcOptions): EwcStrategy {
  let stored: StoredTask[] = [];
  let terms: PenaltyTerm[] = [];
  let currentT = 0;

  const disposeTerms = (): void => {
    for (const term of terms) for (const t of [...term.fisher, ...term.anchor]) t.dispose();
    terms = [];
  };

  return {
    id: 'ewc',
    penaltyWeights: () => stored.map((s) => ({ task: s.task, weight: ewcPenaltyWeight(options.mode, options.lambda, currentT, s.task) })),
    async beforeTask(ctx) {
      currentT = ctx.t;
      disposeTerms();
      const shapes = ctx.network.info.map((p) => p.shape);
      terms = stored
        .map((s) => ({ s, weight: ewcPenaltyWeight(options.mode, options.lambda, ctx.t, s.task) }))
        .filter(({ weight }) => weight > 0)
        .map(({ s, weight }) => ({
          weight,
          fisher: s.fisher.map((f, i) => tf.tensor(f, shapes[i])),
          anchor: s.anchor.map((a, i) => tf.tensor(a, shapes[i])),
        }));
    },
    trainingSet: (ctx) => ctx.trainExamples(ctx.t),
    lossTerms(ctx) {
      if (terms.length === 0) return null;
      return tf.tidy(() => {
        let total: tf.Scalar = tf.scalar(0);
        for (const term of terms) {
          let s: tf.Scalar = tf.scalar(0);
          ctx.network.params.forEach((p, i) => {
            s = tf.add(s, tf.sum(tf.mul(term.fisher[i], tf.square(tf.sub(p, term.anchor[i])))));
          });
          total = tf.add(total, tf.mul(s, term.weight / 2));
        }
        return total;
      });
    },
    async afterTask(ctx) {
      disposeTerms();
      const examples = ctx.trainExamples(ctx.t);
      const order = ctx.rng('fisher').permutation(examples.length).slice(0, options.fisherSamples);
      const fisher = await empiricalFisher(
        ctx,
        Int32Array.from(order, (k) => examples[k]),
      );
      const anchor = await ctx.network.readWeights();
      const entry = { task: ctx.t, fisher, anchor };
      stored = options.mode === 'multi' ? [...stored, entry] : [entry];
    },
    getState: () => ({
      tasks: Int32Array.from(stored.map((s) => s.task)),
      fishers: stored.map((s) => s.fisher),
      anchors: stored.map((s) => s.anchor),
    }),
    setState(state) {
      const tasks = (state.tasks as Int32Array | undefined) ?? new Int32Array(0);
      const fishers = (state.fishers as StateValue[] | undefined) ?? [];
      const anchors = (state.anchors as StateValue[] | undefined) ?? [];
      stored = Array.from(tasks, (task, k) => ({
        task,
        fisher: (fishers[k] as Float32Array[]).map((a) => a.slice()),
        anchor: (anchors[k] as Float32Array[]).map((a) => a.slice()),
      }));
    },
    dispose: disposeTerms,
  };
}
