/**
 * The engine's public, plain-data shapes: what a run takes (config + dataset), what it reports while it trains
 * (progress), what it can be resumed from (checkpoint) and what it returns (result). Everything here is numbers,
 * strings, arrays and typed arrays, so a comlink facade can pass it across a worker boundary as is
 * (structured clone; typed arrays may be transferred).
 */
import type { AugmentOptions, InitScheme, StrategyId, StrategyOptionsMap } from './defaults';

/** One split of an image dataset: N images, each H×W×C uint8 (row-major, channels last), and N labels. */
export interface ImageSplit {
  images: Uint8Array;
  labels: Uint8Array | Int32Array;
}

/** One split of a feature dataset: N feature vectors of d float32 values (row-major), and N labels. */
export interface FeatureSplit {
  images: Float32Array;
  labels: Uint8Array | Int32Array;
}

/**
 * Frozen feature vectors as a dataset (src/engine/features/dataset.ts makes one from a feature set): the shape of an
 * image dataset with `shape` [1, 1, d] and float32 rows, batched as they are (no scaling). The `head` model trains on
 * it, and only on it (dataset.ts `checkModelFitsData`).
 */
export interface FeatureDataset {
  shape: [1, 1, number];
  classNames: string[];
  train: FeatureSplit;
  test: FeatureSplit;
}

/** What a run trains on: images (MLP, CNN) or feature vectors (head). */
export type TrainDataset = ImageDataset | FeatureDataset;

/** An image dataset as the engine sees it (src/data's decoded built-ins and parsed user files both map to it). */
export interface ImageDataset {
  /** [height, width, channels] */
  shape: [number, number, number];
  /** class names, index = label */
  classNames: string[];
  train: ImageSplit;
  test: ImageSplit;
}

/** `head`: a linear layer (no hidden layer) or one hidden layer over a feature vector; trains on feature datasets only. */
export type ModelConfig = { kind: 'mlp'; hidden?: number[] } | { kind: 'cnn'; filters?: number[]; dense?: number } | { kind: 'head'; hidden?: number[] };

/** Per-strategy hyper-parameters (defaults in defaults.ts). */
export type StrategyConfig = {
  [S in StrategyId]: { strategy: S; strategyOptions?: Partial<StrategyOptionsMap[S]> };
}[StrategyId];

/** One run = one ordering × one strategy × one seed. */
export type TrainRunConfig = StrategyConfig & {
  /** The ordering: tasks[t] = the dataset's class labels of task t. Order inside a task does not matter. */
  tasks: number[][];
  /** Experiment seed; task t's randomness comes from `taskTrainingSeed(seed, tasks, t)` only. */
  seed: number;
  /** Default: MLP with hidden widths [256, 128]. */
  model?: ModelConfig;
  /** 'adam' (default) or 'sgd' */
  optimizer?: 'adam' | 'sgd';
  lr?: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  batchSize?: number;
  /** Epochs on every task (default 3) … */
  epochs?: number;
  /** … except the first (CPCF preset: 8 on the base task, then 3). Default: `epochs`. */
  firstTaskEpochs?: number;
  evalBatchSize?: number;
  /** Output head masking, see TRAINER_DEFAULTS.head. */
  head?: 'seen' | 'all';
  /**
   * At least this many output units (absent: one per class of the run). Units beyond the run's classes belong to no
   * class: with the 'seen' head they are never scored. A fixed width makes the initial weights, and so every task's
   * training, independent of how many classes the run has (the Your-classes lab grows its run one class at a time).
   */
  outputUnits?: number;
  /**
   * Initial weights (models.ts): 'he-glorot' (default) or 'pytorch' (torch.nn.Linear's U(±1/√fan_in) for weights
   * and biases; docs/science.md appendix "Initialisation and matching PyTorch").
   */
  init?: InitScheme;
  /**
   * Record softmax outputs after every task on every task's calibration and test data (docs/science.md §3, CPCF).
   * Each task's training data is split, seeded, into training and calibration data with `calibrationRatio`
   * (default 0.1); the model never trains on calibration data. Without this option nothing is held out.
   */
  probs?: { calibrationRatio?: number; softmax?: 'seen' | 'all' };
  /**
   * Seeded augmentation of the training batches (augment.ts): `true` = AUGMENT_DEFAULTS, an object = the defaults
   * with some magnitudes replaced, `false`/absent = none (the default for every dataset; the caller turns it on for
   * emoji — `cil-lab run` does). Only the batches the model takes gradient steps on are augmented; evaluation,
   * calibration data, memory selection and features, EWC's Fisher samples and A-GEM's reference batch are not.
   * Each task draws from its own generator (seeded from the task seed), so the batch order is unchanged.
   */
  augment?: boolean | Partial<AugmentOptions>;
  progressEvery?: number;
  yieldEveryMs?: number;
};

/** A config with every default filled in (what a result records). */
export interface ResolvedTrainConfig {
  tasks: number[][];
  seed: number;
  strategy: StrategyId;
  strategyOptions: Record<string, number | string>;
  model: { kind: 'mlp'; hidden: number[] } | { kind: 'cnn'; filters: number[]; dense: number } | { kind: 'head'; hidden: number[] };
  optimizer: 'adam' | 'sgd';
  lr: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  batchSize: number;
  epochs: number;
  firstTaskEpochs: number;
  evalBatchSize: number;
  head: 'seen' | 'all';
  /** present only when given (so the resolved config of a run without it is what builds before the option made) */
  outputUnits?: number;
  /** present only when not the default 'he-glorot', so the resolved config (checkpoint keys, recorded configs) of a
   * run without it is what builds before the option made */
  init?: 'pytorch';
  probs: { calibrationRatio: number; softmax: 'seen' | 'all' } | null;
  /** the augmentation magnitudes, or null for none */
  augment: AugmentOptions | null;
  progressEvery: number;
  yieldEveryMs: number;
}

/** Progress of training, reported between steps. `step` counts from 1 to `steps` within the epoch. */
export interface ProgressEvent {
  task: number;
  epoch: number;
  step: number;
  steps: number;
  /** mean loss of this batch (cross-entropy plus the strategy's terms) */
  loss: number;
  /** training accuracy on this batch */
  accuracy: number;
  tasks: number;
  epochs: number;
}

/** Softmax outputs of one (after-task, split, task) cell. Rows are examples, columns are output units. */
export interface ProbsRecord {
  afterTask: number;
  split: 'calibration' | 'test';
  taskIndex: number;
  /**
   * n × width, row-major: softmax over the classes seen so far (or the full head, `probs.softmax: 'all'`); for the
   * NME classifiers (iCaRL, NCM) the softmax of their nearest-mean scores over the classes seen so far.
   */
  probs: Float32Array;
  width: number;
  /** the true output unit of each row (index into `classOrder` of the result) */
  labels: Int32Array;
}

/** Strategy state between tasks: plain numbers and typed arrays only (checkpoints, cloning, transfer). */
export type StateValue = number | string | Float32Array | Int32Array | StateValue[];
export type StrategyState = Record<string, StateValue>;

/** Everything needed to continue a run after task `nextTask − 1` finished, on any backend. */
export interface RunCheckpoint {
  version: 1;
  /** JSON of the resolved config: a checkpoint only resumes the run it came from */
  configKey: string;
  nextTask: number;
  weights: Float32Array[];
  strategy: StrategyState;
  /** rows 0..nextTask−1 of R */
  matrix: number[][];
  untrained: number[];
  probs: ProbsRecord[];
  backends: string[];
  seconds: number;
}

/** The result of one run. */
export interface TrainRunResult {
  /** R (K×K): R[i][j] = accuracy on task j's test data after training tasks 0..i (docs/science.md conventions). */
  matrix: number[][];
  /** b_j: the untrained (initialised) model's accuracy on task j under the prediction rule of R[j−1][j] (FWT; trainer.ts). */
  untrained: number[];
  /** test samples per task (for the sample-weighted accuracies, docs/science.md §2) */
  testCounts: number[];
  /** training samples per task actually trained on (after the calibration split) */
  trainCounts: number[];
  /** calibration samples per task (0 without `probs`) */
  calibrationCounts: number[];
  /** the ordering, each task sorted (canonical) */
  tasks: number[][];
  /** output unit u predicts dataset class classOrder[u] (tasks concatenated) */
  classOrder: number[];
  /** the backend that finished the run (and every backend used, after a fallback) */
  backend: string;
  backends: string[];
  seconds: number;
  config: ResolvedTrainConfig;
  probs?: ProbsRecord[];
}
