/**
 * `runOpenWorld`: class-incremental training with OOD detection after every step (docs/science.md §5; the OpenCIL
 * paper's Algorithms 1–2). The CIL model trains through the engine's own trainer (`trainRun`, unchanged); after each
 * task the trainer hands over a checkpoint, and before the next task it waits (`control.checkpoint()`) until that
 * step's OOD evaluation is done, so training and evaluation never interleave and the CIL numbers are a plain
 * `trainRun`'s. Every draw comes from seeds derived from `seed` by purpose, OOD set, step and detector (seeds.ts
 * `deriveSeed`), so adding a detector or a set changes no other number.
 */
import { DETECTOR_IDS, isFineTuning, type DetectorId, type HeadSettings } from '../../core/ood/detectors';
import { klmScores, klmTemplates, nnguideBank, nnguideScores, reactScores, reactThreshold, relationBank, relationScores } from '../../core/ood/feature-scores';
import { oodMetrics } from '../../core/ood/metrics';
import { OodInputError } from '../../core/ood/rows';
import { oodIndicesAtStep, oodShuffle, summarizeResults, type DetectorSummary, type StepResult } from '../../core/ood/schedule';
import { energyScores, genScores, maxLogitScores, mspScores } from '../../core/ood/scores';
import { createDefaultRng, type DefaultRng } from '../../core/random/default-rng';
import { resolveTrainConfig } from '../config';
import { RunControl, yieldToEventLoop } from '../control';
import { createNetwork, type Network, type NetworkSpec } from '../models';
import { planRun, type RunPlan } from '../plan';
import { deriveSeed } from '../seeds';
import { networkSpec, trainRun, type TrainHooks } from '../trainer';
import type { ImageDataset, ImageSplit, ProgressEvent, RunCheckpoint, TrainRunConfig, TrainRunResult } from '../types';
import { outputsOn, rowsOf, type Outputs } from './extract';
import { classifierHead, headLogitsOn, trainHead } from './heads';
import { memoryExamples } from './memory-state';
import { odinScoresOn } from './odin';
import type { OodSet } from './ood-data';

export interface OpenWorldConfig {
  /** the class-incremental run */
  train: TrainRunConfig;
  /** OOD sets at the model's input shape (ood-data.ts) */
  oodSets: OodSet[];
  detectors: DetectorId[];
  /** seed of the OOD shuffles and the detectors' draws; default train.seed */
  seed?: number;
  head?: Partial<HeadSettings>;
  maxScoreSamples?: number;
  relationBank?: number;
  nnguideShare?: number;
  nnguideK?: number;
}

/** One step's score samples of one detector (for ROC curves and histograms). */
export interface ScoreSample {
  detector: DetectorId;
  id: number[];
  ood: Record<string, number[]>;
}

export interface OpenWorldStep {
  step: number;
  steps: number;
  /** sample-weighted accuracy on the test data of tasks 0..step */
  accuracy: number;
  /** row `step` of R */
  row: number[];
  results: StepResult[];
  /** mean max-softmax per task 0..step, and per OOD set */
  confidence: { tasks: number[]; ood: Record<string, number> };
  /** per OOD set: share of its samples predicted into each task 0..step */
  assignment: Record<string, number[]>;
  samples: ScoreSample[];
  /** seconds spent per detector at this step (set-up, head training and scoring) */
  detectorSeconds: Record<string, number>;
  /** the detectors' set-up data: task `step`'s training examples and the memory's (from before the task) */
  setup: { newCount: number; oldCount: number };
}

export interface OpenWorldResult {
  steps: OpenWorldStep[];
  results: StepResult[];
  accuracy: number[];
  summary: DetectorSummary[];
  train: TrainRunResult;
  oodSets: { name: string; kind: 'near' | 'far'; count: number }[];
  seconds: { total: number; detectors: Record<string, number> };
}

export interface OpenWorldHooks {
  onProgress?: (e: ProgressEvent) => void;
  /** pause / resume / cancel, for training and evaluation alike */
  control?: RunControl;
  guard?: () => void;
  onStep?: (s: OpenWorldStep) => void;
  /** called as each detector starts at a step */
  onDetector?: (e: { step: number; detector: DetectorId }) => void;
  /**
   * Called after each step's evaluation with the trainer's checkpoint after that task (a deep copy the receiver
   * owns) and the step: stored together, they let a later run continue (`resumeFrom`) after that step.
   */
  onCheckpoint?: (c: RunCheckpoint, step: OpenWorldStep) => void;
  /**
   * Continue a run from the checkpoint after task `checkpoint.nextTask − 1`, with the steps 0..nextTask−1 it already
   * evaluated (the trainer resumes exactly, trainer.ts `resumeFrom`; every OOD draw is seeded per step, so the
   * remaining steps equal those of an uninterrupted run). The lab's store uses it after a reload.
   */
  resumeFrom?: { checkpoint: RunCheckpoint; steps: OpenWorldStep[] };
}

/** A RunControl that, besides the caller's pause / cancel, makes the trainer wait for queued evaluations. */
class GatedControl extends RunControl {
  readonly queue: (() => Promise<void>)[] = [];
  constructor(private readonly outer?: RunControl) {
    super();
  }
  override async checkpoint(): Promise<void> {
    while (this.queue.length > 0) await (this.queue.shift() as () => Promise<void>)();
    await this.outer?.checkpoint();
  }
}

/** A 32-bit hash of a name (FNV-1a), to derive per-name seeds. */
function nameHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const rngFor = (seed: number, ...parts: number[]): DefaultRng => createDefaultRng(parts.reduce((s, p) => deriveSeed(s, p), seed));
const PURPOSE = { shuffle: 101, relation: 102, nnguide: 103, head: 104 } as const;

/** Up to `max` evenly strided values. */
function strided(values: number[], max: number): number[] {
  if (values.length <= max) return values.slice();
  return Array.from({ length: max }, (_, i) => values[Math.floor((i * values.length) / max)]);
}

/** `k` distinct positions of 0..n−1 (seeded), ascending. */
function sampleRows(rng: DefaultRng, n: number, k: number): number[] {
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  return rng
    .permutation(n)
    .slice(0, k)
    .sort((a, b) => a - b);
}

const concatIdx = (parts: ArrayLike<number>[]): Int32Array => Int32Array.from(parts.flatMap((p) => Array.from(p)));

/**
 * Step t (0-based, T steps), with the model after task t and the logits of the classes seen:
 * - ID = the test data of tasks 0..t; OOD = the first ⌊|OOD|·(t+1)/T⌋ of each OOD set's fixed seeded shuffle;
 * - set-up data (ReAct, KLM, Relation, NNGuide, the fine-tuned heads) = task t's training data + the memory as it was
 *   before task t, never dropped old data; Relation's bank a seeded sample of at most `relationBank` (1000) set-up
 *   rows, NNGuide's a seeded ~1% (`nnguideShare`, at least 1 row);
 * - per detector and OOD set: AUROC, FPR@95, AUPR-in, AUPR-out (ID positive; src/core/ood/metrics.ts);
 * - accuracy on the ID test data of tasks 0..t by the trainer's prediction rule (NME for iCaRL/NCM; the OOD scores
 *   use the network's logits);
 * - for the charts: mean max-softmax per task and OOD set (paper Fig. 1b), the share of each OOD set's samples whose
 *   arg-max class is in each task (Fig. 1c), and up to `maxScoreSamples` (2000) ID and OOD scores per detector, set
 *   and step (evenly strided) for ROC curves and histograms.
 */
export async function runOpenWorld(dataset: ImageDataset, config: OpenWorldConfig, hooks: OpenWorldHooks = {}): Promise<OpenWorldResult> {
  const started = performance.now();
  const detectors = [...new Set(config.detectors)];
  if (detectors.length === 0) throw new OodInputError('Choose at least one detector.');
  for (const d of detectors)
    if (!(DETECTOR_IDS as readonly string[]).includes(d)) throw new OodInputError(`Unknown detector "${d}": use ${DETECTOR_IDS.join(', ')}.`);
  if (config.oodSets.length === 0) throw new OodInputError('Choose at least one OOD set.');
  const names = config.oodSets.map((s) => s.name);
  if (new Set(names).size !== names.length) throw new OodInputError('Two OOD sets have the same name.');
  const size = dataset.shape[0] * dataset.shape[1] * dataset.shape[2];
  for (const s of config.oodSets) {
    if (s.split.images.length !== s.split.labels.length * size)
      throw new OodInputError(`OOD set "${s.name}" is not at the model's input shape ${dataset.shape.join('×')}.`);
  }
  const cfg = resolveTrainConfig(config.train);
  const plan = planRun(dataset, cfg);
  const spec = networkSpec(dataset, cfg, plan.outputs);
  const T = plan.tasks.length;
  const seed = config.seed ?? cfg.seed;
  const shuffles = config.oodSets.map((s) => oodShuffle(s.split.labels.length, deriveSeed(seed, PURPOSE.shuffle + nameHash(s.name))));
  const gate = new GatedControl(hooks.control);
  const resume = hooks.resumeFrom;
  if (resume && resume.steps.length !== resume.checkpoint.nextTask)
    throw new OodInputError(`Cannot resume: the checkpoint is after task ${resume.checkpoint.nextTask} but ${resume.steps.length} steps are given.`);
  const steps: OpenWorldStep[] = resume ? resume.steps.slice() : [];
  const detectorTotals: Record<string, number> = Object.fromEntries(detectors.map((d) => [d, 0]));
  for (const st of steps) for (const [d, x] of Object.entries(st.detectorSeconds)) detectorTotals[d] = (detectorTotals[d] ?? 0) + x;
  // the memory before the next task = the strategy state of the checkpoint resumed from
  let previousState: RunCheckpoint['strategy'] | undefined = resume?.checkpoint.strategy;
  let lastYield = performance.now();
  const pausePoint = async (): Promise<void> => {
    await hooks.control?.checkpoint();
    hooks.guard?.();
    if (performance.now() - lastYield > 50) {
      await yieldToEventLoop();
      lastYield = performance.now();
    }
  };
  const testCounts = plan.tasks.map((tp) => tp.test.length);

  const onCheckpoint = (c: RunCheckpoint): void => {
    const t = c.nextTask - 1;
    const memory = memoryExamples(cfg.strategy, previousState);
    previousState = c.strategy;
    gate.queue.push(async () => {
      const step = await evaluateStep({
        dataset,
        config,
        detectors,
        plan,
        spec,
        t,
        T,
        weights: c.weights,
        row: c.matrix[t],
        memory,
        shuffles,
        seed,
        testCounts,
        hooks,
        pausePoint,
      });
      for (const [d, s] of Object.entries(step.detectorSeconds)) detectorTotals[d] += s;
      steps.push(step);
      hooks.onStep?.(step);
      hooks.onCheckpoint?.(c, step);
    });
  };
  const trainHooks: TrainHooks = {
    onProgress: hooks.onProgress,
    control: gate,
    guard: hooks.guard,
    onCheckpoint,
    ...(resume ? { resumeFrom: resume.checkpoint } : {}),
  };
  const train = await trainRun(dataset, config.train, trainHooks);
  await gate.checkpoint(); // the last step's evaluation
  const results = steps.flatMap((s) => s.results);
  return {
    steps,
    results,
    accuracy: steps.map((s) => s.accuracy),
    summary: summarizeResults(results),
    train,
    oodSets: config.oodSets.map((s) => ({ name: s.name, kind: s.kind, count: s.split.labels.length })),
    seconds: { total: (performance.now() - started) / 1000, detectors: detectorTotals },
  };
}

interface StepInput {
  dataset: ImageDataset;
  config: OpenWorldConfig;
  detectors: DetectorId[];
  plan: RunPlan;
  spec: NetworkSpec;
  t: number;
  T: number;
  weights: Float32Array[];
  row: number[];
  memory: Int32Array;
  shuffles: number[][];
  seed: number;
  testCounts: number[];
  hooks: OpenWorldHooks;
  pausePoint: () => Promise<void>;
}

const FEATURE_DETECTORS = new Set<DetectorId>(['react', 'relation', 'nnguide']);
const SETUP_DETECTORS = new Set<DetectorId>(['react', 'klm', 'relation', 'nnguide']);

async function evaluateStep(s: StepInput): Promise<OpenWorldStep> {
  const { dataset: ds, config, plan, t, T } = s;
  const tp = plan.tasks[t];
  const width = tp.firstUnit + tp.classes.length;
  const network = createNetwork(s.spec, s.weights, { trainable: false });
  const maxSamples = config.maxScoreSamples ?? 2000;
  const needFeatures = s.detectors.some((x) => FEATURE_DETECTORS.has(x));
  const needSetup = s.detectors.some((x) => SETUP_DETECTORS.has(x));
  try {
    // ID: the test data of tasks 0..t, with the task of each row
    const idExamples = concatIdx(plan.tasks.slice(0, t + 1).map((p) => p.test));
    const idTask = Int32Array.from(plan.tasks.slice(0, t + 1).flatMap((p, j) => Array.from(p.test, () => j)));
    const id = await outputsOn(network, ds, ds.test, idExamples, width, { features: needFeatures });
    await s.pausePoint();
    // OOD: a growing prefix of each set's fixed shuffle
    const oodIdx = s.shuffles.map((sh) => oodIndicesAtStep(sh, t, T));
    const ood: Outputs[] = [];
    for (let k = 0; k < config.oodSets.length; k++) {
      ood.push(await outputsOn(network, ds, config.oodSets[k].split, oodIdx[k], width, { features: needFeatures }));
      await s.pausePoint();
    }
    // set-up data: task t's training data + the memory from before task t
    const newExamples = tp.train;
    const oldExamples = s.memory;
    const unitOf = (e: number) => plan.unitOfClass[ds.train.labels[e]];
    const setupExamples = concatIdx([newExamples, oldExamples]);
    const setup = needSetup ? await outputsOn(network, ds, ds.train, setupExamples, width, { features: needFeatures }) : null;

    const rows = (o: Outputs) => rowsOf(o.logits, o.n, width);
    const unitTask = new Int32Array(width);
    plan.tasks.slice(0, t + 1).forEach((p, j) => p.classes.forEach((_, i) => (unitTask[p.firstUnit + i] = j)));

    // charts: confidence per task and per OOD set, OOD assignment per task
    const idMsp = id.n > 0 ? mspScores(rows(id)) : [];
    const taskConf = Array.from({ length: t + 1 }, (_, j) => {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < id.n; i++) if (idTask[i] === j) ((sum += idMsp[i]), n++);
      return n > 0 ? sum / n : NaN;
    });
    const oodConf: Record<string, number> = {};
    const assignment: Record<string, number[]> = {};
    config.oodSets.forEach((set, k) => {
      const o = ood[k];
      const share = new Array<number>(t + 1).fill(0);
      if (o.n === 0) {
        oodConf[set.name] = NaN;
        assignment[set.name] = share;
        return;
      }
      const r = rows(o);
      oodConf[set.name] = mspScores(r).reduce((a, b) => a + b, 0) / o.n;
      for (const z of r) {
        let arg = 0;
        for (let u = 1; u < width; u++) if (z[u] > z[arg]) arg = u;
        share[unitTask[arg]]++;
      }
      assignment[set.name] = share.map((c) => c / o.n);
    });

    const results: StepResult[] = [];
    const samples: ScoreSample[] = [];
    const detectorSeconds: Record<string, number> = {};
    for (const det of s.detectors) {
      s.hooks.onDetector?.({ step: t, detector: det });
      const t0 = performance.now();
      const scoreOf = await scorer(det, s, network, width, id, ood, setup, newExamples, oldExamples, unitOf);
      const idScores = await scoreOf(-1);
      const sample: ScoreSample = { detector: det, id: strided(idScores, maxSamples), ood: {} };
      for (let k = 0; k < config.oodSets.length; k++) {
        const set = config.oodSets[k];
        if (ood[k].n === 0) continue; // a set too small for this step (⌊n(t+1)/T⌋ = 0)
        const oodScores = await scoreOf(k);
        sample.ood[set.name] = strided(oodScores, maxSamples);
        results.push({ step: t, detector: det, oodSet: set.name, ...oodMetrics(idScores, oodScores), idCount: idScores.length, oodCount: oodScores.length });
        await s.pausePoint();
      }
      samples.push(sample);
      detectorSeconds[det] = (performance.now() - t0) / 1000;
    }
    const n = s.testCounts.slice(0, t + 1);
    const accuracy = n.reduce((a, c, j) => a + s.row[j] * c, 0) / n.reduce((a, b) => a + b, 0);
    return {
      step: t,
      steps: T,
      accuracy,
      row: s.row.slice(),
      results,
      confidence: { tasks: taskConf, ood: oodConf },
      assignment,
      samples,
      detectorSeconds,
      setup: { newCount: newExamples.length, oldCount: oldExamples.length },
    };
  } finally {
    network.dispose();
  }
}

/** The detector's scores of the ID rows (k = −1) or of OOD set k, after its set-up at this step. */
async function scorer(
  det: DetectorId,
  s: StepInput,
  network: Network,
  width: number,
  id: Outputs,
  ood: Outputs[],
  setup: Outputs | null,
  newExamples: Int32Array,
  oldExamples: Int32Array,
  unitOf: (e: number) => number,
): Promise<(k: number) => Promise<number[]>> {
  const { dataset: ds, config, t } = s;
  const d = network.featureSize;
  const out = (k: number) => (k < 0 ? id : ood[k]);
  const logits = (k: number) => rowsOf(out(k).logits, out(k).n, width);
  const feats = (o: Outputs) => rowsOf(o.features, o.n, d);
  const idExamples = concatIdx(s.plan.tasks.slice(0, t + 1).map((p) => p.test));
  const oodIdx = s.shuffles.map((sh) => oodIndicesAtStep(sh, t, s.T));
  const splitOf = (k: number): [ImageSplit, ArrayLike<number>] => (k < 0 ? [ds.test, idExamples] : [config.oodSets[k].split, oodIdx[k]]);
  switch (det) {
    case 'msp':
      return async (k) => mspScores(logits(k));
    case 'maxlogit':
      return async (k) => maxLogitScores(logits(k));
    case 'energy':
      return async (k) => energyScores(logits(k));
    case 'gen':
      return async (k) => genScores(logits(k));
    case 'odin':
      return async (k) => {
        const [split, idx] = splitOf(k);
        return odinScoresOn(network, ds, split, idx, width);
      };
    case 'react': {
      const su = setup as Outputs;
      const clip = reactThreshold(feats(su));
      const layer = classifierHead(s.weights, d, s.plan.outputs, width);
      const lin = { weights: layer.W, bias: layer.b, inDim: d, outDim: width };
      return async (k) => reactScores(feats(out(k)), lin, clip);
    }
    case 'klm': {
      const su = setup as Outputs;
      const templates = klmTemplates(rowsOf(su.logits, su.n, width));
      return async (k) => klmScores(logits(k), templates);
    }
    case 'relation': {
      const su = setup as Outputs;
      const pick = sampleRows(rngFor(s.seed, PURPOSE.relation, t), su.n, config.relationBank ?? 1000);
      const f = feats(su);
      const z = rowsOf(su.logits, su.n, width);
      const bank = relationBank(
        pick.map((i) => f[i]),
        pick.map((i) => z[i]),
      );
      return async (k) => relationScores(feats(out(k)), logits(k), bank);
    }
    case 'nnguide': {
      const su = setup as Outputs;
      const size = Math.max(1, Math.ceil((config.nnguideShare ?? 0.01) * su.n));
      const pick = sampleRows(rngFor(s.seed, PURPOSE.nnguide, t), su.n, size);
      const f = feats(su);
      const z = rowsOf(su.logits, su.n, width);
      const bank = nnguideBank(
        pick.map((i) => f[i]),
        pick.map((i) => z[i]),
      );
      return async (k) => nnguideScores(feats(out(k)), logits(k), bank, config.nnguideK ?? 100);
    }
    default: {
      if (!isFineTuning(det)) throw new OodInputError(`Unknown detector "${det}".`);
      const initial = classifierHead(s.weights, d, s.plan.outputs, width);
      const head = await trainHead(
        det,
        {
          network,
          ds,
          split: ds.train,
          newExamples,
          newUnits: Int32Array.from(newExamples, unitOf),
          oldExamples,
          oldUnits: Int32Array.from(oldExamples, unitOf),
        },
        initial,
        rngFor(s.seed, PURPOSE.head, t, nameHash(det)),
        config.head,
        s.pausePoint,
      );
      const energyScored = det.startsWith('ber');
      return async (k) => {
        const [split, idx] = splitOf(k);
        const z = rowsOf(await headLogitsOn(network, head, ds, split, idx), idx.length, width);
        return energyScored ? energyScores(z) : mspScores(z);
      };
    }
  }
}
