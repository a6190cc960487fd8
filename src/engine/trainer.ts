/**
 * One run = one ordering × one strategy × one seed: the training loop of docs/science.md "The loop, per task" and
 * "Seeds". Plain data in (dataset, config), plain data out (R, the untrained accuracies, counts, optional softmax
 * outputs), progress through a callback: a comlink facade is `expose({ trainRun: (d, c, cb) => trainRun(d, c,
 * { onProgress: cb }) })` plus pause/resume/cancel on a RunControl.
 */
import * as tf from '@tensorflow/tfjs-core';
import { createDefaultRng, type DefaultRng } from '../core/random/default-rng';
import { augmentBatch, augmentSeed } from './augment';
import { ensureBackend } from './backend';
import { cloneCheckpoint, cloneState, checkpointMismatch } from './checkpoint';
import { resolveTrainConfig, TrainConfigError } from './config';
import { RunControl, pausePointOf } from './control';
import { batchImages, checkModelFitsData, epochOrder, imageSize, imagesOnly, validateDataset } from './dataset';
import { ensureGradients } from './gradients';
import { acquireFusedMlp, fusedApplies, fusedForwardApplies, releaseFusedMlp } from './kernels/fused-mlp';
import { accuracyFrom, predictionsOn, predictionTable, softmaxOn, sortedUnion, unitsOf, type ScoreFn } from './evaluate';
import { batchAccuracy, crossEntropy, headPrefix } from './losses';
import { createNetwork, initWeights, type Network, type NetworkSpec } from './models';
import { planRun, type RunPlan } from './plan';
import { deriveSeed, STREAM, streamRng } from './seeds';
import { createStrategy, type Strategy, type TaskContext } from './strategies/index';
import type { TrainDataset, ProbsRecord, ProgressEvent, ResolvedTrainConfig, RunCheckpoint, TrainRunConfig, TrainRunResult } from './types';

export interface TaskEndEvent {
  task: number;
  /** row `task` of R */
  row: number[];
  /** tf.memory().numTensors after the task's cleanup, and the value it must equal */
  numTensors: number;
  baselineTensors: number;
  /** tf.memory().numBytes after the task */
  numBytes: number;
  /**
   * With the `probs` option: the softmax outputs recorded after this task (`afterTask === task`, every task's
   * calibration and test split). The run's own records, not copies: copy them before transferring their buffers.
   */
  probs?: ProbsRecord[];
}

export interface TrainHooks {
  onProgress?: (e: ProgressEvent) => void;
  /** pause / resume / cancel (control.ts) */
  control?: RunControl;
  /** called after every task with a checkpoint to resume from (a deep copy: the receiver owns it) */
  onCheckpoint?: (c: RunCheckpoint) => void;
  /** continue a run from a checkpoint of the same config */
  resumeFrom?: RunCheckpoint;
  onTaskEnd?: (e: TaskEndEvent) => void;
  /** called between steps; throws when the backend is gone (fallback.ts) */
  guard?: () => void;
}

/**
 * The network of a run. A head is an MLP over the feature vector (shape [1, 1, d]) with at most one hidden layer, so
 * everything built for MLPs serves it (the fused wasm step, populations, every strategy); `checkModelFitsData` has
 * made sure it meets a feature dataset, and an MLP or CNN an image dataset.
 */
export function networkSpec(ds: TrainDataset, cfg: ResolvedTrainConfig, outputs: number): NetworkSpec {
  const m = cfg.model;
  const init = cfg.init ? { init: cfg.init } : {};
  return m.kind === 'cnn'
    ? { kind: 'cnn', inputShape: ds.shape, outputs, filters: m.filters, dense: m.dense, ...init }
    : { kind: 'mlp', inputShape: ds.shape, outputs, hidden: m.hidden, ...init };
}

function safeDispose(f: () => void): void {
  try {
    f();
  } catch {
    // a backend that died mid-run may refuse to free; nothing else to do
  }
}

/** The fields of a run's result that come from its plan and config (shared with trainShared). */
export function planSummary(
  plan: RunPlan,
  cfg: ResolvedTrainConfig,
): Pick<TrainRunResult, 'testCounts' | 'trainCounts' | 'calibrationCounts' | 'tasks' | 'classOrder'> {
  return {
    testCounts: plan.tasks.map((tp) => tp.test.length),
    trainCounts: plan.tasks.map((tp) => tp.train.length),
    calibrationCounts: plan.tasks.map((tp) => tp.calibration.length),
    tasks: cfg.tasks.map((c) => c.slice()),
    classOrder: plan.classOrder.slice(),
  };
}

/** The seed of the initial weights: the experiment seed only, so every ordering starts from the same model. */
export function initialWeightsSeed(seed: number): number {
  return deriveSeed(seed, STREAM.init);
}

/**
 * Trains one run. Per task t: every random choice comes from `taskTrainingSeed(seed, tasks, t)` through seeds.ts's
 * purpose streams (no dropout; augmentation, off by default, draws from its own generator per task, so it changes
 * the training batches' pixels and nothing else); a fresh optimiser (so a checkpoint between tasks needs no
 * optimiser state); `epochs` passes (`firstTaskEpochs` on the first) over a seeded permutation of the strategy's
 * training set; the strategy's `afterTask`, then row t of R on every task's test data (with the 'seen' head the
 * future tasks' part is 0 by construction) and, when asked, softmax outputs; then the task's tensors are released
 * (`tf.memory().numTensors` back to its value before task 0, reported to `onTaskEnd`, tested for every strategy).
 * The untrained accuracies b_j (FWT) are measured once before task 0 with R[j−1][j]'s prediction rule: chance with
 * the 'all' head, 0 with the 'seen' head (which cannot predict task j's classes yet, so FWT is 0 by construction).
 */
export async function trainRun(dataset: TrainDataset, config: TrainRunConfig, hooks: TrainHooks = {}): Promise<TrainRunResult> {
  const started = performance.now();
  await ensureGradients();
  await ensureBackend();
  const cfg = resolveTrainConfig(config);
  validateDataset(dataset);
  checkModelFitsData(dataset, cfg);
  const plan = planRun(dataset, cfg);
  const K = plan.tasks.length;
  // what determines the numbers (how often progress is read back or the loop yields does not)
  const configKey = JSON.stringify({ ...cfg, progressEvery: undefined, yieldEveryMs: undefined });
  const resume = hooks.resumeFrom;
  if (resume) {
    const why = checkpointMismatch(resume, configKey, K);
    if (why) throw new TrainConfigError(`Cannot resume: ${why}.`);
  }
  const spec = networkSpec(dataset, cfg, plan.outputs);
  const network = createNetwork(spec, resume ? resume.weights : initWeights(spec, initialWeightsSeed(cfg.seed)));
  const strategy = createStrategy(cfg.strategy, cfg.strategyOptions as never);
  const state: { optimizer: tf.Optimizer | null } = { optimizer: null };
  try {
    if (resume) strategy.setState(cloneState(resume.strategy));
    const baselineTensors = tf.memory().numTensors;
    const testUnits = plan.tasks.map((tp) => unitsOf(dataset.test, tp.test, plan.unitOfClass));
    const untrained: number[] = [];
    if (resume) untrained.push(...resume.untrained);
    else {
      // the prediction rule of R[j−1][j], which FWT subtracts b_j from (see `trainRun`): with the 'seen' head the
      // units before task j never include task j's units, so b_j is 0 without evaluating
      const full: ScoreFn = (x) => network.logits(x);
      const predAt =
        cfg.head === 'all' ? await testPredictions(dataset, sortedUnion(plan.tasks.map((tp) => tp.test)), network, full, true, plan.outputs, cfg) : null;
      for (let j = 0; j < K; j++) untrained.push(predAt ? accuracyFrom(predAt, plan.tasks[j].test, testUnits[j]) : 0);
    }
    const matrix: number[][] = resume ? resume.matrix.map((r) => r.slice()) : [];
    const probs: ProbsRecord[] = resume ? cloneCheckpoint(resume).probs : [];
    const backends = resume ? resume.backends.slice() : [];
    if (backends[backends.length - 1] !== tf.getBackend()) backends.push(tf.getBackend());
    const pausePoint = pausePointOf(hooks, cfg.yieldEveryMs);

    for (let t = resume ? resume.nextTask : 0; t < K; t++) {
      await pausePoint();
      const ctx = taskContext(t, dataset, cfg, plan, network, spec, pausePoint);
      await strategy.beforeTask(ctx);
      const set = strategy.trainingSet(ctx);
      const epochs = t === 0 ? cfg.firstTaskEpochs : cfg.epochs;
      if (set && set.length > 0 && epochs > 0) {
        state.optimizer = cfg.optimizer === 'sgd' ? tf.train.sgd(cfg.lr) : tf.train.adam(cfg.lr, cfg.beta1, cfg.beta2, cfg.epsilon);
        await trainTask(ctx, strategy, state.optimizer, set, epochs, cfg, hooks, pausePoint);
        state.optimizer.dispose();
        state.optimizer = null;
      }
      await strategy.afterTask(ctx);

      const score: ScoreFn = (x) => strategy.predictScores?.(ctx, x) ?? headPrefix(network.logits(x), ctx.headWidth);
      // one prediction pass over the tasks that can score (with the 'seen' head no unit of a later task can win)
      const upto = cfg.head === 'all' ? K : t + 1;
      const predAt = await testPredictions(
        dataset,
        sortedUnion(plan.tasks.slice(0, upto).map((tp) => tp.test)),
        network,
        score,
        !strategy.predictScores,
        ctx.headWidth,
        cfg,
      );
      const row: number[] = [];
      for (let j = 0; j < K; j++) row.push(j < upto ? accuracyFrom(predAt, plan.tasks[j].test, testUnits[j]) : plan.tasks[j].test.length === 0 ? NaN : 0);
      if (cfg.probs) {
        const width = cfg.probs.softmax === 'seen' ? ctx.seen : ctx.outputs;
        const probScore: ScoreFn = (x) => strategy.predictScores?.(ctx, x) ?? headPrefix(network.logits(x), width);
        for (let j = 0; j < K; j++) {
          const tp = plan.tasks[j];
          for (const split of ['calibration', 'test'] as const) {
            const examples = split === 'test' ? tp.test : tp.calibration;
            if (examples.length === 0) continue;
            const source = split === 'test' ? dataset.test : dataset.train;
            const out = await softmaxOn(dataset, source, examples, probScore, cfg.evalBatchSize);
            probs.push({ afterTask: t, split, taskIndex: j, probs: out.probs, width: out.width, labels: unitsOf(source, examples, plan.unitOfClass) });
          }
        }
      }
      strategy.dispose();
      matrix.push(row);
      const mem = tf.memory();
      hooks.onTaskEnd?.({
        task: t,
        row: row.slice(),
        numTensors: mem.numTensors,
        baselineTensors,
        numBytes: mem.numBytes,
        ...(cfg.probs ? { probs: probs.filter((p) => p.afterTask === t) } : {}),
      });
      if (hooks.onCheckpoint) {
        hooks.onCheckpoint(
          cloneCheckpoint({
            version: 1,
            configKey,
            nextTask: t + 1,
            weights: await network.readWeights(),
            strategy: strategy.getState(),
            matrix,
            untrained,
            probs,
            backends,
            seconds: (resume?.seconds ?? 0) + (performance.now() - started) / 1000,
          }),
        );
      }
    }
    return {
      matrix,
      untrained,
      ...planSummary(plan, cfg),
      backend: tf.getBackend(),
      backends,
      seconds: (resume?.seconds ?? 0) + (performance.now() - started) / 1000,
      config: cfg,
      ...(cfg.probs ? { probs } : {}),
    };
  } finally {
    const opt = state.optimizer;
    if (opt) safeDispose(() => opt.dispose());
    safeDispose(() => strategy.dispose());
    safeDispose(() => network.dispose());
  }
}

/**
 * Predicted units of test examples `examples` (increasing, e.g. `sortedUnion`), as a table by example
 * (`predictionTable`): `plain` when the scores are the network's logits masked to `width` units, which on wasm go
 * through the fused forward pass (kernels/fused-mlp.ts); otherwise, and on every other backend, tfjs through `score`.
 * Each example's prediction depends on that example alone, so one pass serves every task and ordering that needs it.
 */
export async function testPredictions(
  dataset: TrainDataset,
  examples: Int32Array,
  network: Network,
  score: ScoreFn,
  plain: boolean,
  width: number,
  cfg: Pick<ResolvedTrainConfig, 'batchSize' | 'evalBatchSize'>,
): Promise<Int32Array> {
  const mlp = plain && (await fusedForwardApplies(tf.getBackend(), network.spec)) ? await acquireFusedMlp(network.spec, cfg.batchSize) : null;
  let pred: Int32Array;
  if (mlp) {
    try {
      mlp.setWeights(await network.readWeights({ copy: false }));
      pred = mlp.predict(dataset.test.images, imageSize(dataset), examples, width);
    } finally {
      releaseFusedMlp(mlp);
    }
  } else pred = await predictionsOn(dataset, dataset.test, examples, score, cfg.evalBatchSize);
  return predictionTable(dataset.test.labels.length, examples, pred);
}

export function taskContext(
  t: number,
  dataset: TrainDataset,
  cfg: ResolvedTrainConfig,
  plan: RunPlan,
  network: Network,
  spec: NetworkSpec,
  pausePoint: () => Promise<void>,
): TaskContext {
  const tp = plan.tasks[t];
  const seen = tp.firstUnit + tp.classes.length;
  const unitOf = (e: number): number => plan.unitOfClass[dataset.train.labels[e]];
  return {
    t,
    taskCount: plan.tasks.length,
    seenBefore: tp.firstUnit,
    seen,
    outputs: plan.outputs,
    headWidth: cfg.head === 'seen' ? seen : plan.outputs,
    network,
    dataset,
    taskSeed: tp.seed,
    evalBatchSize: cfg.evalBatchSize,
    trainExamples(u) {
      if (!(u >= 0 && u <= t)) throw new RangeError(`Task ${t} cannot see the training data of task ${u}.`);
      return plan.tasks[u].train;
    },
    unitOf,
    rng: (stream) => streamRng(tp.seed, stream),
    batch: (examples) => ({
      x: batchImages(dataset, dataset.train, examples),
      y: tf.tensor1d(Int32Array.from(examples, unitOf), 'int32'),
    }),
    async trainFeatures(examples) {
      const d = network.featureSize;
      const out = new Float32Array(examples.length * d);
      for (let at = 0; at < examples.length; at += cfg.evalBatchSize) {
        const idx = examples.subarray(at, Math.min(examples.length, at + cfg.evalBatchSize));
        const f = tf.tidy(() => network.features(batchImages(dataset, dataset.train, idx)));
        out.set((await f.data()) as Float32Array, at * d);
        f.dispose();
      }
      return out;
    },
    initialWeights: (seed) => initWeights(spec, seed),
    checkpoint: pausePoint,
  };
}

/** A training batch whose images are augmented (augment.ts) before they become a tensor; the labels of ctx.batch. */
export function augmentedBatch(
  ctx: TaskContext,
  idx: Int32Array,
  rng: DefaultRng,
  options: NonNullable<ResolvedTrainConfig['augment']>,
): { x: tf.Tensor4D; y: tf.Tensor1D } {
  const ds = imagesOnly(ctx.dataset, 'Augmentation');
  const images = augmentBatch(ds.train.images, idx, ds.shape, rng, options);
  const x = batchImages(
    ds,
    { images, labels: new Uint8Array(idx.length) },
    Int32Array.from(idx, (_, k) => k),
  );
  return { x, y: tf.tensor1d(Int32Array.from(idx, ctx.unitOf), 'int32') };
}

export async function trainTask(
  ctx: TaskContext,
  strategy: Strategy,
  optimizer: tf.Optimizer,
  set: Int32Array,
  epochs: number,
  cfg: ResolvedTrainConfig,
  hooks: TrainHooks,
  pausePoint: () => Promise<void>,
): Promise<void> {
  const rng = ctx.rng('batches');
  // its own generator: the batch order above is the same with and without augmentation
  const augmentRng: DefaultRng | null = cfg.augment ? createDefaultRng(augmentSeed(ctx.taskSeed)) : null;
  const n = set.length;
  const steps = Math.ceil(n / cfg.batchSize);
  // the fused step (kernels/fused-mlp.ts) where it applies: the same batches, its own kernels, weights resident there
  const fused = (await fusedApplies({ backend: tf.getBackend(), spec: ctx.network.spec, augment: cfg.augment, strategy }))
    ? await acquireFusedMlp(ctx.network.spec, cfg.batchSize)
    : null;
  if (fused) {
    fused.setWeights(await ctx.network.readWeights({ copy: false }));
    fused.resetOptimizer({ kind: cfg.optimizer, lr: cfg.lr, beta1: cfg.beta1, beta2: cfg.beta2, epsilon: cfg.epsilon });
  }
  // the tensors (read only off the fused path: the network writes weights set from arrays when they are read)
  const vars = fused ? [] : ctx.network.variables;
  const images = ctx.dataset.train.images;
  const size = imageSize(ctx.dataset);
  let counter = 0;
  try {
    for (let epoch = 0; epoch < epochs; epoch++) {
      const order = epochOrder(rng, set);
      for (let s = 0; s < steps; s++) {
        await pausePoint();
        counter++;
        const report = hooks.onProgress !== undefined && (counter % cfg.progressEvery === 0 || s === steps - 1);
        const idx = order.slice(s * cfg.batchSize, Math.min(n, (s + 1) * cfg.batchSize));
        if (fused) {
          fused.setBatch(images, size, idx, Int32Array.from(idx, ctx.unitOf));
          const r = fused.step(idx.length, ctx.headWidth);
          if (report && hooks.onProgress)
            hooks.onProgress({ task: ctx.t, epoch, step: s + 1, steps, loss: r.loss, accuracy: r.correct / idx.length, tasks: ctx.taskCount, epochs });
          continue;
        }
        const { x, y } = augmentRng && cfg.augment ? augmentedBatch(ctx, idx, augmentRng, cfg.augment) : ctx.batch(idx);
        const held: tf.Tensor[] = [x, y];
        try {
          const accHolder: tf.Scalar[] = [];
          const { value, grads } = tf.tidy(() =>
            tf.variableGrads(() => {
              const logits = headPrefix(ctx.network.logits(x), ctx.headWidth);
              if (report) accHolder.push(tf.keep(batchAccuracy(logits, y)));
              const ce = crossEntropy(logits, y);
              const extra = strategy.lossTerms?.(ctx, { x, labels: y, logits }) ?? null;
              return extra ? tf.add(ce, extra) : ce;
            }, vars),
          );
          held.push(value, ...accHolder, ...Object.values(grads));
          let applied = grads;
          if (strategy.adjustGradients) {
            applied = strategy.adjustGradients(ctx, grads);
            if (applied !== grads) held.push(...Object.values(applied));
          }
          optimizer.applyGradients(applied);
          strategy.afterStep?.(ctx, applied);
          if (report && hooks.onProgress) {
            const loss = (await value.data())[0];
            const accuracy = accHolder.length > 0 ? (await accHolder[0].data())[0] : NaN;
            hooks.onProgress({ task: ctx.t, epoch, step: s + 1, steps, loss, accuracy, tasks: ctx.taskCount, epochs });
          }
        } finally {
          for (const h of held) h.dispose();
        }
      }
    }
  } finally {
    if (fused) {
      // the weights go back to the network (evaluation, snapshots and the next task read them there)
      ctx.network.setWeights(fused.weights(), { copy: false });
      releaseFusedMlp(fused);
    }
  }
}
