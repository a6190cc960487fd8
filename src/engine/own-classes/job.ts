/**
 * The Your-classes lab's jobs on the training worker (docs/science.md §10):
 * - `own-encode`: feature vectors of recorded images through the frozen image encoder (kept loaded while its
 *   settings stay; ../clip/image-encoder.ts), a few frames at a time as they are recorded;
 * - `own-steps`: rows of R of the teaching order from a given step on (the rows before it stand in the history):
 *   a closed-form head (src/core/own-classes/closed-form.ts) is held by the worker and grown by the classes it has
 *   not seen, so adding class t computes one row; the trained head (fine-tune, replay) trains the teaching order
 *   with its fixed output width (OWN_TRAINING.outputUnits), whose row t is the same whenever it is computed;
 * - `own-overview`: every ordering of a closed-form head (or a seeded sample of them) from its states
 *   (src/core/own-classes/order-states.ts), with the numbers of the orders asked for (the taught one, EDGE's, RS's);
 * - `own-orderings`: the trained head on the orders given, each run sent with its progress event the moment it
 *   finishes, so the runner stores it at once;
 * - `own-joint`: a head trained on every class at once, the upper bound the class-by-class runs are compared with.
 */
import type { OwnEncoder } from '../../core/labs/own-classes/section';
import { OWN_CLASSES_LIMITS as OWN_LIMITS } from '../../core/config/limits';
import { isHeadStrategy, type OwnStrategy } from '../../core/own-classes/strategies';
import type { FeatureSet } from '../../core/features/feature-set';
import { aiaWeighted, finalAccuracyWeighted } from '../../core/metrics/accuracy-matrix';
import { closedFormHead, type ClosedFormHead, type HeadClass } from '../../core/own-classes/closed-form';
import {
  numbersOfOrders,
  orderingsOverview,
  scorerOfEvaluator,
  scorerOfScores,
  type OrderingNumbers,
  type OrderingsOverview,
  type StateScorer,
} from '../../core/own-classes/order-states';
import { OWN_TRAINING, ownPtmStrategy } from '../../core/own-classes/settings';
import { preparePtm } from '../../core/ptm/ground-truth';
import { PtmInputError } from '../../core/ptm/problem';
import { createImageEncoder, type ImageEncoder } from '../clip/image-encoder';
import type { ModelDevice } from '../clip/download';
import { featureDatasetOf } from '../features/dataset';
import type { Job, JobContext } from '../jobs/job';
import { trainRun } from '../trainer';
import { activeBackend } from '../backend';

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
  /** average incremental accuracy (sample-weighted) */
  aia: number;
}

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

/** Class k's training and test rows of a feature set, in file order. */
export function classRows(set: FeatureSet, k: number): HeadClass {
  const { d } = set;
  const pick = (split: 0 | 1): Float32Array => {
    const idx: number[] = [];
    for (let i = 0; i < set.n; i++) if (set.labels[i] === k && set.split[i] === split) idx.push(i);
    const out = new Float32Array(idx.length * d);
    idx.forEach((i, r) => out.set(set.features.subarray(i * d, (i + 1) * d), r * d));
    return out;
  };
  return { train: pick(0), test: pick(1) };
}

const testCountsOf = (set: FeatureSet): number[] => {
  const out = new Array<number>(set.classNames.length).fill(0);
  for (let i = 0; i < set.n; i++) if (set.split[i] === 1) out[set.labels[i]]++;
  return out;
};

/** R of `order` with the trained head (fine-tune or replay) on its fixed output width. */
async function trainOrder(set: FeatureSet, strategy: OwnStrategy, seed: number, order: readonly number[], ctx: JobContext): Promise<OwnRun> {
  if (!isHeadStrategy(strategy)) throw new Error(`${strategy} is not a trained head.`);
  if (order.length > OWN_LIMITS.headClasses)
    throw new PtmInputError(
      `The trained head has ${OWN_LIMITS.headClasses} output units: it takes at most ${OWN_LIMITS.headClasses} classes; use a closed-form method (SimpleCIL, NCM, FeCAM, RanPAC) for more.`,
    );
  const r = await trainRun(
    featureDatasetOf(set),
    {
      tasks: order.map((c) => [c]),
      seed,
      strategy: strategy as 'finetune' | 'replay',
      model: { kind: 'head', hidden: [...OWN_TRAINING.hidden] },
      epochs: OWN_TRAINING.epochs,
      batchSize: OWN_TRAINING.batchSize,
      lr: OWN_TRAINING.lr,
      outputUnits: OWN_TRAINING.outputUnits,
    },
    { control: ctx.control },
  );
  return { order: [...order], matrix: r.matrix, finalAccuracy: finalAccuracyWeighted(r.matrix, r.testCounts), aia: aiaWeighted(r.matrix, r.testCounts) };
}

export interface OwnStepsInput extends OwnTrainInput {
  /**
   * One key per class (its name and sample fingerprint): the worker's closed-form head continues from the classes
   * it holds while their keys are a prefix of these, and starts again otherwise.
   */
  classKeys: string[];
  /** the first step to compute (the rows before it stand in the history) */
  from: number;
}

/** Row t of R (accuracies on classes 0..t), its test counts, and the ms it took (the closed-form head's addition of class t). */
export interface OwnStepRow {
  step: number;
  row: number[];
  testCounts: number[];
  ms: number;
}

export interface OwnStepsOutput {
  rows: OwnStepRow[];
  backend: string;
}

/** The closed-form head the worker holds, and the keys of the classes it has. */
interface HeldHead {
  head: ClosedFormHead | null;
  keys: string[];
}

/**
 * The worker's closed-form head for these settings, holding a prefix of `classKeys`' classes: the one it holds when
 * its classes are such a prefix of at most `upTo` classes, else a new one.
 */
async function heldHead(
  input: OwnTrainInput & { classKeys: string[] },
  ctx: JobContext,
  upTo = input.classKeys.length,
): Promise<HeldHead & { head: ClosedFormHead }> {
  const ptm = ownPtmStrategy(input.strategy)!;
  const held = await ctx.derived<HeldHead>('own-head', JSON.stringify([input.strategy, input.seed, input.set.d]), async () => ({ head: null, keys: [] }));
  const prefix = held.keys.length <= upTo && held.keys.every((k, i) => k === input.classKeys[i]);
  if (!held.head || !prefix) {
    held.head = closedFormHead(ptm, input.set.d, input.seed);
    held.keys = [];
  }
  return held as HeldHead & { head: ClosedFormHead };
}

export const ownStepsJob: Job<OwnStepsInput, OwnStepsOutput, { done: number; total: number }> = async (input, ctx, emit) => {
  const { set, from } = input;
  const K = set.classNames.length;
  if (input.classKeys.length !== K) throw new RangeError(`${input.classKeys.length} class keys for ${K} classes.`);
  if (!Number.isInteger(from) || from < 0 || from >= K) throw new RangeError(`The first step to compute is ${from}; there are ${K} classes.`);
  const rows: OwnStepRow[] = [];
  if (isHeadStrategy(input.strategy)) {
    const started = performance.now();
    const r = await trainOrder(
      set,
      input.strategy,
      input.seed,
      Array.from({ length: K }, (_, k) => k),
      ctx,
    );
    const counts = testCountsOf(set);
    const ms = performance.now() - started;
    for (let t = from; t < K; t++) rows.push({ step: t, row: r.matrix[t].slice(0, t + 1), testCounts: counts.slice(0, t + 1), ms });
    return { rows, backend: activeBackend() };
  }
  // a head that holds more than the rows before `from` cannot give row `from` again: it starts anew
  const held = await heldHead(input, ctx, from);
  for (let t = held.head.classes; t < K; t++) {
    await ctx.control.checkpoint();
    const started = performance.now();
    const step = held.head.add(classRows(set, t), t >= from);
    held.keys.push(input.classKeys[t]);
    if (step) rows.push({ step: t, row: step.row, testCounts: step.testCounts, ms: performance.now() - started });
    emit({ done: t + 1, total: K });
  }
  return { rows, backend: 'closed form (no tensors)' };
};

/** The teaching order's whole R (every step), as one run: the CLI's and the lessons' entry point. */
export const ownTrainJob: Job<OwnTrainInput, OwnRun> = async (input, ctx) => {
  const K = input.set.classNames.length;
  const classKeys = input.set.classNames.map((n, k) => `${k}:${n}`);
  const out = await ownStepsJob({ ...input, classKeys, from: 0 }, ctx, () => {});
  const matrix = out.rows.map((r) => [...r.row, ...new Array<number>(K - r.row.length).fill(0)]);
  const counts = testCountsOf(input.set);
  return { order: Array.from({ length: K }, (_, k) => k), matrix, finalAccuracy: finalAccuracyWeighted(matrix, counts), aia: aiaWeighted(matrix, counts) };
};

export interface OwnOverviewInput extends OwnTrainInput {
  classKeys: string[];
  /** null: every ordering (at most OWN_LIMITS.exactClasses classes); else a seeded uniform sample of them */
  sample: { count: number; seed: number } | null;
  /** orders whose numbers come back too (EDGE's, RS's) */
  picks: number[][];
}

export interface OwnOverviewOutput {
  overview: OrderingsOverview;
  picks: OrderingNumbers[];
}

/** The state scorer of a closed-form head on the whole set: the held head's scores, or RanPAC's evaluator. */
async function scorerOf(input: OwnOverviewInput, ctx: JobContext): Promise<StateScorer> {
  const K = input.set.classNames.length;
  const ptm = ownPtmStrategy(input.strategy)!;
  if (ptm.id === 'ranpac') {
    if (K > OWN_LIMITS.exactClasses)
      throw new PtmInputError(
        `RanPAC solves a ridge system for every set of classes seen: every ordering of up to ${OWN_LIMITS.exactClasses} classes (2^${OWN_LIMITS.exactClasses} sets), not a sample of ${K} classes' orderings, whose sets hardly repeat; SimpleCIL, NCM and FeCAM take any number.`,
      );
    return scorerOfEvaluator(preparePtm({ features: input.set, classes: Array.from({ length: K }, (_, k) => k), strategy: ptm, seed: input.seed }));
  }
  const held = await heldHead(input, ctx);
  for (let t = held.head.classes; t < K; t++) {
    await ctx.control.checkpoint();
    held.head.add(classRows(input.set, t), false);
    held.keys.push(input.classKeys[t]);
  }
  const s = held.head.classes === K ? held.head.scores()! : null;
  if (s) return scorerOfScores(s.scores, s.testStart);
  // the held head has more classes than asked for (a class removed at the end): a head of these classes only
  const fresh = closedFormHead(ptm, input.set.d, input.seed);
  for (let t = 0; t < K; t++) fresh.add(classRows(input.set, t), false);
  const f = fresh.scores()!;
  return scorerOfScores(f.scores, f.testStart);
}

export const ownOverviewJob: Job<OwnOverviewInput, OwnOverviewOutput, { done: number; total: number }> = async (input, ctx, emit) => {
  if (isHeadStrategy(input.strategy)) throw new Error('The trained head trains its orderings one by one (own-orderings).');
  const scorer = await scorerOf(input, ctx);
  const counts = testCountsOf(input.set);
  const overview = await orderingsOverview(counts, scorer, input.sample, {
    checkpoint: () => ctx.control.checkpoint(),
    onProgress: (done, total) => emit({ done, total }),
  });
  return { overview, picks: numbersOfOrders(input.picks, counts, scorer) };
};

export interface OwnOrderingsInput extends OwnTrainInput {
  /** the class orders to train */
  orders: number[][];
}

/** The trained head on the orders given; each run also sent as it finishes. */
export const ownOrderingsJob: Job<OwnOrderingsInput, OwnRun[], { done: number; total: number; run: OwnRun }> = async (input, ctx, emit) => {
  const C = input.set.classNames.length;
  const { orders } = input;
  for (const o of orders)
    if (o.length !== C || new Set(o).size !== C || o.some((c) => !Number.isInteger(c) || c < 0 || c >= C))
      throw new RangeError(`${o.join(',')} is not an order of the ${C} classes.`);
  const runs: OwnRun[] = [];
  for (const o of orders) {
    const r = await trainOrder(input.set, input.strategy, input.seed, o, ctx);
    runs.push(r);
    emit({ done: runs.length, total: orders.length, run: r });
  }
  return runs;
};

/** The joint head's accuracy: the same linear head trained on every class at once (one task), the same epochs. */
export const ownJointJob: Job<{ set: FeatureSet; seed: number }, { accuracy: number; seconds: number }> = async (input, ctx) => {
  const K = input.set.classNames.length;
  const r = await trainRun(
    featureDatasetOf(input.set),
    {
      tasks: [Array.from({ length: K }, (_, k) => k)],
      seed: input.seed,
      strategy: 'finetune',
      model: { kind: 'head', hidden: [...OWN_TRAINING.hidden] },
      epochs: OWN_TRAINING.epochs,
      batchSize: OWN_TRAINING.batchSize,
      lr: OWN_TRAINING.lr,
    },
    { control: ctx.control },
  );
  return { accuracy: finalAccuracyWeighted(r.matrix, r.testCounts), seconds: r.seconds };
};
