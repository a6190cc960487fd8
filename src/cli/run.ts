/**
 * `cil-lab run`: one training run headless (issue 3, CLI). Loads a built-in dataset (public/data/<id>/, made by
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
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { allMetrics } from '../core/metrics/index';
import { countOrderings, formatOmega } from '../core/orderings/count';
import { enumerateOrderings } from '../core/orderings/enumerate';
import { splitIntoTasks } from '../core/orderings/key';
import { sampleOrderingsByShuffle } from '../core/orderings/sample';
import { planPrefixes } from '../core/ground-truth/prefix-plan';
import { OrderingError, resolveTaskSizes } from '../core/orderings/task-sizes';
import { rsClassOrder } from '../core/protocols/rs';
import { createDefaultRng } from '../core/random/default-rng';
import { BUILTIN_DATASET_IDS, loadBuiltinDataset } from '../data/registry';
import { parseUserFiles } from '../data/parsers/index';
import { isBackendName, selectBackend } from '../engine/backend';
import { STRATEGY_DEFAULTS, STRATEGY_IDS, type StrategyId } from '../engine/defaults';
import { fromDecodedDataset, subsetPerClass } from '../engine/dataset';
import { trainShared } from '../engine/shared-train';
import { trainRun } from '../engine/trainer';
import { featureDatasetOf } from '../engine/features/dataset';
import type { ImageDataset, ImageSplit, TrainDataset, TrainRunConfig, TrainRunResult } from '../engine/types';
import { augmentsByDefault, runConfigOf, type RunSettings } from '../engine/run-config';
import { intListArg } from './args';
import { initFlag, strategyOptionsFlag } from './config-args';
import { featureSetFrom, parseFeatureSource, perClassArg, readFeatureFile, type FeatureInfo } from './features';
import { featuresRunCommand } from './features-run';
import { isPtmStrategyId } from '../core/ptm/defaults';

export class RunUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunUsageError';
  }
}

type Values = Record<string, string | boolean | undefined>;

const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

function int(v: Values, k: string, min: number): number | undefined {
  const s = str(v, k);
  if (s === undefined) return undefined;
  if (!/^-?\d+$/.test(s.trim())) throw new RunUsageError(`--${k} must be a whole number; got "${s}".`);
  const n = Number(s);
  if (n < min) throw new RunUsageError(`--${k} must be at least ${min}; got ${n}.`);
  return n;
}

function num(v: Values, k: string): number | undefined {
  const s = str(v, k);
  if (s === undefined) return undefined;
  const n = Number(s);
  if (s.trim() === '' || !Number.isFinite(n)) throw new RunUsageError(`--${k} must be a number; got "${s}".`);
  return n;
}

function intList(v: Values, k: string): number[] | undefined {
  const s = str(v, k);
  if (s === undefined) return undefined;
  const parts = s.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) throw new RunUsageError(`--${k} is empty.`);
  return parts.map((p) => {
    if (!/^\d+$/.test(p)) throw new RunUsageError(`--${k}: "${p}" is not a class index.`);
    return Number(p);
  });
}

/** "0-9", "0,2,4", "0-2,7" → indices. */
function rangeList(s: string, k: string): number[] {
  const out: number[] = [];
  for (const part of s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new RunUsageError(`--${k}: "${part}" is not an index or a range like 0-9.`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new RunUsageError(`--${k}: range "${part}" runs backwards.`);
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}

/** The built-in dataset `id`, read from public/data/ under `root`. */
export async function loadBuiltin(id: string, root: string): Promise<ImageDataset> {
  try {
    return fromDecodedDataset(await loadBuiltinDataset(id, async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
  } catch (e) {
    const msg = (e as Error).message;
    if (/ENOENT|cannot read/.test(msg)) {
      throw new RunUsageError(`The built-in dataset "${id}" is not prepared (${msg.split(';')[0]}): run "npm run prepare-data" first.`);
    }
    throw e;
  }
}

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

/** The user's files at PATH (a file, or a directory whose files belong together). */
export async function loadUserData(path: string, notes: string[]): Promise<ImageDataset> {
  const abs = resolve(path);
  let files: string[];
  try {
    const st = await stat(abs);
    files = st.isDirectory() ? (await readdir(abs)).sort().map((f) => join(abs, f)) : [abs];
  } catch {
    throw new RunUsageError(`--dataset "${path}" is neither a built-in dataset (${BUILTIN_DATASET_IDS.join(', ')}) nor a readable file or directory.`);
  }
  const named = [];
  for (const f of files) {
    if ((await stat(f)).isFile()) named.push({ name: basename(f), bytes: new Uint8Array(await readFile(f)) });
  }
  if (named.length === 0) throw new RunUsageError(`--dataset "${path}" is not a regular file, nor a folder holding dataset files (IDX or CIFAR).`);
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
  const order = intList(v, 'order');
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
    const seeds = intList(v, 'seeds') ?? [1993];
    return seeds.map((s) => ({ label: `RS seed ${s}`, order: rsClassOrder(s, classes.length).map((i) => classes[i]) }));
  }
  return [{ label: 'ascending', order: classes.slice() }];
}

/**
 * `--orderings all` (every ordering, when there are at most `--limit`, default 5000) or `--orderings N` (a seeded
 * uniform sample of N distinct orderings, `--sample-seed`, default 0): a ground truth from the command line.
 * Orderings are over the positions of `classes`, mapped to the dataset's labels.
 */
function manyOrderings(v: Values, classes: number[], sizes: number[]): { label: string; order: number[] }[] | null {
  const arg = str(v, 'orderings');
  if (arg === undefined) return null;
  if (intList(v, 'order') || str(v, 'protocol')) throw new RunUsageError('Give one of --orderings, --order or --protocol.');
  const omega = countOrderings(sizes);
  const toClasses = (tasks: number[][]): number[] => tasks.flat().map((i) => classes[i]);
  if (arg === 'all') {
    const limit = int(v, 'limit', 1) ?? 5000;
    if (omega > BigInt(limit)) {
      throw new RunUsageError(
        `There are ${omega} orderings (${formatOmega(omega)}), more than --limit ${limit}: give --orderings N to train a seeded uniform sample of N (with --sample-seed S), or raise --limit.`,
      );
    }
    return Array.from(enumerateOrderings(sizes), (tasks, i) => ({ label: `ordering ${i}`, order: toClasses(tasks) }));
  }
  const n = Number(arg);
  if (!Number.isInteger(n) || n < 1) throw new RunUsageError(`--orderings takes "all" or a number of orderings to sample; got "${arg}".`);
  if (BigInt(n) > omega) throw new RunUsageError(`--orderings ${n}: there are only ${omega} orderings; use --orderings all.`);
  const seed = int(v, 'sample-seed', 0) ?? 0;
  return sampleOrderingsByShuffle(sizes, n, seed).map((tasks, i) => ({ label: `sample ${i} (seed ${seed})`, order: toClasses(tasks) }));
}

function strategyOptions(v: Values, strategy: StrategyId): Record<string, number | string> {
  const out: Record<string, number | string> = strategyOptionsFlag(v, strategy);
  const memory = int(v, 'memory', 1);
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

export async function planRunCommand(v: Values, options: { root: string }, extras: RunExtras = {}): Promise<PlannedRuns> {
  const featuresArg = str(v, 'features');
  const featureSource = featuresArg === undefined ? undefined : parseFeatureSource(featuresArg, '--features');
  // an .npz alone brings its own classes and split
  const datasetArg = str(v, 'dataset') ?? (featureSource?.kind === 'file' ? featureSource.path : undefined);
  if (!datasetArg) throw new RunUsageError(`Give --dataset: ${BUILTIN_DATASET_IDS.join(', ')} or a PATH to IDX/CIFAR files.`);
  const strategy = (str(v, 'strategy') ?? 'finetune') as StrategyId;
  if (!STRATEGY_IDS.includes(strategy)) throw new RunUsageError(`Unknown --strategy "${strategy}": use ${STRATEGY_IDS.join(', ')}.`);
  const modelKind = str(v, 'model') ?? (featureSource ? 'head' : 'mlp');
  if (modelKind !== 'mlp' && modelKind !== 'cnn' && modelKind !== 'head') throw new RunUsageError(`Unknown --model "${modelKind}": use mlp, cnn or head.`);
  if (featureSource && modelKind !== 'head')
    throw new RunUsageError(`--features trains the head model (--model head [--hidden W]); ${modelKind} trains on pixels.`);
  if (!featureSource && modelKind === 'head')
    throw new RunUsageError('--model head trains on feature vectors: give --features F.npz|backbone|encoder:MODEL_ID_OR_FOLDER.');
  const backendArg = str(v, 'backend') ?? 'auto';
  if (backendArg !== 'auto' && !isBackendName(backendArg)) throw new RunUsageError(`Unknown --backend "${backendArg}": use wasm or cpu (or auto).`);

  const notes: string[] = [];
  const builtin = (BUILTIN_DATASET_IDS as readonly string[]).includes(datasetArg);
  const npzAlone = featureSource?.kind === 'file' && str(v, 'dataset') === undefined;
  const images = npzAlone ? null : builtin ? await loadBuiltin(datasetArg, options.root) : await loadUserData(datasetArg, notes);
  const classNames = images ? images.classNames : readFeatureFile(datasetArg, []).classNames;
  const trainPerClass = int(v, 'train-per-class', 1);
  const testPerClass = int(v, 'test-per-class', 1);

  const classArg = str(v, 'classes');
  const classes = classArg ? rangeList(classArg, 'classes') : classNames.map((_, i) => i);
  const bad = classes.find((c) => c >= classNames.length);
  if (bad !== undefined) throw new RunUsageError(`--classes: class ${bad} does not exist; the dataset has classes 0..${classNames.length - 1}.`);
  if (new Set(classes).size !== classes.length) throw new RunUsageError('--classes lists a class twice.');
  let ds: TrainDataset;
  let features: FeatureInfo | undefined;
  if (featureSource) {
    // the features of the run's classes (the backbone pre-trains on the others), at most the first N per class and split
    const rows = { classes, trainPerClass: perClassArg(v, 'train-per-class') ?? null, testPerClass: perClassArg(v, 'test-per-class') ?? null };
    const got = await featureSetFrom(featureSource, v, images, rows);
    ds = featureDatasetOf(got.set, classes);
    features = got.info;
    notes.push(...got.info.notes);
  } else {
    ds = images as ImageDataset;
    if (trainPerClass !== undefined || testPerClass !== undefined) ds = subsetPerClass(ds, { trainPerClass, testPerClass });
  }
  let sizes: number[];
  try {
    const tasks = int(v, 'tasks', 1);
    const given = str(v, 'task-sizes');
    if (tasks === undefined && given === undefined) throw new RunUsageError('Give --tasks K or --task-sizes m1,m2,….');
    sizes = resolveTaskSizes(classes.length, { tasks, taskSizes: intListArg(given, 'task-sizes') });
  } catch (e) {
    if (e instanceof OrderingError) throw new RunUsageError(e.message);
    throw e;
  }

  let hidden: number[] | undefined;
  const hiddenArg = str(v, 'hidden');
  if (hiddenArg) hidden = hiddenArg.split(',').map((s) => Number(s.trim()));
  if (modelKind === 'head' && hidden && hidden.length > 1)
    throw new RunUsageError(`--hidden: the head is linear (--hidden "") or has one hidden layer; got ${hidden.length} widths.`);
  if (featureSource && str(v, 'augment') !== undefined && augmentFor(v, datasetArg))
    throw new RunUsageError('--augment transforms pixels; features cannot be augmented (leave --augment out).');
  const base = {
    seed: int(v, 'seed', Number.MIN_SAFE_INTEGER) ?? 0,
    model: modelKind === 'mlp' ? { kind: 'mlp' as const, hidden } : modelKind === 'head' ? { kind: 'head' as const, hidden } : { kind: 'cnn' as const },
    // 0 epochs trains nothing and would report the untrained model's accuracy as a result (issue 16, item 9)
    epochs: int(v, 'epochs', 1),
    firstTaskEpochs: int(v, 'first-epochs', 1),
    lr: num(v, 'lr'),
    batchSize: int(v, 'batch-size', 1),
    augment: featureSource ? false : augmentFor(v, datasetArg),
    head: headArg(v),
    init: initFlag(v),
  };
  const backend = await selectBackend(backendArg as 'auto', { strict: backendArg !== 'auto' });

  const many = manyOrderings(v, classes, sizes);
  const planned = many ?? orderings(v, classes);
  // the runs as every lab builds them (src/engine/run-config.ts): the flags' settings, then each ordering
  const { seed, ...shared } = base;
  const settings: RunSettings = {
    ...shared,
    strategyOptions: { [strategy]: strategyOptions(v, strategy) },
    probs: extras.probs && { softmax: shared.head, ...extras.probs },
  };
  const configs = planned.map(({ order }) => runConfigOf(settings, { tasks: splitIntoTasks(order, sizes), strategy, seed }));
  const fastArg = str(v, 'fast') ?? 'on';
  if (fastArg !== 'on' && fastArg !== 'off') throw new RunUsageError(`--fast takes on or off; got "${fastArg}".`);
  const popArg = str(v, 'population') ?? 'auto';
  const population = popArg === 'auto' ? 'auto' : Number(popArg);
  if (population !== 'auto' && !(Number.isInteger(population) && population >= 1))
    throw new RunUsageError(`--population takes auto or a whole number ≥ 1; got "${popArg}".`);
  return {
    ds,
    datasetArg,
    features,
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
    ? await loadBuiltin(datasetArg, options.root)
    : await loadUserData(datasetArg, notes);
  const classArg = str(v, 'classes');
  const classes = classArg ? rangeList(classArg, 'classes') : images.classNames.map((_, i) => i);
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
  const p = await planRunCommand(v, options, extras);
  const { configs, planned } = p;
  // several orderings: the fast path (prefix sharing + population, shared-train.ts) unless --fast off or softmax
  // outputs are recorded (cpcf); its numbers equal the one-by-one runs'
  const fast = configs.length > 1 && p.fastAllowed;
  const t0 = performance.now();
  let stepsTrained = 0;
  const results = fast ? await trainShared(p.ds, configs, { population: p.population }, { onProgress: (s) => (stepsTrained = s.stepsDone) }) : [];
  if (!fast) for (const c of configs) results.push(await trainRun(p.ds, c));
  const seconds = (performance.now() - t0) / 1000;

  const runs = planned.map((_, k) => runRecord(p, k, results[k], extras));
  for (const n of p.notes) options.onNote?.(n);
  if (runs.length === 1) return JSON.stringify(runs[0]);
  const trie = planPrefixes(configs.map((c) => c.tasks));
  const training = {
    path: fast ? 'fast (prefix sharing + population)' : 'one run at a time',
    tasksTrained: fast ? trie.sharedTasks : trie.naiveTasks,
    naiveTasks: trie.naiveTasks,
    // the fast path's optimiser steps, counted as they are trained (each prefix once)
    ...(fast ? { stepsTrained } : {}),
    seconds: Math.round(seconds * 10) / 10,
  };
  return JSON.stringify({ runs, training });
}
