/**
 * `cil-lab run`: one training run headless (CLI). Loads a built-in dataset (public/data/<id>/, made by
 * `npm run prepare-data`) or the user's files at PATH, builds the ordering (`--order`, or `--protocol rs --seeds`,
 * or the classes in ascending order), trains with the chosen strategy on the wasm (default in Node) or cpu backend,
 * and prints `{matrix, metrics, backend, seconds, order, tasks, …}` as JSON. With several RS seeds it prints
 * `{runs: [...]}`, one entry per ordering.
 *
 * `--augment on|off`: seeded augmentation of the training batches (augment.ts, AUGMENT_DEFAULTS); on by default
 * for emoji (its test images are renderings by artists the model never trains on), off for every other dataset.
 *
 * Errors that are the user's to fix are `RunUsageError`s (the CLI exits with 2 and prints the message).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { getClassList } from '../core/classes/builtin';
import { UINT32_MAX } from '../core/config/checker';
import { BUILTIN_DATASET_REFS, datasetClassListId } from '../core/config/defaults';
import { CONFIG_LIMITS, grouped, modelSize } from '../core/config/limits';
import type { BuiltinDatasetRef } from '../core/config/types';
import { HEAD_TRAINING } from '../core/config/sections/features';
import { allMetrics } from '../core/metrics/index';
import { countOrderings, formatOmega } from '../core/orderings/count';
import { enumerateOrderings } from '../core/orderings/enumerate';
import { splitIntoTasks } from '../core/orderings/key';
import { sampleOrderingsByShuffle } from '../core/orderings/sample';
import { planPrefixes } from '../core/ground-truth/prefix-plan';
import { GROUND_TRUTH_SETTINGS } from '../core/labs/ground-truth/settings';
import { rsClassOrder } from '../core/protocols/rs';
import { createDefaultRng } from '../core/random/default-rng';
import { BUILTIN_DATASET_IDS } from '../data/registry';
import { parseUserFiles } from '../data/parsers/index';
import { STRATEGY_DEFAULTS, STRATEGY_IDS, type StrategyId } from '../engine/defaults';
import { subsetPerClass } from '../engine/dataset';
import { trainShared, type SharedProgress } from '../engine/shared-train';
import { trainRun } from '../engine/trainer';
import { featureDatasetOf } from '../engine/features/dataset';
import type { ImageDataset, ImageSplit, TrainDataset, TrainRunConfig, TrainRunResult } from '../engine/types';
import { TRAINER_DEFAULTS } from '../engine/defaults';
import { headBar, type HeadBar } from '../engine/features/head-bar';
import type { FeatureSet } from '../core/features/feature-set';
import { augmentsByDefault, runConfigOf, type RunSettings } from '../engine/run-config';
import { backendArg, intArg, intListArg, numberArg, rangeListArg, str, taskSizesArg, UsageError } from './args';
import { selectCliBackend } from './backend';
import { seedListArg } from './seeds';
import { initFlag, strategyOptionsFlag } from './config-args';
import { loadBuiltinImages, readInputFiles } from './inputs';
import { checkAsLink, TRAINING_FLAGS } from './link-check';
import { featureSetFrom, parseFeatureSource, perClassArg, readFeatureFile, type FeatureInfo, type FeatureSourceArg } from './features';
import { featuresRunCommand } from './features-run';
import { SUMMARY_FLAGS } from './features-summary';
import { isPtmStrategyId, PTM_STRATEGY_IDS } from '../core/ptm/defaults';
import { classesWithRows } from '../core/features/test-split';

export class RunUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunUsageError';
  }
}

type Values = Record<string, string | boolean | undefined>;

/** The run's epochs, first-task epochs and the like: at least 1 (0 epochs would report an untrained model). */
const int = (v: Values, k: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number | undefined => intArg(str(v, k), k, min, max);

/** Stratified seeded split of a train-only user dataset: 20% of each class become test data. */
function splitTrainTest(images: ImageSplit, imageSize: number, numClasses: number): { train: ImageSplit; test: ImageSplit } {
  const rng = createDefaultRng(0);
  const isTest = new Uint8Array(images.labels.length);
  for (let c = 0; c < numClasses; c++) {
    const idx: number[] = [];
    for (let i = 0; i < images.labels.length; i++) if (images.labels[i] === c) idx.push(i);
    const perm = rng.permutation(idx.length);
    const nTest = Math.round(0.2 * idx.length);
    for (let k = 0; k < nTest; k++) isTest[idx[perm[k]]] = 1;
  }
  const take = (flag: number): ImageSplit => {
    const keep: number[] = [];
    isTest.forEach((f, i) => f === flag && keep.push(i));
    const out = new Uint8Array(keep.length * imageSize);
    keep.forEach((i, k) => out.set(images.images.subarray(i * imageSize, (i + 1) * imageSize), k * imageSize));
    return { images: out, labels: Int32Array.from(keep, (i) => images.labels[i]) };
  };
  return { train: take(0), test: take(1) };
}

/** The user's files at PATH (a file, or a directory whose files belong together), each read with a size bound. */
export async function loadUserData(path: string, notes: string[]): Promise<ImageDataset> {
  if (!statSync(path, { throwIfNoEntry: false }))
    throw new RunUsageError(`--dataset "${path}" is neither a built-in dataset (${BUILTIN_DATASET_IDS.join(', ')}) nor a readable file or directory.`);
  const named = readInputFiles(path, 'the --dataset file', CONFIG_LIMITS.datasetBytes);
  if (named.length === 0) throw new RunUsageError(`--dataset "${path}" is a folder without dataset files (IDX or CIFAR).`);
  if (named.some((f) => /\.zip$/i.test(f.name))) {
    throw new RunUsageError('A .zip of images needs an image decoder, which the command line does not have: load it in the app, or give IDX or CIFAR files.');
  }
  let parsed;
  try {
    parsed = await parseUserFiles(named);
  } catch (e) {
    throw new RunUsageError((e as Error).message);
  }
  const shape = parsed.train.shape;
  const size = shape[0] * shape[1] * shape[2];
  let maxLabel = 0;
  for (const split of [parsed.train, parsed.test]) if (split) for (const y of split.labels) maxLabel = Math.max(maxLabel, y);
  const classNames = parsed.train.classNames ?? Array.from({ length: maxLabel + 1 }, (_, k) => `class ${k}`);
  let train: ImageSplit = { images: parsed.train.images, labels: parsed.train.labels };
  let test: ImageSplit;
  if (parsed.test) test = { images: parsed.test.images, labels: parsed.test.labels };
  else {
    ({ train, test } = splitTrainTest(train, size, classNames.length));
    notes.push('the files have no test split: 20% of each class (numpy default_rng(0)) is held out as test data');
  }
  return { shape, classNames, train, test };
}

/** The orderings to run: --order, or RS with --seeds, or the classes in ascending order. */
function orderings(v: Values, classes: number[]): { label: string; order: number[] }[] {
  const order = intListArg(str(v, 'order'), 'order');
  const protocol = str(v, 'protocol');
  if (order && protocol) throw new RunUsageError('Give either --order or --protocol, not both.');
  if (order) {
    const want = [...classes].sort((a, b) => a - b).join(',');
    if ([...order].sort((a, b) => a - b).join(',') !== want) {
      throw new RunUsageError(`--order must list each class of the run once (${classes.length} classes: ${classes.join(',')}); got ${order.join(',')}.`);
    }
    return [{ label: 'given order', order }];
  }
  if (protocol) {
    if (protocol !== 'rs') {
      throw new RunUsageError(`run supports --protocol rs; for ${protocol} orderings run "cil-lab orders … --protocol ${protocol}" and pass one with --order.`);
    }
    const seedsText = str(v, 'seeds');
    const seeds = seedsText === undefined ? [1993] : seedListArg(seedsText, 'seeds', CONFIG_LIMITS.seeds);
    return seeds.map((s) => ({ label: `RS seed ${s}`, order: rsClassOrder(s, classes.length).map((i) => classes[i]) }));
  }
  return [{ label: 'ascending', order: classes.slice() }];
}

/** The Ground-truth lab's budget and sample seed (its table): `--orderings N` and `--sample-seed` take their bounds. */
const { budget: BUDGET, sampleSeed: SAMPLE_SEED } = GROUND_TRUTH_SETTINGS;

/**
 * `--orderings all` (every ordering, when there are at most `--limit`, default 5000) or `--orderings N` (a seeded
 * uniform sample of N distinct orderings, `--sample-seed`, default 0): a ground truth from the command line.
 * Orderings are over the positions of `classes`, mapped to the dataset's labels.
 */
function manyOrderings(v: Values, classes: number[], sizes: number[]): { label: string; order: number[] }[] | null {
  const arg = str(v, 'orderings');
  if (arg === undefined) return null;
  if (str(v, 'order') !== undefined || str(v, 'protocol') !== undefined) throw new RunUsageError('Give one of --orderings, --order or --protocol.');
  const omega = countOrderings(sizes);
  const toClasses = (tasks: number[][]): number[] => tasks.flat().map((i) => classes[i]);
  if (arg === 'all') {
    const limit = int(v, 'limit', 1, CONFIG_LIMITS.groundTruthBudget) ?? 5000;
    if (omega > BigInt(limit)) {
      throw new RunUsageError(
        `There are ${omega} orderings (${formatOmega(omega)}), more than --limit ${limit}: give --orderings N to train a seeded uniform sample of N (with --sample-seed S), or raise --limit.`,
      );
    }
    return Array.from(enumerateOrderings(sizes), (tasks, i) => ({ label: `ordering ${i}`, order: toClasses(tasks) }));
  }
  if (!/^\d+$/.test(arg.trim())) throw new RunUsageError(`--orderings takes "all" or a number of orderings to sample; got "${arg.slice(0, 40)}".`);
  const n = intArg(arg, 'orderings', BUDGET.min, BUDGET.max) as number;
  if (BigInt(n) > omega) throw new RunUsageError(`--orderings ${n}: there are only ${omega} orderings; use --orderings all.`);
  const seed = int(v, 'sample-seed', SAMPLE_SEED.min, SAMPLE_SEED.max) ?? SAMPLE_SEED.default;
  return sampleOrderingsByShuffle(sizes, n, seed).map((tasks, i) => ({ label: `sample ${i} (seed ${seed})`, order: toClasses(tasks) }));
}

function strategyOptions(v: Values, strategy: StrategyId): Record<string, number | string> {
  const out: Record<string, number | string> = strategyOptionsFlag(v, strategy);
  const memory = int(v, 'memory', 1, CONFIG_LIMITS.strategyExamples);
  if (memory !== undefined) {
    if (!('memory' in STRATEGY_DEFAULTS[strategy])) {
      const withMemory = STRATEGY_IDS.filter((s) => 'memory' in STRATEGY_DEFAULTS[s]);
      throw new RunUsageError(`--memory applies to ${withMemory.join(', ')}, not ${strategy}.`);
    }
    out.memory = memory;
  }
  return out;
}

/** `--augment on|off`; without it, on for the emoji dataset only. */
export function augmentFor(v: Values, datasetArg: string): boolean {
  const s = str(v, 'augment');
  if (s === undefined) return augmentsByDefault(datasetArg);
  const t = s.trim().toLowerCase();
  if (t === 'on' || t === 'true' || t === 'yes' || t === '1') return true;
  if (t === 'off' || t === 'false' || t === 'no' || t === '0') return false;
  throw new RunUsageError(`--augment must be on or off; got "${s}".`);
}

/** What a caller may add to each run: recorded softmax outputs (CPCF), and extra report fields from the result. */
export interface RunExtras {
  probs?: TrainRunConfig['probs'];
  report?: (result: Awaited<ReturnType<typeof trainRun>>) => Record<string, unknown>;
}

/** `--head seen|all`: softmax over the classes seen so far (default) or the full output head (the CPCF paper's MLP). */
function headArg(v: Values): 'seen' | 'all' | undefined {
  const h = str(v, 'head');
  if (h === undefined) return undefined;
  if (h !== 'seen' && h !== 'all') throw new RunUsageError(`Unknown --head "${h}": use seen or all.`);
  return h;
}

/**
 * Everything `run` decides before training: the dataset, the runs' configs (one per planned ordering) and the
 * training path. Shared by `cil-lab run` and `cil-lab sweep` (which trains a slice of `configs`), so a sweep's runs
 * are exactly the runs `run` would train.
 */
export interface PlannedRuns {
  ds: TrainDataset;
  datasetArg: string;
  /** `--features`: what the head trains on (features.ts), else undefined (pixels) */
  features?: FeatureInfo;
  /** the feature set itself (the experiment's rows), for the head's bar */
  featureSet?: FeatureSet;
  builtin: boolean;
  classes: number[];
  sizes: number[];
  /** `--train-per-class` / `--test-per-class` (undefined: all examples) */
  subset: { trainPerClass?: number; testPerClass?: number };
  strategy: StrategyId;
  planned: { label: string; order: number[] }[];
  configs: TrainRunConfig[];
  /** the backend the runs train on ('wasm' | 'cpu'), after selection */
  backend: string;
  /** `--fast on|off` (on by default) and no recorded outputs: several runs may take the fast path */
  fastAllowed: boolean;
  population: number | 'auto';
  notes: string[];
}

/** `--hidden 256,128`: the MLP's hidden widths (bounded with the model by the config check). */
export function hiddenArg(v: Values): number[] | undefined {
  const text = str(v, 'hidden');
  if (text === undefined) return undefined;
  if (text.trim() === '') return [];
  return intListArg(text, 'hidden');
}

/**
 * The training flags as the config fields they stand for — model, strategies (with --memory and
 * --strategy-options), training, data, seeds — for `checkAsLink` (the link's checker, its bounds included).
 * Undefined flags are left out (their fill-ins apply).
 */
export function trainingFields(v: Values, strategies: readonly StrategyId[], withOptions = true, features?: FeatureSourceArg): Record<string, unknown> {
  const modelKind = str(v, 'model') ?? (features ? 'head' : 'mlp');
  if (modelKind !== 'mlp' && modelKind !== 'cnn' && modelKind !== 'head')
    throw new RunUsageError(`Unknown --model "${modelKind.slice(0, 40)}": use mlp, cnn or head.`);
  if (features && modelKind !== 'head') throw new RunUsageError(`--features trains the head model (--model head [--hidden W]); ${modelKind} trains on pixels.`);
  if (!features && modelKind === 'head')
    throw new RunUsageError('--model head trains on feature vectors: give --features F.npz|backbone|encoder:MODEL_ID_OR_FOLDER.');
  const hidden = hiddenArg(v);
  if (modelKind === 'head' && hidden && hidden.length > 1)
    throw new RunUsageError(`--hidden: the head is linear (--hidden "") or has one hidden layer; got ${hidden.length} widths.`);
  if (modelKind === 'head' && hidden?.length === 1 && hidden[0] > CONFIG_LIMITS.headWidth)
    throw new RunUsageError(`--hidden: the head's hidden layer can have at most ${grouped(CONFIG_LIMITS.headWidth)} units; got ${grouped(hidden[0])}.`);
  headArg(v);
  const memory = int(v, 'memory', 1);
  // a head on features takes the head's settings (HEAD_TRAINING: 20 epochs at 10⁻²) unless --epochs or --lr is given,
  // as the app writes them when an experiment switches to features
  const headPair = features && v.epochs === undefined && v.lr === undefined;
  const training: Record<string, unknown> = {
    epochs: int(v, 'epochs', 1) ?? (headPair ? HEAD_TRAINING.epochs : undefined),
    firstTaskEpochs: int(v, 'first-epochs', 1),
    lr: numberArg(str(v, 'lr'), 'lr') ?? (headPair ? HEAD_TRAINING.lr : undefined),
    batchSize: int(v, 'batch-size', 1),
    head: str(v, 'head'),
    init: str(v, 'init'),
  };
  return {
    model:
      modelKind === 'mlp' ? { kind: 'mlp', ...(hidden ? { hidden } : {}) } : modelKind === 'head' ? { kind: 'head', hidden: hidden ?? [] } : { kind: 'cnn' },
    ...(features?.kind === 'backbone' ? { features: { source: 'backbone', seed: int(v, 'backbone-seed', 0, UINT32_MAX) ?? 0 } } : {}),
    strategies: strategies.map((id) => ({
      id,
      options: {
        ...(withOptions ? strategyOptionsFlag(v, id) : {}),
        ...(memory !== undefined && 'memory' in (STRATEGY_DEFAULTS[id] ?? {}) ? { memory } : {}),
      },
    })),
    training: Object.fromEntries(Object.entries(training).filter(([, x]) => x !== undefined)),
    // N, or all (null, as when not given)
    data: { trainPerClass: perClassArg(v, 'train-per-class') ?? null, testPerClass: perClassArg(v, 'test-per-class') ?? null },
    seeds: [int(v, 'seed', 0, UINT32_MAX) ?? 0],
  };
}

/** `fields` without the model and feature source (checked by their own bounds where the config cannot know them). */
function withoutModel(fields: Record<string, unknown>): Record<string, unknown> {
  const { model: _model, features: _features, ...rest } = fields;
  return rest;
}

/**
 * The model of `fields` must fit as the config's bound says (limits.ts), for a dataset the config does not know
 * (--dataset PATH): the shape is known once its files are read.
 */
function checkModelFitsShape(fields: Record<string, unknown>, shape: readonly [number, number, number], outputs: number): void {
  const model = fields.model as { kind: 'mlp'; hidden?: number[] } | { kind: 'cnn' };
  const { parameters } = modelSize(
    model.kind === 'mlp' ? { kind: 'mlp', hidden: model.hidden ?? [256, 128] } : { kind: 'cnn', filters: [32, 64], dense: 128 },
    shape,
    outputs,
  );
  if (parameters > CONFIG_LIMITS.parameters)
    throw new UsageError(
      `--hidden: a model can have at most ${grouped(CONFIG_LIMITS.parameters)} weights; this one on ${shape.join('×')} images with ${outputs} outputs has ${grouped(parameters)}.`,
    );
}

export async function planRunCommand(v: Values, options: { root: string }, extras: RunExtras = {}): Promise<PlannedRuns> {
  const featuresArg = str(v, 'features');
  const featureSource = featuresArg === undefined ? undefined : parseFeatureSource(featuresArg, '--features');
  // an .npz alone brings its own classes and split
  const datasetArg = str(v, 'dataset') ?? (featureSource?.kind === 'file' ? featureSource.path : undefined);
  if (!datasetArg) throw new RunUsageError(`Give --dataset: ${BUILTIN_DATASET_IDS.join(', ')} or a PATH to IDX/CIFAR files.`);
  const strategy = (str(v, 'strategy') ?? 'finetune') as StrategyId;
  if (!STRATEGY_IDS.includes(strategy)) throw new RunUsageError(`Unknown --strategy "${strategy.slice(0, 40)}": use ${STRATEGY_IDS.join(', ')}.`);
  const backendName = backendArg(v);
  const builtin = (BUILTIN_DATASET_IDS as readonly string[]).includes(datasetArg);
  if (!builtin && (BUILTIN_DATASET_REFS as readonly string[]).includes(datasetArg))
    throw new RunUsageError(
      `--dataset ${datasetArg} is a list of class names without images: train on ${BUILTIN_DATASET_IDS.join(', ')} or a PATH to IDX/CIFAR files.`,
    );
  if (featureSource && str(v, 'augment') !== undefined && augmentFor(v, datasetArg))
    throw new RunUsageError('--augment transforms pixels; features cannot be augmented (leave --augment out).');

  // every flag checked, bounds included, before the dataset is read
  const fields = trainingFields(v, [strategy], true, featureSource);
  const classArg = str(v, 'classes');
  const knownCount = builtin ? getClassList(datasetClassListId(datasetArg as BuiltinDatasetRef)).classes.length : undefined;
  const given = classArg === undefined ? undefined : rangeListArg(classArg, 'classes', knownCount, builtin ? datasetArg : undefined);
  // the link's checker knows the embedded backbone (its held-out classes); features from a file or an encoder have a
  // width known once they are computed, so the head is checked by its own bound (headWidth) alone
  const linkFields = featureSource && featureSource.kind !== 'backbone' ? withoutModel(fields) : fields;
  if (builtin) {
    const classes = given ?? [...Array(knownCount).keys()];
    const sizes = taskSizesArg(v, classes.length);
    checkAsLink({ lab: 'ground-truth', dataset: { id: datasetArg }, classes, taskSizes: sizes, ...linkFields }, TRAINING_FLAGS);
  } else checkAsLink(featureSource ? withoutModel(fields) : fields, TRAINING_FLAGS);
  // the orderings' flags too (they are read again once the classes are known)
  int(v, 'limit', 1, CONFIG_LIMITS.groundTruthBudget);
  int(v, 'sample-seed', SAMPLE_SEED.min, SAMPLE_SEED.max);
  const orderingsArg = str(v, 'orderings');
  if (orderingsArg !== undefined && orderingsArg !== 'all') {
    if (!/^\d+$/.test(orderingsArg.trim()))
      throw new RunUsageError(`--orderings takes "all" or a number of orderings to sample; got "${orderingsArg.slice(0, 40)}".`);
    intArg(orderingsArg, 'orderings', BUDGET.min, BUDGET.max);
  }
  const fastArg = str(v, 'fast') ?? 'on';
  if (fastArg !== 'on' && fastArg !== 'off') throw new RunUsageError(`--fast takes on or off; got "${fastArg.slice(0, 40)}".`);
  const popArg = str(v, 'population') ?? 'auto';
  const population = popArg === 'auto' ? 'auto' : (intArg(popArg, 'population', 1, CONFIG_LIMITS.population) as number);

  const notes: string[] = [];
  // an .npz alone brings its classes and split; otherwise the images (the backbone and encoders compute from them)
  const npzAlone = featureSource?.kind === 'file' && str(v, 'dataset') === undefined;
  const images = npzAlone ? null : builtin ? await loadBuiltinImages(datasetArg, options.root) : await loadUserData(datasetArg, notes);
  const fileSet = images ? null : readFeatureFile(datasetArg, []);
  const classNames = images ? images.classNames : fileSet!.classNames;
  const data = fields.data as { trainPerClass: number | null; testPerClass: number | null };
  const trainPerClass = data.trainPerClass ?? undefined;
  const testPerClass = data.testPerClass ?? undefined;

  // without --classes: every class of the images, or the classes an .npz has rows of (its class_names may list more)
  const classes = given ?? (fileSet ? classesWithRows(fileSet) : classNames.map((_, i) => i));
  const bad = classes.find((c) => c >= classNames.length);
  if (bad !== undefined) throw new RunUsageError(`--classes: class ${bad} does not exist; the dataset has classes 0..${classNames.length - 1}.`);
  if (classes.length < 2) throw new RunUsageError(`--classes: a class-incremental run needs at least two classes; got ${classes.length}.`);
  const sizes = taskSizesArg(v, classes.length);
  let ds: TrainDataset;
  let features: FeatureInfo | undefined;
  let featureSet: FeatureSet | undefined;
  if (featureSource) {
    // the features of the run's classes (the backbone pre-trains on the others), at most the first N per class and split
    const got = await featureSetFrom(featureSource, v, images, { classes, trainPerClass: data.trainPerClass, testPerClass: data.testPerClass });
    ds = featureDatasetOf(got.set, classes);
    featureSet = got.set;
    features = got.info;
    notes.push(...got.info.notes);
  } else {
    ds = images as ImageDataset;
    if (trainPerClass !== undefined || testPerClass !== undefined) ds = subsetPerClass(ds, { trainPerClass, testPerClass });
    if (!builtin) checkModelFitsShape(fields, ds.shape, classes.length);
  }

  const training = fields.training as { epochs?: number; firstTaskEpochs?: number; lr?: number; batchSize?: number };
  const model = fields.model as TrainRunConfig['model'];
  const seed = (fields.seeds as number[])[0];
  const base = {
    model,
    // 0 epochs trains nothing and would report the untrained model's accuracy as a result
    epochs: training.epochs,
    firstTaskEpochs: training.firstTaskEpochs,
    lr: training.lr,
    batchSize: training.batchSize,
    augment: featureSource ? false : augmentFor(v, datasetArg),
    head: headArg(v),
    init: initFlag(v),
  };
  const backend = await selectCliBackend(backendName);

  const many = manyOrderings(v, classes, sizes);
  const planned = many ?? orderings(v, classes);
  // the runs as every lab builds them (src/engine/run-config.ts): the flags' settings, then each ordering
  const settings: RunSettings = {
    ...base,
    strategyOptions: { [strategy]: strategyOptions(v, strategy) },
    probs: extras.probs && { softmax: base.head, ...extras.probs },
  };
  const configs = planned.map(({ order }) => runConfigOf(settings, { tasks: splitIntoTasks(order, sizes), strategy, seed }));
  return {
    ds,
    datasetArg,
    features,
    featureSet,
    builtin,
    classes,
    sizes,
    subset: { trainPerClass, testPerClass },
    strategy,
    planned,
    configs,
    backend: backend.name,
    fastAllowed: fastArg === 'on' && !extras.probs,
    population,
    notes,
  };
}

/** The record of one finished run (the fields of `run`'s output; `cil-lab analyze` and the app's Import read them). */
export function runRecord(p: PlannedRuns, k: number, result: TrainRunResult, extras: RunExtras = {}): Record<string, unknown> {
  const { label, order } = p.planned[k];
  const metrics = allMetrics(result.matrix, { untrained: result.untrained, testCounts: result.testCounts });
  return {
    label,
    dataset: p.builtin ? p.datasetArg : resolve(p.datasetArg),
    ...(p.features ? { features: { source: p.features.source, label: p.features.label, d: p.features.d, digest: p.features.digest } } : {}),
    classes: p.classes.map((c) => p.ds.classNames[c]),
    order,
    tasks: result.tasks,
    strategy: p.strategy,
    seed: result.config.seed,
    // the Ground-truth lab's A(O) (sample-weighted), under the names `cil-lab analyze` and the lab's import read
    final_accuracy: metrics.finalAccuracyWeighted,
    aia: metrics.aiaWeighted,
    matrix: result.matrix,
    metrics,
    untrained: result.untrained,
    testCounts: result.testCounts,
    trainCounts: result.trainCounts,
    backend: result.backend,
    seconds: Math.round(result.seconds * 1000) / 1000,
    config: result.config,
    ...(extras.report ? extras.report(result) : {}),
  };
}

/**
 * A pre-trained method (features-run.ts) on `--features`: an .npz it reads itself; the embedded backbone's or an
 * encoder's features computed here first (features.ts), of `--classes` of `--dataset`.
 */
async function pretrainedRun(v: Values, options: { root: string; onNote?: (note: string) => void }): Promise<string> {
  const featuresArg = str(v, 'features');
  const source = featuresArg === undefined ? undefined : parseFeatureSource(featuresArg, '--features');
  if (!source || source.kind === 'file') return featuresRunCommand(source ? { ...v, features: source.path } : v, options);
  const datasetArg = str(v, 'dataset');
  if (!datasetArg) throw new RunUsageError(`--features ${featuresArg} computes features from images: give --dataset.`);
  const notes: string[] = [];
  const images = (BUILTIN_DATASET_IDS as readonly string[]).includes(datasetArg)
    ? await loadBuiltinImages(datasetArg, options.root)
    : await loadUserData(datasetArg, notes);
  const classArg = str(v, 'classes');
  const classes = classArg !== undefined ? rangeListArg(classArg, 'classes', images.classNames.length) : images.classNames.map((_, i) => i);
  const rows = { classes, trainPerClass: perClassArg(v, 'train-per-class') ?? null, testPerClass: perClassArg(v, 'test-per-class') ?? null };
  const { set, info } = await featureSetFrom(source, v, images, rows);
  for (const n of [...notes, ...info.notes]) options.onNote?.(n);
  options.onNote?.(`features: ${info.label} (${info.d} dimensions, ${info.digest})`);
  return featuresRunCommand(v, options, set);
}

/** Runs the command; returns the JSON text to print. `root` is the project directory (public/data/ lives there). */
export async function runCommand(v: Values, options: { root: string; onNote?: (note: string) => void }, extras: RunExtras = {}): Promise<string> {
  // the pre-trained methods on frozen features (features-run.ts); every other strategy on features trains the head below
  if (isPtmStrategyId(str(v, 'strategy'))) return pretrainedRun(v, options);
  const summaryFlag = SUMMARY_FLAGS.find((f) => v[f] !== undefined);
  if (summaryFlag)
    throw new RunUsageError(
      `--${summaryFlag} belongs to the whole distribution of a pre-trained method (--strategy ${PTM_STRATEGY_IDS.join('|')} on --features): a trained strategy follows the path of its tasks, so each ordering must be trained (--orderings all).`,
    );
  const p = await planRunCommand(v, options, extras);
  const { configs, planned } = p;
  // several orderings: the fast path (prefix sharing + population, shared-train.ts) unless --fast off or softmax
  // outputs are recorded (cpcf); its numbers equal the one-by-one runs'
  const fast = configs.length > 1 && p.fastAllowed;
  const t0 = performance.now();
  let stepsTrained = 0;
  let predictions = 0;
  const onProgress = (s: SharedProgress): void => {
    stepsTrained = s.stepsDone;
    predictions = s.predictionsDone;
  };
  const results = fast ? await trainShared(p.ds, configs, { population: p.population }, { onProgress }) : [];
  if (!fast) for (const c of configs) results.push(await trainRun(p.ds, c));
  const seconds = (performance.now() - t0) / 1000;

  const runs = planned.map((_, k) => runRecord(p, k, results[k], extras));
  for (const n of p.notes) options.onNote?.(n);
  // on features: the head's bar (the same head trained jointly, beside SimpleCIL on the same rows)
  const bar = p.featureSet ? await headBarOf(p, configs[0]) : undefined;
  if (bar && bar.joint < bar.simplecil)
    options.onNote?.(
      `the head is below the bar: trained jointly with these settings it reaches ${(100 * bar.joint).toFixed(1)} %, under SimpleCIL's ${(100 * bar.simplecil).toFixed(1)} % on the same features (raise --epochs or --lr)`,
    );
  if (runs.length === 1) return JSON.stringify(bar ? { ...runs[0], headBar: bar } : runs[0]);
  const trie = planPrefixes(configs.map((c) => c.tasks));
  const training = {
    path: fast ? 'fast (prefix sharing + population)' : 'one run at a time',
    tasksTrained: fast ? trie.sharedTasks : trie.naiveTasks,
    naiveTasks: trie.naiveTasks,
    // the fast path's optimiser steps, counted as they are trained (each prefix once), and its test predictions
    // (each trained prefix's evaluation pass and the untrained model's, one per example)
    ...(fast ? { stepsTrained, predictions } : {}),
    seconds: Math.round(seconds * 10) / 10,
  };
  return JSON.stringify({ runs, training, ...(bar ? { headBar: bar } : {}) });
}

/** The head's bar of a run on features (engine/features/head-bar.ts), its accuracies to 4 decimals. */
async function headBarOf(p: PlannedRuns, config: TrainRunConfig): Promise<HeadBar> {
  const model = config.model as { kind: string; hidden?: number[] };
  const bar = await headBar(p.featureSet!, p.classes, {
    epochs: config.epochs ?? TRAINER_DEFAULTS.epochs,
    lr: config.lr ?? TRAINER_DEFAULTS.lr,
    batchSize: config.batchSize ?? TRAINER_DEFAULTS.batchSize,
    hidden: model.hidden ?? [],
    seed: config.seed,
  });
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  return { ...bar, joint: r(bar.joint), simplecil: r(bar.simplecil) };
}
