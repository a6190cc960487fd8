/**
 * The training worker's API and message types, types only, the one module both sides import:
 * src/workers/train.worker.ts implements `TrainWorkerApi`, src/services/train-client.ts wraps it with comlink.
 * Importing this module pulls no code (no tfjs) into the UI bundle.
 */
import type * as E from '../engine/index';

/** The engine's types the messages carry, for the client's side. */
export type {
  BackendInfo,
  BackendName,
  BackendTiming,
  FallbackNotice,
  GpuAdapterInfo,
  MeasuredChoice,
  ProbeWorkload,
  ProgressEvent,
  SharedCheckpoint,
  SharedNext,
  SharedProgress,
  SharedTrainOptions,
  TrainRunConfig,
  TrainRunResult,
} from '../engine/index';
import type { JobEvent, JobInput, JobKind, JobOutput } from '../engine/jobs';
import type { WorkerFeatures } from '../engine/features/source-set';

export type { JobEvent, JobInput, JobKind, JobOutput };

export type { WorkerFeatures };

/** A pre-trained method's whole distribution (engine/features/distribution-job.ts), as the UI sends and reads it. */
export type DistributionJobInput = JobInput<'ptm-distribution'>;
export type DistributionJobEvent = JobEvent<'ptm-distribution'>;
export type DistributionJobOutput = JobOutput<'ptm-distribution'>;

/**
 * Which images the worker trains on. `trainPerClass`/`testPerClass`: the first n of each class in file order.
 * `features`: train on the feature vectors of the experiment's classes through that source instead of the pixels
 * (engine/features/source-set.ts; the head model), built-in datasets only.
 */
export type DatasetSpec =
  | {
      kind: 'builtin';
      id: string;
      trainPerClass?: number;
      testPerClass?: number;
      seed?: number;
      features?: { source: WorkerFeatures; classes: number[] };
    }
  /** the dataset the Data tab's worker holds (train-client.ts connects the two workers) */
  | { kind: 'data-worker'; trainPerClass?: number; testPerClass?: number; seed?: number };

/** A built-in dataset for a worker: its id, the images per class where limited (null: all of them), seed 0. */
export function builtinDatasetSpec(id: string, trainPerClass: number | null, testPerClass: number | null): DatasetSpec & { kind: 'builtin' } {
  return {
    kind: 'builtin',
    id,
    ...(trainPerClass !== null ? { trainPerClass } : {}),
    ...(testPerClass !== null ? { testPerClass } : {}),
    seed: 0,
  };
}

export interface TrainDatasetSummary {
  kind: DatasetSpec['kind'];
  /** the built-in id, or the Data tab's dataset id ("user" for the user's files) */
  id: string;
  name: string;
  classNames: string[];
  shape: [number, number, number];
  train: { count: number; perClass: number[] };
  test: { count: number; perClass: number[] };
  trainPerClass: number | null;
  testPerClass: number | null;
  /**
   * Recorded, not used: the subset is the first n images of each class in file order (the prepared files are
   * already shuffled by their split seed; DataConfig in src/core/config/schema.ts), so it needs no seed.
   */
  seed: number | null;
  /** bytes of pixels and labels the worker holds for training */
  bytes: number;
}

export interface WorkerMemory {
  backend: string;
  numTensors: number;
  numBytes: number;
  numDataBuffers: number;
}

/**
 * One finished task of a run, delivered by `run`'s `onTask` while the run goes on (the Forgetting lab draws CPCF
 * from it live). Its typed arrays are copies transferred to the receiver (the run keeps its own for the result).
 */
export interface TaskResult {
  /** the task just trained (0-based) */
  task: number;
  /** K, the run's number of tasks */
  tasks: number;
  /** row `task` of R: accuracy on every task's test data after this task */
  row: number[];
  /** softmax outputs recorded after this task (`afterTask === task`); empty without the `probs` option */
  probs: E.ProbsRecord[];
}

export type ProgressFn = (e: E.ProgressEvent) => void;
export type NoticeFn = (n: E.FallbackNotice) => void;
export type RunDoneFn = (index: number, result: E.TrainRunResult) => void;
export type SharedProgressFn = (p: E.SharedProgress) => void;
/** Pull mode of `runShared`: the next ordering to train (the UI deals one order to several workers). */
export type NextFn = () => E.SharedNext | Promise<E.SharedNext>;
/** Pull mode: a prefix trained here that another worker may continue from (src/core/ground-truth/deal.ts). */
export type CheckpointFn = (c: E.SharedCheckpoint) => void;
export type TaskFn = (r: TaskResult) => void;
export type JobEventFn<K extends JobKind> = (e: JobEvent<K>) => void;

/** What the training worker exposes over comlink (callbacks arrive as comlink proxies, released when a run ends). */
export interface TrainWorkerApi {
  /** Choose the backend: 'auto' = webgpu → webgl → wasm → cpu, the first that passes the probe. */
  selectBackend(preferred?: E.BackendName | 'auto'): Promise<E.BackendInfo>;
  /** The backend in use now, or null before the first selection. */
  backend(): string | null;
  /** The WebGPU adapter here, described (vendor, architecture, device, description, software); null without one. */
  gpuAdapter(): Promise<E.GpuAdapterInfo | null>;
  /**
   * `auto` by measurement (engine/gpu/measure.ts): time the workload on each candidate backend, select the fastest and
   * say why. `cpuWorkers`: the workers a CPU backend would train with.
   */
  measureBackends(workload: E.ProbeWorkload, cpuWorkers: number): Promise<E.MeasuredChoice>;
  /**
   * Warm up for `workload` on the held dataset (engine/warm.ts: a throwaway two-ordering ground truth), so the first
   * Run finds its code and kernels ready. Resolves with the milliseconds it took (0: nothing to warm).
   */
  warmUp(workload: E.ProbeWorkload): Promise<number>;
  /** Load the images to train on (replaces the dataset held before); the Data tab's dataset comes over `port`. */
  loadDataset(spec: DatasetSpec, port?: MessagePort): Promise<TrainDatasetSummary>;
  datasetSummary(): TrainDatasetSummary | null;
  /** Train one run on the held dataset; rejects with a RunCancelledError (by name) when cancelled. */
  run(config: E.TrainRunConfig, onProgress?: ProgressFn, onNotice?: NoticeFn, onTask?: TaskFn): Promise<E.TrainRunResult>;
  /**
   * Train many orderings together (prefix sharing + population); each result goes to `onRunDone` at once. With
   * `next` (pull mode) only the orderings it deals are trained, in that order (engine/shared-train.ts); with
   * `onCheckpoint` the prefixes other workers may continue from are published, and a deal may bring one.
   */
  runShared(
    configs: E.TrainRunConfig[],
    options: E.SharedTrainOptions,
    onRunDone: RunDoneFn,
    onProgress?: SharedProgressFn,
    onNotice?: NoticeFn,
    next?: NextFn,
    onCheckpoint?: CheckpointFn,
  ): Promise<{ backend: string; population: number }>;
  /** Run a registered job kind (src/engine/jobs) with its events; one job at a time, as `run`. */
  job<K extends JobKind>(kind: K, input: JobInput<K>, onEvent?: JobEventFn<K>): Promise<JobOutput<K>>;
  /** Pause / resume / cancel the job in flight (no effect without one). */
  pause(): void;
  resume(): void;
  cancel(): void;
  /** Teaching mode's Step: the job in flight pauses itself after `n` more results (0: plays on; RunControl.pauseAfter). */
  pauseAfter(n: number): void;
  /** tf.memory() of the active backend. */
  memory(): WorkerMemory;
  /** Test hook: destroy the WebGPU device the backend uses; false when the backend has no such device. */
  debugLoseDevice(): boolean;
}
