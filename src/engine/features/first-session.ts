/**
 * First-session adaptation of the pre-trained methods (docs/science.md §9): RanPAC and APER adapt the backbone on the
 * first task, then freeze it and build their classifier on the adapted features. Frozen feature vectors cannot adapt
 * a ViT, so the stand-in is one ReLU layer over the features (`firstSession` units), trained with a softmax output on
 * the first task's training rows (the experiment's epochs, learning rate and batch size; Adam; initial weights and
 * batch order from the seed), then frozen: the method (SimpleCIL, NCM, RanPAC) runs on its activations.
 *
 * The state after a step then depends on the classes of the first task (what the layer learnt) and on the set of
 * classes seen, so the ground truth groups the orderings by first task, adapts once per group and assembles each
 * group's orderings from its own class-set cache (`runPtmTruth`): exact, and the adaptations are the only training.
 * Without adaptation `runPtmTruth` is `preparePtm` + `runPtmGroundTruth`, the path every other caller had before.
 *
 * The layer trains with the fused WebAssembly kernels (IEEE f32x4 only), so the same seed gives the same features bit
 * for bit in Node and every browser.
 */
import { rowsOf, type FeatureSet } from '../../core/features/feature-set';
import type { Ordering } from '../../core/orderings/types';
import { firstSessionWidth, ptmMethodLabel, type PtmStrategy } from '../../core/ptm/defaults';
import { preparePtm, runPtmGroundTruth, type PtmGroundTruthHooks, type PtmGroundTruthSummary, type PtmRunRecord } from '../../core/ptm/ground-truth';
import { PtmInputError } from '../../core/ptm/problem';
import { createDefaultRng } from '../../core/random/default-rng';
import { grouped } from '../../core/config/limits';
import { yieldToEventLoop } from '../control';
import { epochOrder } from '../dataset';
import { FusedMlp } from '../kernels/fused-mlp';
import { initWeights, type NetworkSpec } from '../models';
import { deriveSeed, STREAM } from '../seeds';
import { pickFeatureRows } from './source-set';

/** How the first-session layer trains: the experiment's training settings (Adam). */
export interface FirstSessionTraining {
  epochs: number;
  lr: number;
  batchSize: number;
  beta1: number;
  beta2: number;
  epsilon: number;
}

/**
 * The features of `set` through a `width`-unit ReLU layer trained on the training rows of `firstTask` (label ids of
 * the set) as the header says: every row of the set, in its order, with its label and split.
 */
export async function adaptOnFirstTask(
  set: FeatureSet,
  firstTask: readonly number[],
  width: number,
  training: FirstSessionTraining,
  seed: number,
  checkpoint?: () => Promise<void>,
): Promise<FeatureSet> {
  const classes = [...new Set(firstTask)].sort((a, b) => a - b);
  const unit = new Int32Array(set.classNames.length).fill(-1);
  classes.forEach((c, u) => (unit[c] = u));
  const train = rowsOf(set, 0, classes);
  if (train.length === 0) throw new PtmInputError(`The first task (${classes.map((c) => set.classNames[c]).join(', ')}) has no training rows to adapt on.`);
  const spec: NetworkSpec = { kind: 'mlp', inputShape: [1, 1, set.d], hidden: [width], outputs: classes.length };
  const mlp = await FusedMlp.create(spec, training.batchSize);
  if (!mlp) throw new PtmInputError('First-session adaptation trains with WebAssembly SIMD, which this browser or runtime does not have.');
  mlp.setWeights(initWeights(spec, deriveSeed(seed, STREAM.init)));
  mlp.resetOptimizer({ kind: 'adam', lr: training.lr, beta1: training.beta1, beta2: training.beta2, epsilon: training.epsilon });
  const rng = createDefaultRng(deriveSeed(seed, STREAM.firstSession));
  for (let epoch = 0; epoch < training.epochs; epoch++) {
    const order = epochOrder(rng, train);
    for (let at = 0; at < order.length; at += training.batchSize) {
      if (checkpoint) await checkpoint();
      const idx = order.subarray(at, Math.min(order.length, at + training.batchSize));
      mlp.setBatch(
        set.features,
        set.d,
        idx,
        Int32Array.from(idx, (r) => unit[set.labels[r]]),
      );
      mlp.step(idx.length, classes.length);
    }
    await yieldToEventLoop();
  }
  const all = Int32Array.from({ length: set.n }, (_, i) => i);
  return { features: mlp.hidden(set.features, set.d, all), n: set.n, d: width, labels: set.labels, split: set.split, classNames: set.classNames };
}

export interface PtmTruthInput {
  /** the feature set (label ids = the dataset's class indices) */
  set: FeatureSet;
  /** the experiment's classes (label ids, the experiment's order: position p ↔ classes[p]) */
  classes: readonly number[];
  strategy: PtmStrategy;
  seed: number;
  trainPerClass?: number;
  testPerClass?: number;
  taskSizes: readonly number[];
  /** over class positions */
  orderings: Iterable<Ordering>;
  total?: number;
  /** the first-session layer's training (used when the strategy adapts) */
  training: FirstSessionTraining;
  cacheBytes?: number;
}

export interface PtmTruthResult {
  summary: PtmGroundTruthSummary;
  /** seconds spent setting the method up (and adapting, per first task) */
  setupSeconds: number;
  /** first tasks adapted on (0 without adaptation) */
  adaptations: number;
}

/**
 * The ground truth of a pre-trained method over `orderings` (docs/science.md §9), with or without first-session
 * adaptation. Records reach `hooks.onRecord` with their index in `orderings`; with adaptation they come grouped by
 * first task, not in that order.
 */
export async function runPtmTruth(input: PtmTruthInput, hooks: PtmGroundTruthHooks = {}): Promise<PtmTruthResult> {
  const width = firstSessionWidth(input.strategy);
  const base = { classes: input.classes, seed: input.seed, trainPerClass: input.trainPerClass, testPerClass: input.testPerClass };
  if (width === 0) {
    const t0 = performance.now();
    const evaluator = preparePtm({ ...base, features: input.set, strategy: input.strategy });
    const setupSeconds = (performance.now() - t0) / 1000;
    const summary = await runPtmGroundTruth(
      { evaluator, taskSizes: input.taskSizes, orderings: input.orderings, total: input.total, cacheBytes: input.cacheBytes },
      hooks,
    );
    return { summary, setupSeconds, adaptations: 0 };
  }
  // the rows the method uses, picked once: the layer adapts on the same training rows the classifier sees
  const picked = pickFeatureRows(input.set, { classes: input.classes, trainPerClass: input.trainPerClass ?? null, testPerClass: input.testPerClass ?? null });
  const plain = { id: input.strategy.id, options: { ...input.strategy.options, firstSession: 0 } } as PtmStrategy;
  const groups = new Map<string, { first: number[]; orderings: Ordering[]; index: number[] }>();
  let k = 0;
  for (const o of input.orderings) {
    const first = [...o[0]].sort((a, b) => a - b);
    const key = first.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { first, orderings: [], index: [] }));
    g.orderings.push(o);
    g.index.push(k++);
  }
  let setupSeconds = 0;
  let done = 0;
  const total = { computed: 0, hits: 0, evictions: 0, peakEntries: 0, maxEntries: 0 };
  let stateRule = '';
  const notes = new Set<string>();
  for (const g of groups.values()) {
    const t0 = performance.now();
    const adapted = await adaptOnFirstTask(
      picked,
      g.first.map((p) => input.classes[p]),
      width,
      input.training,
      input.seed,
      hooks.checkpoint ? async () => void (await hooks.checkpoint!()) : undefined,
    );
    const evaluator = preparePtm({ classes: input.classes, seed: input.seed, features: adapted, strategy: plain });
    setupSeconds += (performance.now() - t0) / 1000;
    const offset = done;
    const s = await runPtmGroundTruth(
      { evaluator, taskSizes: input.taskSizes, orderings: g.orderings, total: g.orderings.length, cacheBytes: input.cacheBytes },
      {
        ...hooks,
        onRecord: (r: PtmRunRecord, i: number) => hooks.onRecord?.(r, g.index[i]),
        onProgress: hooks.onProgress ? (p) => hooks.onProgress!({ done: offset + p.done, total: input.total, states: total.computed + p.states }) : undefined,
      },
    );
    done += s.orderings;
    total.computed += s.cache.computed;
    total.hits += s.cache.hits;
    total.evictions += s.cache.evictions;
    total.peakEntries = Math.max(total.peakEntries, s.cache.peakEntries);
    total.maxEntries = s.cache.maxEntries;
    stateRule = s.stateRule;
    s.notes.forEach((n) => notes.add(n));
  }
  const n = groups.size;
  return {
    summary: {
      method: ptmMethodLabel(input.strategy),
      orderings: done,
      stateRule: `the classes of the first task (the adapted layer) and ${stateRule}`,
      cache: total,
      path: `exact by first task and class set: ${grouped(total.computed)} state${total.computed === 1 ? '' : 's'} for ${grouped(done)} ordering${done === 1 ? '' : 's'} (a ${width}-unit layer adapted on each of ${grouped(n)} first task${n === 1 ? '' : 's'})`,
      notes: [...notes],
    },
    setupSeconds,
    adaptations: n,
  };
}
