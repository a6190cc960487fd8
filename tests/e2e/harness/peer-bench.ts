/**
 * Our side of `npm run bench:peer` in Chromium (scripts/bench-peer.mjs): every ordering of a config
 * (scripts/peer/bench-peer-lib.mjs benchConfig) on our fast path — `trainShared`, prefix sharing with the
 * backend's automatic population — with the options that match PyTorch (full head, `init: 'pytorch'`). Returns the
 * seconds, the seconds until the first ordering's result, the optimiser steps trained and every ordering's final
 * accuracy (sample-weighted, as `cil-lab run` reports it).
 *
 * Also, for the pool of workers (train-harness.ts `peerBenchPool`), as the Ground-truth lab trains: one worker's share
 * in pull mode (`peerBenchPull`, dealt by src/core/ground-truth/deal.ts in the sample order), and the fused step's
 * time on this config's own batches (`timeConfigSteps`), from which the benchmark computes the floor.
 */
import { sampleOrderSeed, scheduleOrderings } from '../../../src/core/ground-truth/schedule';
import { createDefaultRng } from '../../../src/core/random/default-rng';
import { enumerateOrderings } from '../../../src/core/orderings/enumerate';
import { resolveTrainConfig } from '../../../src/engine/config';
import { epochOrder, imageSize, subsetPerClass } from '../../../src/engine/dataset';
import { FusedMlp } from '../../../src/engine/kernels/fused-mlp';
import { initWeights } from '../../../src/engine/models';
import { planRun } from '../../../src/engine/plan';
import { RunCancelledError, RunControl } from '../../../src/engine/control';
import { trainShared, type SharedCheckpoint, type SharedNext } from '../../../src/engine/shared-train';
import { countGpuCalls, gpuCallCounts } from './gpu-count';
import { initialWeightsSeed, networkSpec } from '../../../src/engine/trainer';
import type { ImageDataset, TrainRunConfig } from '../../../src/engine/types';
import { finalAccuracy, keepClasses } from './groundtruth-bench';

export interface PeerBenchConfig {
  classes: number;
  tasks: number;
  trainPerClass: number;
  testPerClass: number;
  epochs: number;
  batchSize: number;
  lr: number;
  hidden: number[];
  head: 'seen' | 'all';
  init: 'he-glorot' | 'pytorch';
  seed: number;
}

export interface PeerBenchResult {
  seconds: number;
  firstResultSeconds: number;
  /** optimiser steps trained (counted by the engine; a population's step counts once per model) */
  steps: number;
  /** the final accuracy of each ordering trained, in the order of `indices` (all orderings: enumeration order) */
  finals: number[];
  orderings: number;
  /** the most models trained in lockstep (population training, GPU backends; 1 on wasm) */
  population: number;
  /** what trained: level-batched WebGPU kernels, the fused wasm step, or tfjs (engine SharedProgress `kernels`) */
  kernels: string;
  /** GPU dispatches and buffer read-backs the whole ground truth made (gpu-count.ts; 0 on wasm) */
  dispatches: number;
  readbacks: number;
  /** stopped after `stopAfterSeconds` before every ordering finished (the figures are of the part trained) */
  partial: boolean;
}

/** Every ordering of the config, in enumeration order (the same list on every worker). */
export function peerOrderings(cfg: PeerBenchConfig): number[][][] {
  const sizes = Array.from({ length: cfg.tasks }, () => cfg.classes / cfg.tasks);
  return Array.from(enumerateOrderings(sizes), (o) => o.map((t) => [...t]));
}

/** The config's images: its classes, the first `trainPerClass` / `testPerClass` of each. */
export function peerDataset(fashion: ImageDataset, cfg: PeerBenchConfig): ImageDataset {
  return subsetPerClass(
    {
      shape: fashion.shape,
      classNames: fashion.classNames.slice(0, cfg.classes),
      train: keepClasses(fashion.train, cfg.classes),
      test: keepClasses(fashion.test, cfg.classes),
    },
    { trainPerClass: cfg.trainPerClass, testPerClass: cfg.testPerClass },
  );
}

/** The engine's run config of each ordering (finetune, the config's options). */
export function peerConfigs(cfg: PeerBenchConfig, orderings = peerOrderings(cfg)): TrainRunConfig[] {
  return orderings.map(
    (tasks) =>
      ({
        tasks,
        seed: cfg.seed,
        strategy: 'finetune',
        model: { kind: 'mlp', hidden: cfg.hidden },
        lr: cfg.lr,
        batchSize: cfg.batchSize,
        epochs: cfg.epochs,
        head: cfg.head,
        init: cfg.init,
      }) as TrainRunConfig,
  );
}

/**
 * The order the lab's workers are dealt (indices into `peerOrderings`): every ordering is truth, so the seeded sample
 * order is numpy `default_rng(sampleOrderSeed(seed)).permutation(n)` (core/ground-truth/schedule.ts), or its
 * depth-first fallback when that would keep too many copies (not for the default).
 */
export function peerSampleOrder(cfg: PeerBenchConfig): number[] {
  const orderings = peerOrderings(cfg);
  const perm = createDefaultRng(sampleOrderSeed(cfg.seed)).permutation(orderings.length);
  const rank = new Map(perm.map((o, r) => [o, r]));
  return scheduleOrderings(orderings, (i) => rank.get(i) as number, cfg.seed).order;
}

/**
 * `indices`: only these orderings (one worker's share of a pool); default all. `levels: false`: on WebGPU, tfjs's
 * populations instead of the level-batched kernels (the path before them). `stopAfterSeconds`: cancel then (a sample
 * of a path too slow to finish; `partial`).
 */
export async function peerBench(
  fashion: ImageDataset,
  cfg: PeerBenchConfig,
  indices?: number[],
  options: { levels?: boolean; stopAfterSeconds?: number } = {},
): Promise<PeerBenchResult> {
  const ds = peerDataset(fashion, cfg);
  const all = peerOrderings(cfg);
  const orderings = indices ? indices.map((i) => all[i]) : all;
  const configs = peerConfigs(cfg, orderings);
  countGpuCalls();
  gpuCallCounts(true);
  const control = new RunControl();
  const stop = options.stopAfterSeconds ? setTimeout(() => control.cancel(), options.stopAfterSeconds * 1000) : undefined;
  const t0 = performance.now();
  let first = NaN;
  let steps = 0;
  let population = 1;
  let kernels = '';
  const finals: number[] = new Array(configs.length).fill(NaN);
  let partial = false;
  let lastStep = '';
  let liveSteps = 0;
  try {
    await trainShared(
      ds,
      configs,
      { population: 'auto', levels: options.levels ?? true },
      {
        control,
        onRunDone: (i, r) => {
          first = Number.isNaN(first) ? (performance.now() - t0) / 1000 : first;
          finals[i] = finalAccuracy(r);
        },
        onProgress: (p) => {
          steps = p.stepsDone;
          population = Math.max(population, p.population);
          kernels = p.kernels ?? kernels;
          // model-steps as they happen (the engine adds a population's steps when its task ends): one per step event
          const key = p.step ? `${p.stepsDone}:${p.step.task}:${p.step.epoch}:${p.step.step}` : '';
          if (key && key !== lastStep) {
            lastStep = key;
            liveSteps += p.kernels === 'level' ? 0 : p.population;
          }
        },
      },
    );
  } catch (e) {
    if (!(e instanceof RunCancelledError)) throw e;
    partial = true;
  } finally {
    clearTimeout(stop);
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    seconds,
    firstResultSeconds: first,
    // a sample stopped inside a population's task: the steps its events counted (the level path counts per step itself)
    steps: partial && kernels !== 'level' ? Math.max(steps, liveSteps) : steps,
    finals,
    orderings: configs.length,
    population,
    kernels,
    ...gpuCallCounts(true),
    partial,
  };
}

export interface PeerPullResult {
  /** the orderings this worker finished (indices into `peerOrderings`) and their final accuracies */
  done: { index: number; final: number }[];
  /** tasks and optimiser steps trained in this worker, and its test predictions (evaluation passes × examples) */
  tasksTrained: number;
  stepsTrained: number;
  predictions: number;
}

/**
 * One worker of the pool, as a Ground-truth lab worker trains (pull mode, src/engine/shared-train.ts): every
 * ordering of the config is given, `next` deals them (src/core/ground-truth/deal.ts on the page), prefixes another
 * worker may continue from go to `onCheckpoint`, and each finished ordering to `onDone` at once (the first result).
 */
export async function peerBenchPull(
  fashion: ImageDataset,
  cfg: PeerBenchConfig,
  next: () => SharedNext | Promise<SharedNext>,
  onCheckpoint: (c: SharedCheckpoint) => void,
  onDone: (index: number) => void,
): Promise<PeerPullResult> {
  const ds = peerDataset(fashion, cfg);
  const done: { index: number; final: number }[] = [];
  let tasksTrained = 0;
  let stepsTrained = 0;
  let predictions = 0;
  await trainShared(
    ds,
    peerConfigs(cfg),
    { population: 'auto' },
    {
      next,
      onCheckpoint,
      onRunDone: (index, r) => {
        done.push({ index, final: finalAccuracy(r) });
        onDone(index);
      },
      onProgress: (p) => ((tasksTrained = p.tasksDone), (stepsTrained = p.stepsDone), (predictions = p.predictionsDone)),
    },
  );
  return { done, tasksTrained, stepsTrained, predictions };
}

/**
 * Milliseconds per fused training step (src/engine/kernels/fused-mlp.ts, what the trainer runs on wasm) on this
 * config's own batches: the first ordering's tasks one after another, each with a fresh optimiser and the batches
 * the trainer draws (`epochOrder`, full batches and each epoch's partial last one), cycled for `minMs` in five
 * windows after `warmupMs` of the same; the fastest window's time per step. What the trainer's inner loop does per
 * step (the batch order, the batch's units, setBatch, step), none of its work between tasks (set-up, evaluation,
 * checkpoints): the floor's unit. The benchmark's pool times it in one worker alone and in every worker at once.
 *
 * Then milliseconds per test prediction: the fused forward pass over every test example of the config's classes
 * (`predict`, what each trained prefix's evaluation runs), the fastest of five windows over a third of `minMs`: the
 * unit of the floor's evaluation part.
 */
export async function timeConfigSteps(
  fashion: ImageDataset,
  cfg: PeerBenchConfig,
  opts: { warmupMs?: number; minMs?: number } = {},
): Promise<{ msPerStep: number; steps: number; msPerPrediction: number; predictions: number }> {
  const { warmupMs = 500, minMs = 3000 } = opts;
  const ds = peerDataset(fashion, cfg);
  const run = resolveTrainConfig(peerConfigs(cfg)[0]);
  const plan = planRun(ds, run);
  const spec = networkSpec(ds, run, plan.outputs);
  const fused = await FusedMlp.create(spec, run.batchSize);
  if (!fused) throw new Error('WebAssembly SIMD is not available here: no fused step to time.');
  const initial = initWeights(spec, initialWeightsSeed(run.seed));
  const size = imageSize(ds);
  const unitOf = (e: number): number => plan.unitOfClass[ds.train.labels[e]];
  const rng = createDefaultRng(run.seed);
  // one task's batches: (indices, head width) for every step of every epoch
  const taskBatches = (t: number): [Int32Array, number][] => {
    const tp = plan.tasks[t];
    const width = run.head === 'seen' ? tp.firstUnit + tp.classes.length : plan.outputs;
    const out: [Int32Array, number][] = [];
    for (let epoch = 0; epoch < (t === 0 ? run.firstTaskEpochs : run.epochs); epoch++) {
      const order = epochOrder(rng, tp.train);
      for (let s = 0; s < order.length; s += run.batchSize) out.push([order.slice(s, s + run.batchSize), width]);
    }
    return out;
  };
  const unitsOf = (idx: Int32Array): Int32Array => Int32Array.from(idx, unitOf);
  const timeFor = (ms: number): { elapsed: number; steps: number } => {
    let steps = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ms) {
      fused.setWeights(initial);
      for (let t = 0; t < plan.tasks.length; t++) {
        fused.resetOptimizer({ kind: run.optimizer, lr: run.lr, beta1: run.beta1, beta2: run.beta2, epsilon: run.epsilon });
        for (const [idx, width] of taskBatches(t)) {
          fused.setBatch(ds.train.images, size, idx, unitsOf(idx));
          fused.step(idx.length, width);
          steps++;
        }
      }
    }
    return { elapsed: performance.now() - t0, steps };
  };
  timeFor(warmupMs);
  // the fastest of five windows: a floor. Another process taking the core in one window slows that window only
  const windows = Array.from({ length: WINDOWS }, () => timeFor(minMs / WINDOWS));
  const steps = windows.reduce((a, w) => a + w.steps, 0);
  const msPerStep = Math.min(...windows.map((w) => w.elapsed / w.steps));
  // an evaluation pass as the trainer runs it (trainer.ts testPredictions): every test example of the config's
  // classes (what the 'all' head predicts), on the weights the steps left, a third as long as the steps
  const test = plan.tasks.flatMap((tp) => Array.from(tp.test)).sort((a, b) => a - b);
  const predictFor = (ms: number): { elapsed: number; predictions: number } => {
    let predictions = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ms) {
      fused.predict(ds.test.images, size, test, plan.outputs);
      predictions += test.length;
    }
    return { elapsed: performance.now() - t0, predictions };
  };
  predictFor(warmupMs / 2);
  const passes = Array.from({ length: WINDOWS }, () => predictFor(minMs / 3 / WINDOWS));
  const predictions = passes.reduce((a, w) => a + w.predictions, 0);
  return { msPerStep, steps, msPerPrediction: Math.min(...passes.map((w) => w.elapsed / w.predictions)), predictions };
}

/** Timing windows of `timeConfigSteps`; it reports the fastest. */
const WINDOWS = 5;
