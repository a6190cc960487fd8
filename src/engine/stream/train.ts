/**
 * One Time-lab run through the engine (docs/science.md §7; paper: [CLEAR] in docs/science.md, References §4, supplement §4): a protocol
 * (iid or streaming), a training mode and a buffer over the K buckets of a stream, giving R[i][j] = accuracy on
 * bucket j's test samples after training through bucket i, every cell (upper triangle included), and CLEAR's
 * averages of it (src/core/stream/metrics.ts).
 *
 * One label space for every bucket: a single head over all classes, no masking (domain-incremental). Per step i:
 * the training set is the buffer's B_i (src/core/stream/protocol.ts: cumulative, or Alg. 1's reservoir over the
 * buckets' training parts); a fresh Adam; `epochs` passes in seeded batches; then row i of R.
 * - finetune: the same network keeps training;
 * - scratch: the network is reset to the initial weights (the same seed each step) before training;
 * - linear: the paper's linear probe. Before step 0 a network is trained on bucket 0's training part (the feature
 *   model, standing in for the paper's MoCo pre-training on bucket 0); its penultimate features are computed once
 *   for every sample and frozen; a linear head (Glorot-initialised, seeded) is finetuned on them step by step.
 *
 * Seeds (engine seeds.ts `deriveSeed` with purpose numbers fixed here): the protocol split, the reservoir, the
 * initial weights and each step's batch order come from the run's seed alone. Tensors: after every step
 * `tf.memory().numTensors` is back at its value from before step 0 (reported to `onStepEnd`; a test checks it).
 */
import * as tf from '@tensorflow/tfjs-core';
import { createDefaultRng } from '../../core/random/default-rng';
import { accuracyByDistance, streamMetrics, type DistancePoint, type StreamMetrics, type StreamProtocol } from '../../core/stream/metrics';
import { planProtocol, trainingSets, type BufferSpec } from '../../core/stream/protocol';
import { bufferComposition } from '../../core/stream/reservoir';
import { ensureBackend } from '../backend';
import { RunControl, yieldToEventLoop } from '../control';
import { batchImages } from '../dataset';
import { ensureGradients } from '../gradients';
import { crossEntropy } from '../losses';
import { createNetwork, initWeights, type Network, type NetworkSpec } from '../models';
import { deriveSeed } from '../seeds';
import type { ImageDataset, ModelConfig } from '../types';

export type StreamMode = 'finetune' | 'scratch' | 'linear';

export interface StreamRunConfig {
  protocol: StreamProtocol;
  mode: StreamMode;
  buffer: BufferSpec;
  /** |S_t| of every bucket, in the order of the dataset's `train` split */
  bucketSizes: number[];
  seed: number;
  model?: ModelConfig;
  epochs?: number;
  lr?: number;
  batchSize?: number;
  /** iid: the training share of each bucket (default 0.7) */
  trainRatio?: number;
  evalBatchSize?: number;
  yieldEveryMs?: number;
}

export interface StreamProgress {
  /** -1 while the linear probe's feature model trains on bucket 0 */
  step: number;
  epoch: number;
  batch: number;
  batches: number;
  loss: number;
  steps: number;
  epochs: number;
}

export interface StreamStepEnd {
  step: number;
  row: number[];
  /** how many samples of each bucket the step trained on */
  composition: number[];
  numTensors: number;
  baselineTensors: number;
}

/** What a run can continue from: the state after step `nextStep − 1`. */
export interface StreamCheckpoint {
  configKey: string;
  nextStep: number;
  /** the trained network (finetune, scratch) or the linear head [W, b] */
  weights: Float32Array[];
  /** the linear probe's frozen feature model */
  featureWeights: Float32Array[] | null;
  matrix: number[][];
  compositions: number[][];
}

export interface StreamHooks {
  onProgress?: (e: StreamProgress) => void;
  onStepEnd?: (e: StreamStepEnd) => void;
  onCheckpoint?: (c: StreamCheckpoint) => void;
  resumeFrom?: StreamCheckpoint;
  control?: RunControl;
}

export interface StreamRunResult {
  matrix: number[][];
  metrics: StreamMetrics;
  byDistance: DistancePoint[];
  protocol: StreamProtocol;
  mode: StreamMode;
  buffer: BufferSpec;
  /** training samples per step */
  trainSizes: number[];
  /** test samples per bucket (column) */
  testSizes: number[];
  /** compositions[i][j]: samples of bucket j in step i's training set */
  compositions: number[][];
  backend: string;
  seconds: number;
  config: Required<Omit<StreamRunConfig, 'model'>> & { model: ModelConfig };
}

/** Purpose numbers under the run seed (seeds.ts `deriveSeed`); part of the results: never renumber. */
export const STREAM_PURPOSE = { split: 201, reservoir: 202, init: 203, featureInit: 204, head: 205, featureBatches: 206, step: 300 } as const;

export class StreamRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamRunError';
  }
}

function resolve(c: StreamRunConfig): StreamRunResult['config'] {
  return {
    protocol: c.protocol,
    mode: c.mode,
    buffer: c.buffer,
    bucketSizes: c.bucketSizes.slice(),
    seed: c.seed,
    model: c.model ?? { kind: 'mlp', hidden: [128] },
    epochs: c.epochs ?? 5,
    lr: c.lr ?? 0.001,
    batchSize: c.batchSize ?? 32,
    trainRatio: c.trainRatio ?? 0.7,
    evalBatchSize: c.evalBatchSize ?? 256,
    yieldEveryMs: c.yieldEveryMs ?? 50,
  };
}

function specOf(ds: ImageDataset, model: ModelConfig): NetworkSpec {
  // the stream's drift is made by transforming pixels (core/stream), so there are no frozen features to train a head on
  if (model.kind === 'head')
    throw new Error("The Time lab's stream drifts by transforming the images' pixels; a head on frozen features cannot follow it: train an MLP or CNN.");
  return model.kind === 'mlp'
    ? { kind: 'mlp', inputShape: ds.shape, outputs: ds.classNames.length, hidden: model.hidden ?? [128] }
    : { kind: 'cnn', inputShape: ds.shape, outputs: ds.classNames.length, filters: model.filters ?? [16, 32], dense: model.dense ?? 128 };
}

/** Glorot-uniform W [d, C] and zero b, seeded (the output layer's scheme in models.ts). */
function headInit(d: number, C: number, seed: number): Float32Array[] {
  const rng = createDefaultRng(seed);
  const limit = Math.sqrt(6 / (d + C));
  return [Float32Array.from({ length: d * C }, () => (2 * rng.random() - 1) * limit), new Float32Array(C)];
}

/** A batch source: images (x from the dataset) or frozen feature rows. */
interface Learner {
  variables: tf.Variable[];
  logits(idx: Int32Array): tf.Tensor2D;
  read(): Promise<Float32Array[]>;
  set(w: Float32Array[]): void;
  dispose(): void;
}

function imageLearner(ds: ImageDataset, net: Network): Learner {
  return {
    // read each time: weights set from arrays reach the tensors when they are read (models.ts)
    get variables() {
      return net.variables;
    },
    logits: (idx) => net.logits(batchImages(ds, ds.train, idx)),
    read: () => net.readWeights(),
    set: (w) => net.setWeights(w),
    dispose: () => net.dispose(),
  };
}

function headLearner(features: Float32Array, d: number, C: number, init: Float32Array[]): Learner {
  const [W, b] = [tf.tensor2d(init[0].slice(), [d, C]), tf.tensor1d(init[1].slice())].map((t) => {
    const v = tf.variable(t, true);
    t.dispose();
    return v;
  });
  return {
    variables: [W, b],
    logits: (idx) =>
      tf.tidy(() => {
        const rows = new Float32Array(idx.length * d);
        idx.forEach((s, k) => rows.set(features.subarray(s * d, (s + 1) * d), k * d));
        return tf.add(tf.matMul(tf.tensor2d(rows, [idx.length, d]), W), b) as tf.Tensor2D;
      }),
    read: async () => [Float32Array.from((await W.data()) as Float32Array), Float32Array.from((await b.data()) as Float32Array)],
    set: (w) => {
      tf.tidy(() => {
        W.assign(tf.tensor2d(w[0].slice(), [d, C]));
        b.assign(tf.tensor1d(w[1].slice()));
      });
    },
    dispose: () => {
      W.dispose();
      b.dispose();
    },
  };
}

async function fit(
  learner: Learner,
  labels: ArrayLike<number>,
  set: Int32Array,
  cfg: StreamRunResult['config'],
  batchSeed: number,
  report: { step: number; steps: number },
  hooks: StreamHooks,
  pause: () => Promise<void>,
): Promise<void> {
  if (set.length === 0 || cfg.epochs === 0) return;
  const opt: tf.Optimizer = tf.train.adam(cfg.lr);
  const rng = createDefaultRng(batchSeed);
  const batches = Math.ceil(set.length / cfg.batchSize);
  try {
    for (let epoch = 0; epoch < cfg.epochs; epoch++) {
      const perm = rng.permutation(set.length);
      for (let s = 0; s < batches; s++) {
        await pause();
        const idx = Int32Array.from(perm.slice(s * cfg.batchSize, Math.min(set.length, (s + 1) * cfg.batchSize)), (q) => set[q]);
        const y = tf.tensor1d(
          Int32Array.from(idx, (q) => labels[q]),
          'int32',
        );
        const last = s === batches - 1;
        const { value, grads } = tf.tidy(() => tf.variableGrads(() => crossEntropy(learner.logits(idx), y), learner.variables));
        opt.applyGradients(grads);
        const loss = last && hooks.onProgress ? (await value.data())[0] : NaN;
        tf.dispose([y, value, ...Object.values(grads)]);
        if (last) hooks.onProgress?.({ step: report.step, epoch, batch: s + 1, batches, loss, steps: report.steps, epochs: cfg.epochs });
      }
    }
  } finally {
    opt.dispose();
  }
}

async function accuracyOf(learner: Learner, labels: ArrayLike<number>, examples: Int32Array, batchSize: number): Promise<number> {
  let correct = 0;
  for (let at = 0; at < examples.length; at += batchSize) {
    const idx = examples.subarray(at, Math.min(examples.length, at + batchSize));
    const pred = tf.tidy(() => tf.argMax(learner.logits(idx), 1));
    const p = (await pred.data()) as Int32Array;
    pred.dispose();
    for (let k = 0; k < idx.length; k++) if (p[k] === labels[idx[k]]) correct++;
  }
  return correct / examples.length;
}

/** Penultimate features of every sample of the dataset's `train` split, n × d. */
async function allFeatures(ds: ImageDataset, net: Network, batchSize: number): Promise<Float32Array> {
  const n = ds.train.labels.length;
  const d = net.featureSize;
  const out = new Float32Array(n * d);
  for (let at = 0; at < n; at += batchSize) {
    const idx = Int32Array.from({ length: Math.min(batchSize, n - at) }, (_, k) => at + k);
    const f = tf.tidy(() => net.features(batchImages(ds, ds.train, idx)));
    out.set((await f.data()) as Float32Array, at * d);
    f.dispose();
  }
  return out;
}

export async function trainStream(ds: ImageDataset, config: StreamRunConfig, hooks: StreamHooks = {}): Promise<StreamRunResult> {
  const started = performance.now();
  await ensureGradients();
  await ensureBackend();
  const cfg = resolve(config);
  const total = cfg.bucketSizes.reduce((a, b) => a + b, 0);
  if (total !== ds.train.labels.length) throw new StreamRunError(`The bucket sizes add up to ${total} but the stream has ${ds.train.labels.length} samples.`);
  const K = cfg.bucketSizes.length;
  const labels = ds.train.labels;
  const plan = planProtocol(cfg.protocol, labels, cfg.bucketSizes, deriveSeed(cfg.seed, STREAM_PURPOSE.split), cfg.trainRatio);
  const sets = trainingSets(plan, cfg.buffer, deriveSeed(cfg.seed, STREAM_PURPOSE.reservoir));
  const compositionsAll = sets.map((s) => bufferComposition(s, cfg.bucketSizes));
  const configKey = JSON.stringify({ ...cfg, yieldEveryMs: undefined, evalBatchSize: undefined });
  const resume = hooks.resumeFrom;
  if (resume && resume.configKey !== configKey) throw new StreamRunError('Cannot resume: the checkpoint comes from a different run.');

  const clock = { last: performance.now() };
  const pause = async (): Promise<void> => {
    await hooks.control?.checkpoint();
    if (performance.now() - clock.last >= cfg.yieldEveryMs) {
      await yieldToEventLoop();
      clock.last = performance.now();
      await hooks.control?.checkpoint();
    }
  };

  const spec = specOf(ds, cfg.model);
  const initial = initWeights(spec, deriveSeed(cfg.seed, STREAM_PURPOSE.init));
  let learner: Learner | null = null;
  let featureWeights: Float32Array[] | null = resume?.featureWeights ?? null;
  try {
    if (cfg.mode === 'linear') {
      // the frozen feature model: trained on bucket 0's training part (or restored), features once, then released
      const fnet = createNetwork(spec, featureWeights ?? initWeights(spec, deriveSeed(cfg.seed, STREAM_PURPOSE.featureInit)));
      try {
        if (!featureWeights) {
          await fit(
            imageLearner(ds, fnet),
            labels,
            plan.train[0],
            cfg,
            deriveSeed(cfg.seed, STREAM_PURPOSE.featureBatches),
            { step: -1, steps: K },
            hooks,
            pause,
          );
          featureWeights = await fnet.readWeights();
        }
        const features = await allFeatures(ds, fnet, cfg.evalBatchSize);
        learner = headLearner(
          features,
          fnet.featureSize,
          ds.classNames.length,
          headInit(fnet.featureSize, ds.classNames.length, deriveSeed(cfg.seed, STREAM_PURPOSE.head)),
        );
      } finally {
        fnet.dispose();
      }
    } else {
      learner = imageLearner(ds, createNetwork(spec, initial));
    }
    if (resume) learner.set(resume.weights);
    const baselineTensors = tf.memory().numTensors;
    const matrix: number[][] = resume ? resume.matrix.map((r) => r.slice()) : [];
    const compositions: number[][] = resume ? resume.compositions.map((r) => r.slice()) : [];
    const net = learner;
    for (let i = resume ? resume.nextStep : 0; i < K; i++) {
      await pause();
      if (cfg.mode === 'scratch') net.set(initial);
      await fit(net, labels, sets[i], cfg, deriveSeed(deriveSeed(cfg.seed, STREAM_PURPOSE.step), i), { step: i, steps: K }, hooks, pause);
      const row: number[] = [];
      for (let j = 0; j < K; j++) row.push(await accuracyOf(net, labels, plan.test[j], cfg.evalBatchSize));
      matrix.push(row);
      compositions.push(compositionsAll[i]);
      hooks.onStepEnd?.({ step: i, row: row.slice(), composition: compositionsAll[i].slice(), numTensors: tf.memory().numTensors, baselineTensors });
      if (hooks.onCheckpoint) {
        hooks.onCheckpoint({
          configKey,
          nextStep: i + 1,
          weights: await net.read(),
          featureWeights: featureWeights ? featureWeights.map((w) => w.slice()) : null,
          matrix: matrix.map((r) => r.slice()),
          compositions: compositions.map((r) => r.slice()),
        });
      }
    }
    return {
      matrix,
      metrics: streamMetrics(matrix, cfg.protocol),
      byDistance: accuracyByDistance(matrix, cfg.protocol),
      protocol: cfg.protocol,
      mode: cfg.mode,
      buffer: cfg.buffer,
      trainSizes: sets.map((s) => s.length),
      testSizes: plan.test.map((t) => t.length),
      compositions,
      backend: tf.getBackend(),
      seconds: (performance.now() - started) / 1000,
      config: cfg,
    };
  } finally {
    learner?.dispose();
  }
}
