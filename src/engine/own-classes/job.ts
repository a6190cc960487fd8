/**
 * The Your-classes lab's jobs on the training worker (docs/science.md §10):
 * - `own-encode`: feature vectors of recorded images through the frozen image encoder (kept loaded while its
 *   settings stay; ../clip/image-encoder.ts);
 * - `own-train`: the visitor's ordering (one class per task, in teaching order) trained with their strategy: a
 *   linear head fine-tuned or with replay (../trainer.ts), or SimpleCIL's prototypes (src/core/ptm), giving R;
 * - `own-orderings`: the same for every ordering of their classes (the ground truth; at most OWN_MAX_ORDERINGS), or
 *   for the orderings given (those a paused or cancelled start had not finished); each run is sent with its progress
 *   event the moment it finishes, so the runner stores it at once.
 * Training from scratch on the whole ordering after each new class gives exactly the numbers of continuing from the
 * previous model: task t's training depends only on the seed and the tasks up to t (../seeds.ts).
 */
import type { OwnEncoder, OwnStrategy } from '../../core/config/sections/own-classes';
import type { FeatureSet } from '../../core/features/feature-set';
import type { Ordering } from '../../core/orderings/types';
import { preparePtm, runPtmGroundTruth } from '../../core/ptm/ground-truth';
import { everyOwnOrder, OWN_MAX_ORDERINGS } from '../../core/own-classes/orders';
import { OWN_SIMPLECIL, OWN_TRAINING } from '../../core/own-classes/settings';
import { createImageEncoder, type ImageEncoder } from '../clip/image-encoder';
import type { ModelDevice } from '../clip/download';
import { featureDatasetOf } from '../features/dataset';
import type { Job, JobContext } from '../jobs/job';
import { trainRun } from '../trainer';

export interface OwnEncodeInput {
  encoder: OwnEncoder;
  /** count images of `shape` (uint8 RGB), back to back */
  images: Uint8Array;
  shape: [number, number, number];
  count: number;
  /** where the app serves onnxruntime-web's files (browser) */
  wasmPaths?: string;
  device?: ModelDevice;
  /** may fetch the weights from the hub or a mirror (the visitor pressed the download button); otherwise only the
   *  browser's cache or a self-hosted folder serve them */
  allowRemote?: boolean;
}

export interface OwnEncodeOutput {
  features: Float32Array;
  dim: number;
  device: string;
}

export interface OwnTrainInput {
  /** label k = class k in teaching order (src/core/own-classes/settings.ts ownFeatureSet) */
  set: FeatureSet;
  strategy: OwnStrategy;
  seed: number;
}

/** One ordering's result: `order[t]` is the class taught at step t; R over those steps. */
export interface OwnRun {
  order: number[];
  matrix: number[][];
  finalAccuracy: number;
}

export { OWN_MAX_ORDERINGS };

function encoderOf(input: OwnEncodeInput, ctx: JobContext): Promise<ImageEncoder> {
  const { encoder: e } = input;
  const allowRemote = e.weights.kind !== 'self-hosted' && input.allowRemote === true;
  const key = JSON.stringify([e.model, e.precision, e.weights, input.device ?? 'wasm', allowRemote]);
  return ctx.derived('own-encoder', key, () =>
    createImageEncoder({
      modelId: e.model,
      precision: e.precision,
      source: e.weights,
      device: input.device ?? 'wasm',
      ...(input.wasmPaths ? { wasmPaths: input.wasmPaths } : {}),
      allowRemote,
    }),
  );
}

export const ownEncodeJob: Job<OwnEncodeInput, OwnEncodeOutput, { done: number }> = async (input, ctx, emit) => {
  const enc = await encoderOf(input, ctx);
  const rows = Array.from({ length: input.count }, (_, i) => i);
  const features = await enc.encode(input.images, input.shape, rows, { batchSize: 8, onBatch: (done) => emit({ done }) });
  return { features, dim: enc.dim, device: enc.device };
};

const accuracyOf = (matrix: number[][], testCounts: number[]): number => {
  const last = matrix[matrix.length - 1];
  const n = testCounts.reduce((s, x) => s + x, 0);
  return last.reduce((s, a, j) => s + a * testCounts[j], 0) / n;
};

/** Runs the given orderings (one class per task) with the strategy; each result as it finishes. */
async function runOrderings(input: OwnTrainInput, orderings: Iterable<number[]>, ctx: JobContext, onRun: (r: OwnRun) => void): Promise<void> {
  const { set, strategy, seed } = input;
  const C = set.classNames.length;
  if (strategy === 'simplecil') {
    const evaluator = preparePtm({ features: set, classes: Array.from({ length: C }, (_, k) => k), strategy: OWN_SIMPLECIL, seed });
    const list = [...orderings];
    await runPtmGroundTruth(
      { evaluator, taskSizes: new Array<number>(C).fill(1), orderings: list.map((o): Ordering => o.map((c) => [c])) },
      {
        onRecord: (r, i) => onRun({ order: list[i], matrix: r.matrix, finalAccuracy: r.finalAccuracy }),
        checkpoint: () => ctx.control.checkpoint(),
      },
    );
    return;
  }
  const ds = featureDatasetOf(set);
  for (const order of orderings) {
    const r = await trainRun(
      ds,
      {
        tasks: order.map((c) => [c]),
        seed,
        strategy,
        model: { kind: 'head', hidden: [...OWN_TRAINING.hidden] },
        epochs: OWN_TRAINING.epochs,
        batchSize: OWN_TRAINING.batchSize,
        lr: OWN_TRAINING.lr,
      },
      { control: ctx.control },
    );
    onRun({ order: [...order], matrix: r.matrix, finalAccuracy: accuracyOf(r.matrix, r.testCounts) });
  }
}

/** The visitor's own ordering: the classes in teaching order. */
export const ownTrainJob: Job<OwnTrainInput, OwnRun> = async (input, ctx) => {
  let out: OwnRun | null = null;
  const C = input.set.classNames.length;
  await runOrderings(input, [Array.from({ length: C }, (_, k) => k)], ctx, (r) => (out = r));
  return out!;
};

export interface OwnOrderingsInput extends OwnTrainInput {
  /** the class orders to train (absent: every ordering, in rank order) */
  orders?: number[][];
}

/** Every ordering of the classes (C! of them, C ≤ 6), or the orders given; each run also sent as it finishes. */
export const ownOrderingsJob: Job<OwnOrderingsInput, OwnRun[], { done: number; total: number; run: OwnRun }> = async (input, ctx, emit) => {
  const C = input.set.classNames.length;
  const orders = input.orders ?? everyOwnOrder(C);
  for (const o of orders)
    if (o.length !== C || new Set(o).size !== C || o.some((c) => !Number.isInteger(c) || c < 0 || c >= C))
      throw new RangeError(`${o.join(',')} is not an order of the ${C} classes.`);
  const runs: OwnRun[] = [];
  await runOrderings(input, orders, ctx, (r) => {
    runs.push(r);
    emit({ done: runs.length, total: orders.length, run: r });
  });
  return runs;
};
