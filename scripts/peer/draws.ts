/**
 * The random draws of a set of runs, written out so that another implementation can replay them (the
 * paired PyTorch peer of `npm run bench:peer`). Two independent implementations that draw their own initial
 * weights and batch orders give two independent samples of the 90 final accuracies, which differ in their means
 * by about a standard error (1.1 points on the default) however exact both are. Fed our draws, PyTorch trains
 * the same runs as the engine, step for step, and the two lists of final accuracies can be compared run by run:
 * what is left is float32 summation order.
 *
 * What is written, for finetune MLP runs (the strategy's training set is the task's training images):
 * - `layers`: the initial weights, as the engine builds them (models.ts `initWeights` with trainer.ts
 *   `initialWeightsSeed`): per dense layer the kernel [in, out] row-major and the bias, float32 little-endian in
 *   base64 (PyTorch's `nn.Linear.weight` is the kernel transposed);
 * - per ordering: its tasks (dataset class ids), the output unit of every class (plan.ts: position in the
 *   ordering), and per task and epoch the examples in batch order (dataset.ts `epochOrder` on the task's
 *   'batches' stream, seeds.ts, exactly as the trainer draws them); an example is written as
 *   `class × trainPerClass + rank`, its rank among the kept images of its class in file order, so the peer finds
 *   it in its own subset whatever the other classes;
 * - the optimiser's settings, the batch size and the epochs, for the peer to check against its own.
 */
import { resolveTrainConfig } from '../../src/engine/config';
import { epochOrder } from '../../src/engine/dataset';
import { initWeights, paramInfo } from '../../src/engine/models';
import { planRun } from '../../src/engine/plan';
import { streamRng } from '../../src/engine/seeds';
import { initialWeightsSeed, networkSpec } from '../../src/engine/trainer';
import type { ImageDataset, TrainRunConfig } from '../../src/engine/types';

export const DRAWS_FORMAT = 'cil-lab-draws/1';

export interface DrawsFile {
  format: typeof DRAWS_FORMAT;
  trainPerClass: number;
  batchSize: number;
  epochs: number;
  firstTaskEpochs: number;
  optimizer: { kind: string; lr: number; beta1: number; beta2: number; epsilon: number };
  head: string;
  layers: { in: number; out: number; weight: string; bias: string }[];
  orderings: { tasks: number[][]; units: Record<string, number>; epochs: number[][][] }[];
}

const base64 = (a: Float32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

/** Each training example's code `class × perClass + rank` (rank: among its class's images, in index order). */
export function exampleCodes(labels: Uint8Array | ArrayLike<number>, perClass: number): Int32Array {
  const rank = new Map<number, number>();
  return Int32Array.from({ length: labels.length }, (_, i) => {
    const c = labels[i];
    const r = rank.get(c) ?? 0;
    rank.set(c, r + 1);
    if (r >= perClass) throw new RangeError(`Class ${c} has more than ${perClass} training images: the subset is not ${perClass} per class.`);
    return c * perClass + r;
  });
}

/** The draws of `configs` (one per ordering, same everything else) on `ds` (already cut to `trainPerClass`). */
export function drawsOf(ds: ImageDataset, configs: TrainRunConfig[], trainPerClass: number): DrawsFile {
  if (configs.length === 0) throw new Error('No runs to export.');
  const resolved = configs.map(resolveTrainConfig);
  const first = resolved[0];
  for (const cfg of resolved) {
    if (cfg.strategy !== 'finetune' || cfg.model.kind !== 'mlp' || cfg.augment)
      throw new Error('The draws are written for finetune MLP runs without augmentation only.');
    if (cfg.seed !== first.seed) throw new Error('Every run must have the same seed.');
  }
  const codes = exampleCodes(ds.train.labels, trainPerClass);
  const firstPlan = planRun(ds, first);
  const spec = networkSpec(ds, first, firstPlan.outputs);
  const init = initWeights(spec, initialWeightsSeed(first.seed));
  const info = paramInfo(spec);
  const layers: DrawsFile['layers'] = [];
  for (let i = 0; i < info.length; i += 2) {
    const [fanIn, fanOut] = info[i].shape;
    layers.push({ in: fanIn, out: fanOut, weight: base64(init[i]), bias: base64(init[i + 1]) });
  }
  const orderings = resolved.map((cfg) => {
    const plan = planRun(ds, cfg);
    const units: Record<string, number> = {};
    plan.classOrder.forEach((cls, u) => (units[String(cls)] = u));
    const epochs = plan.tasks.map((tp, t) => {
      const rng = streamRng(tp.seed, 'batches');
      const n = t === 0 ? cfg.firstTaskEpochs : cfg.epochs;
      return Array.from({ length: n }, () => Array.from(epochOrder(rng, tp.train), (e) => codes[e]));
    });
    return { tasks: cfg.tasks.map((t) => t.slice()), units, epochs };
  });
  return {
    format: DRAWS_FORMAT,
    trainPerClass,
    batchSize: first.batchSize,
    epochs: first.epochs,
    firstTaskEpochs: first.firstTaskEpochs,
    optimizer: { kind: first.optimizer, lr: first.lr, beta1: first.beta1, beta2: first.beta2, epsilon: first.epsilon },
    head: first.head,
    layers,
    orderings,
  };
}
