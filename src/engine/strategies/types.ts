/**
 * The one small interface every CIL strategy implements (docs/architecture.md: "a strategy is one file implementing
 * one small interface: what to add to the loss, what to do before/after a task, how to predict").
 *
 * The trainer owns the loop: for task t it calls `beforeTask`, trains on `trainingSet` with cross-entropy over
 * the masked head plus `lossTerms`, lets `adjustGradients` change each step's gradients and `afterStep` observe
 * them, then calls `afterTask`, evaluates (with `predictScores` if the strategy has its own classifier) and
 * finally `dispose`.
 *
 * Tensor hygiene contract (the trainer's test checks it for every strategy): tensors a strategy needs during a
 * task (an old model, Fisher matrices, SI's accumulators) are created in `beforeTask` and released in
 * `dispose()`, which the trainer calls at the end of every task (and on cancel or failure). Between tasks a
 * strategy holds only plain typed arrays — exactly what `getState` returns and `setState` restores, so a
 * checkpoint taken between tasks resumes the run bit for bit.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { DefaultRng } from '../../core/random/default-rng';
import type { StrategyId } from '../defaults';
import type { Network } from '../models';
import type { StreamName } from '../seeds';
import type { TrainDataset, StrategyState } from '../types';

/** What a strategy may see and use while task t runs. */
export interface TaskContext {
  /** current task, 0-based */
  readonly t: number;
  readonly taskCount: number;
  /** output units of the classes of tasks 0..t−1 (they are units 0..seenBefore−1) */
  readonly seenBefore: number;
  /** output units of the classes of tasks 0..t */
  readonly seen: number;
  /** all output units (every class of the run) */
  readonly outputs: number;
  /** units taking part in the cross-entropy and the default prediction: `seen` ('seen' head) or `outputs` */
  readonly headWidth: number;
  readonly network: Network;
  readonly dataset: TrainDataset;
  /** the seed of this task under the prefix rule (taskTrainingSeed) */
  readonly taskSeed: number;
  readonly evalBatchSize: number;
  /** training examples (indices into dataset.train) of task u ≤ t, without its calibration data */
  trainExamples(u: number): Int32Array;
  /** output unit of a training example */
  unitOf(example: number): number;
  /** a fresh generator for one purpose of this task (the same numbers on every call) */
  rng(stream: StreamName): DefaultRng;
  /** a batch of training examples: images [n,H,W,C] in [0,1] and output units (int32); the caller disposes */
  batch(examples: ArrayLike<number>): { x: tf.Tensor4D; y: tf.Tensor1D };
  /** penultimate-layer features of training examples, n × network.featureSize, row-major */
  trainFeatures(examples: Int32Array): Promise<Float32Array>;
  /** seeded initial weights (GDumb retrains from scratch) */
  initialWeights(seed: number): Float32Array[];
  /** cooperative pause/cancel point for long strategy work */
  checkpoint(): Promise<void>;
}

/** A batch as the loss sees it: `logits` already masked to `headWidth`. */
export interface LossBatch {
  x: tf.Tensor4D;
  labels: tf.Tensor1D;
  logits: tf.Tensor2D;
}

export interface Strategy {
  readonly id: StrategyId;
  /** Prepare task t (build task-scoped tensors, update memories that feed this task's training). */
  beforeTask(ctx: TaskContext): Promise<void>;
  /** Training examples of task t (indices into dataset.train); null to skip training this task (NCM). */
  trainingSet(ctx: TaskContext): Int32Array | null;
  /** Terms added to the cross-entropy, inside the gradient tape; null for none. */
  lossTerms?(ctx: TaskContext, batch: LossBatch): tf.Scalar | null;
  /** Replace a step's gradients (A-GEM's projection). Returns new tensors; the trainer disposes both maps. */
  adjustGradients?(ctx: TaskContext, grads: tf.NamedTensorMap): tf.NamedTensorMap;
  /** Observe the gradients a step applied, after the update (SI's path integral). */
  afterStep?(ctx: TaskContext, grads: tf.NamedTensorMap): void;
  /** Finish task t (Fisher, exemplars, class means). */
  afterTask(ctx: TaskContext): Promise<void>;
  /** Scores [n, seen] whose arg-max is the prediction, replacing the network's logits (NME classifiers). */
  predictScores?(ctx: TaskContext, x: tf.Tensor4D): tf.Tensor2D | null;
  /** State between tasks: plain typed arrays. */
  getState(): StrategyState;
  setState(state: StrategyState): void;
  /** Release task-scoped tensors (idempotent). */
  dispose(): void;
}
