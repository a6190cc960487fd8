/**
 * `cil-lab ood <the flags of run> --ood digits,fashion-mnist:6-9 --detectors msp,energy,ber,…`: the Open-world lab
 * headless (docs/science.md §5; src/engine/ood). Trains one class-incremental run and, after every step, scores
 * the ID test data of the tasks so far against a growing share of each OOD set with every detector.
 *
 * Prints `{"results": [{step, detector, oodSet, auroc, fpr95, auprIn, auprOut, idCount, oodCount}], "accuracy":
 * [per step], "summary": [per detector: per-set means over steps, then the mean over sets], "steps": [per step:
 * confidence per task and per OOD set, OOD assignment per task, seconds per detector], "oodSets", "backend",
 * "seconds", "config"}`.
 *
 * Run flags supported here: --dataset (a built-in dataset), --classes, --tasks/--task-sizes, --order or
 * --protocol rs --seeds S (one seed), --strategy, --memory, --model, --hidden, --epochs, --first-epochs, --lr,
 * --batch-size, --seed, --backend, --train-per-class, --test-per-class, --augment, --head. OOD flags: --ood (a comma
 * list: a dataset id, optionally with classes, e.g. digits, emoji, fashion-mnist:6-9; default: the held-out classes
 * of the ID dataset, and digits — or fashion-mnist when the ID data is digits), --detectors (default
 * msp,energy,ber), --head-epochs, --head-lr, --margin-in, --margin-out, --ood-seed.
 *
 * As the lab (issue 13, "app and CLI give the same numbers"): `--config FILE` / `--link URL` read the config's
 * `openWorld` section (flags of the lab's settings given beside them win), and a command naming every lab setting
 * (the one the lab shows under its Run button, src/services/ood-export.ts `oodCommandOf`) runs the lab's settings
 * through the worker's own `openWorldInput`, so the numbers equal the lab's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openWorldOf } from '../core/config/sections/open-world';
import { OPEN_WORLD_DEFAULTS, validateOpenWorldSettings, type OpenWorldSettings } from '../core/ood/config';
import { DETECTOR_IDS, isDetectorId, type DetectorId, type HeadSettings } from '../core/ood/detectors';
import { resolveTaskSizes } from '../core/orderings/task-sizes';
import { splitIntoTasks } from '../core/orderings/key';
import { rsClassOrder } from '../core/protocols/rs';
import { BUILTIN_DATASET_IDS, loadBuiltinDataset } from '../data/registry';
import { isBackendName, selectBackend } from '../engine/backend';
import { fromDecodedDataset, subsetPerClass } from '../engine/dataset';
import { STRATEGY_DEFAULTS, STRATEGY_IDS, type StrategyId } from '../engine/defaults';
import { buildOodSet, OodSpecError, parseOodSpec, type OodSet } from '../engine/ood/ood-data';
import { datasetsNeeded, openWorldInput } from '../engine/ood/from-settings';
import { oodReport, type OodReport } from '../engine/ood/report';
import { openWorldVerdict, openWorldVerdictInput, readOpenWorld } from '../core/verdict/open-world';
import { seedListArg, seedRange } from './seeds';
import { runOpenWorld } from '../engine/ood/run';
import type { ImageDataset, TrainRunConfig } from '../engine/types';
import { UsageError, intArg, intListArg, numberArg, rangeListArg } from './args';
import { loadExperimentConfig } from './config-args';
import { augmentFor } from './run';

type Values = Record<string, string | boolean | undefined>;
const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

async function loadBuiltin(id: string, root: string): Promise<ImageDataset> {
  if (!(BUILTIN_DATASET_IDS as readonly string[]).includes(id)) {
    throw new UsageError(`"${id}" is not a built-in dataset: cil-lab ood uses ${BUILTIN_DATASET_IDS.join(', ')}.`);
  }
  try {
    return fromDecodedDataset(await loadBuiltinDataset(id, async (p) => new Uint8Array(await readFile(join(root, 'public', p)))));
  } catch (e) {
    const msg = (e as Error).message;
    if (/ENOENT|cannot read/.test(msg)) throw new UsageError(`The built-in dataset "${id}" is not prepared: run "npm run prepare-data" first.`);
    throw e;
  }
}

function parseDetectors(text: string): DetectorId[] {
  const out = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (out.length === 0) throw new UsageError(`--detectors is empty: use some of ${DETECTOR_IDS.join(', ')}.`);
  for (const d of out) if (!isDetectorId(d)) throw new UsageError(`Unknown detector "${d}": use ${DETECTOR_IDS.join(', ')}.`);
  return [...new Set(out)] as DetectorId[];
}

/** `--ood` as a list of sets ("fashion-mnist:6,7" splits on the comma: a bare number continues the previous set's list). */
function splitOodList(text: string): string[] {
  return text.split(',').reduce<string[]>((acc, part) => {
    if (/^\s*\d+(-\d+)?\s*$/.test(part) && acc.length > 0 && acc[acc.length - 1].includes(':')) acc[acc.length - 1] += `,${part.trim()}`;
    else if (part.trim()) acc.push(part.trim());
    return acc;
  }, []);
}

/** The flags that are Open-world lab settings (src/core/ood/config.ts); `--backend` is allowed besides them. */
export const OOD_SETTING_FLAGS = [
  'dataset',
  'classes',
  'tasks',
  'protocol',
  'seeds',
  'strategy',
  'memory',
  'epochs',
  'hidden',
  'train-per-class',
  'test-per-class',
  'seed',
  'detectors',
  'ood',
  'head-epochs',
  'margin-in',
  'margin-out',
] as const;
/** A command naming all of these runs exactly as the lab does (the command the lab shows names them all). */
const COMPLETE = ['dataset', 'classes', 'tasks', 'strategy', 'epochs', 'hidden', 'seed', 'detectors', 'ood', 'head-epochs', 'margin-in', 'margin-out'];
const OTHER_OK = new Set(['backend', 'config', 'link']);

/** The lab's settings of `base` (a config's `openWorld`, or the lab's defaults) with the flags given applied. */
export function oodSettingsOf(v: Values, base: OpenWorldSettings = OPEN_WORLD_DEFAULTS): OpenWorldSettings {
  const s = structuredClone(base);
  const dataset = str(v, 'dataset');
  if (dataset !== undefined) s.dataset = dataset as OpenWorldSettings['dataset'];
  const classes = str(v, 'classes');
  if (classes !== undefined) s.classes = rangeListArg(classes, 'classes');
  s.tasks = intArg(str(v, 'tasks'), 'tasks', 1) ?? s.tasks;
  const protocol = str(v, 'protocol');
  if (protocol !== undefined) {
    if (protocol !== 'rs') throw new UsageError('The lab orders classes ascending (no --protocol) or by RS (--protocol rs --seeds S).');
    const seeds = intListArg(str(v, 'seeds'), 'seeds') ?? [1993];
    if (seeds.length !== 1) throw new UsageError('cil-lab ood trains one ordering: give one --seeds value.');
    s.orderSeed = seeds[0];
  }
  s.strategy = str(v, 'strategy') ?? s.strategy;
  s.memory = intArg(str(v, 'memory'), 'memory', 1) ?? s.memory;
  s.epochs = intArg(str(v, 'epochs'), 'epochs', 1) ?? s.epochs;
  const hidden = str(v, 'hidden');
  if (hidden !== undefined) s.hidden = hidden.split(',').map((h) => Number(h.trim()));
  const tr = intArg(str(v, 'train-per-class'), 'train-per-class', 1);
  if (tr !== undefined) s.trainPerClass = tr;
  const te = intArg(str(v, 'test-per-class'), 'test-per-class', 1);
  if (te !== undefined) s.testPerClass = te;
  s.seed = intArg(str(v, 'seed'), 'seed') ?? s.seed;
  const detectors = str(v, 'detectors');
  if (detectors !== undefined) s.detectors = parseDetectors(detectors);
  const ood = str(v, 'ood');
  if (ood !== undefined) s.oodSets = splitOodList(ood);
  s.headEpochs = intArg(str(v, 'head-epochs'), 'head-epochs', 1) ?? s.headEpochs;
  s.marginIn = numberArg(str(v, 'margin-in'), 'margin-in') ?? s.marginIn;
  s.marginOut = numberArg(str(v, 'margin-out'), 'margin-out') ?? s.marginOut;
  return s;
}

/**
 * The lab's settings when the command runs as the lab does: with --config FILE / --link URL (their `openWorld`
 * section, under the flags given), or a command naming every setting (the one the lab shows). Null: the flags
 * route below (every run flag; omitted ones take the engine's defaults).
 */
export function oodLabSettings(v: Values): OpenWorldSettings | null {
  const config = loadExperimentConfig(v);
  const given = Object.keys(v).filter((k) => v[k] !== undefined);
  const others = given.filter((k) => !(OOD_SETTING_FLAGS as readonly string[]).includes(k) && !OTHER_OK.has(k));
  if (!config && !COMPLETE.every((k) => given.includes(k))) return null;
  if (others.length > 0) {
    if (!config) return null;
    throw new UsageError(
      `With --config / --link, cil-lab ood changes only the lab's settings (${OOD_SETTING_FLAGS.map((f) => `--${f}`).join(', ')}, --backend); not --${others[0]}.`,
    );
  }
  return oodSettingsOf(v, config ? openWorldOf(config) : OPEN_WORLD_DEFAULTS);
}

/** Run the lab's settings exactly as its job does (src/engine/ood/job.ts: the same `openWorldInput`). */
async function runLabSettings(s: OpenWorldSettings, v: Values, root: string): Promise<OodReport> {
  const errors = validateOpenWorldSettings(s);
  if (errors.length > 0) throw new UsageError(errors.join(' '));
  const backendArg = str(v, 'backend') ?? 'auto';
  if (backendArg !== 'auto' && !isBackendName(backendArg)) throw new UsageError(`Unknown --backend "${backendArg}": use wasm or cpu (or auto).`);
  const loaded = new Map<string, ImageDataset>();
  for (const id of datasetsNeeded(s)) loaded.set(id, await loadBuiltin(id, root));
  const { dataset, config } = openWorldInput(s, (id) => loaded.get(id) as ImageDataset);
  await selectBackend(backendArg as 'auto', { strict: backendArg !== 'auto' });
  const r = await runOpenWorld(dataset, config);
  return oodReport(r.steps, r, { dataset: s.dataset, head: config.head });
}

/** One seed: the run's report as before, with the verdict; several: every run, the reading over seeds and the verdict. */
function withVerdict(reports: readonly OodReport[]): string {
  const input = openWorldVerdictInput(reports);
  const verdict = openWorldVerdict(input).sentences;
  if (reports.length === 1) return JSON.stringify({ ...reports[0], verdict });
  return JSON.stringify({ runs: reports, summary: { seeds: input.runs.map((r) => r.seed), ...readOpenWorld(input) }, verdict });
}

/** The training seeds: `--seeds 0-2` without `--protocol` (with it, --seeds is the RS seed of the class order). */
function trainingSeeds(v: Values): number[] | null {
  const s = str(v, 'seeds');
  return s !== undefined && str(v, 'protocol') === undefined ? seedListArg(s) : null;
}

export async function oodCommand(v: Values, options: { root: string; onNote?: (note: string) => void }): Promise<string> {
  const lab = oodLabSettings(v);
  const seedList = trainingSeeds(v);
  if (lab) {
    const seeds = seedList ?? seedRange(lab.seed, lab.seeds ?? 1);
    const reports: OodReport[] = [];
    for (const seed of seeds) reports.push(await runLabSettings({ ...lab, seed, seeds: undefined }, v, options.root));
    return withVerdict(reports);
  }
  const datasetArg = str(v, 'dataset');
  if (!datasetArg) throw new UsageError(`Give --dataset: ${BUILTIN_DATASET_IDS.join(', ')}.`);
  const detectors = parseDetectors(str(v, 'detectors') ?? 'msp,energy,ber');
  const strategy = (str(v, 'strategy') ?? 'replay') as StrategyId;
  if (!STRATEGY_IDS.includes(strategy)) throw new UsageError(`Unknown --strategy "${strategy}": use ${STRATEGY_IDS.join(', ')}.`);
  const modelKind = str(v, 'model') ?? 'mlp';
  if (modelKind !== 'mlp' && modelKind !== 'cnn') throw new UsageError(`Unknown --model "${modelKind}": use mlp or cnn.`);
  const backendArg = str(v, 'backend') ?? 'auto';
  if (backendArg !== 'auto' && !isBackendName(backendArg)) throw new UsageError(`Unknown --backend "${backendArg}": use wasm or cpu (or auto).`);
  const head = str(v, 'head');
  if (head !== undefined && head !== 'seen' && head !== 'all') throw new UsageError(`Unknown --head "${head}": use seen or all.`);

  let ds = await loadBuiltin(datasetArg, options.root);
  const trainPerClass = intArg(str(v, 'train-per-class'), 'train-per-class', 1);
  const testPerClass = intArg(str(v, 'test-per-class'), 'test-per-class', 1);
  if (trainPerClass !== undefined || testPerClass !== undefined) ds = subsetPerClass(ds, { trainPerClass, testPerClass });
  const classArg = str(v, 'classes');
  const classes = classArg ? rangeListArg(classArg, 'classes') : ds.classNames.map((_, i) => i);
  const bad = classes.find((c) => c >= ds.classNames.length);
  if (bad !== undefined) throw new UsageError(`--classes: class ${bad} does not exist; the dataset has classes 0..${ds.classNames.length - 1}.`);
  if (new Set(classes).size !== classes.length) throw new UsageError('--classes lists a class twice.');
  const tasks = intArg(str(v, 'tasks'), 'tasks', 1);
  const taskSizes = intListArg(str(v, 'task-sizes'), 'task-sizes');
  if (tasks === undefined && !taskSizes) throw new UsageError('Give --tasks K or --task-sizes m1,m2,….');
  let sizes: number[];
  try {
    sizes = resolveTaskSizes(classes.length, { tasks, taskSizes });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  let order = classes.slice();
  const given = intListArg(str(v, 'order'), 'order');
  if (given) {
    if ([...given].sort((a, b) => a - b).join() !== [...classes].sort((a, b) => a - b).join())
      throw new UsageError(`--order must list each class of the run once (${classes.join(',')}).`);
    order = given;
  } else if (str(v, 'protocol') !== undefined) {
    if (str(v, 'protocol') !== 'rs') throw new UsageError('cil-lab ood supports --protocol rs (with one --seeds value) or --order.');
    const seeds = intListArg(str(v, 'seeds'), 'seeds') ?? [1993];
    if (seeds.length !== 1) throw new UsageError('cil-lab ood trains one ordering: give one --seeds value.');
    order = rsClassOrder(seeds[0], classes.length).map((i) => classes[i]);
  }
  const memory = intArg(str(v, 'memory'), 'memory', 1);
  if (memory !== undefined && !('memory' in STRATEGY_DEFAULTS[strategy]))
    throw new UsageError(`--memory applies to strategies with a memory, not ${strategy}.`);
  const hiddenArg = str(v, 'hidden');
  const train = {
    tasks: splitIntoTasks(order, sizes),
    seed: intArg(str(v, 'seed'), 'seed') ?? 0,
    strategy,
    strategyOptions: memory !== undefined ? { memory } : undefined,
    model:
      modelKind === 'mlp'
        ? { kind: 'mlp' as const, hidden: hiddenArg ? hiddenArg.split(',').map((s) => Number(s.trim())) : undefined }
        : { kind: 'cnn' as const },
    epochs: intArg(str(v, 'epochs'), 'epochs', 0),
    firstTaskEpochs: intArg(str(v, 'first-epochs'), 'first-epochs', 0),
    lr: numberArg(str(v, 'lr'), 'lr'),
    batchSize: intArg(str(v, 'batch-size'), 'batch-size', 1),
    augment: augmentFor(v, datasetArg),
    head: head as 'seen' | 'all' | undefined,
  } as TrainRunConfig;

  // OOD sets
  const defaultOod = [
    ...(classes.length < ds.classNames.length
      ? [
          `${datasetArg}:${ds.classNames
            .map((_, i) => i)
            .filter((c) => !classes.includes(c))
            .join(',')}`,
        ]
      : []),
    datasetArg === 'digits' ? 'fashion-mnist' : 'digits',
  ].join(',');
  const specs = splitOodList(str(v, 'ood') ?? defaultOod);
  if (specs.length === 0) throw new UsageError('--ood is empty: give OOD sets like digits,fashion-mnist:6-9.');
  const oodSets: OodSet[] = [];
  const sources = new Map<string, ImageDataset>([[datasetArg, ds]]);
  try {
    for (const text of specs) {
      const spec = parseOodSpec(text);
      // the OOD set's source: the full built-in dataset (not the --train/test-per-class subset)
      if (!sources.has(`full:${spec.dataset}`)) sources.set(`full:${spec.dataset}`, await loadBuiltin(spec.dataset, options.root));
      oodSets.push(buildOodSet(spec, sources.get(`full:${spec.dataset}`) as ImageDataset, ds, spec.dataset === datasetArg, classes));
    }
  } catch (e) {
    if (e instanceof OodSpecError) throw new UsageError(e.message);
    throw e;
  }

  const headSettings: Partial<HeadSettings> = {};
  const headEpochs = intArg(str(v, 'head-epochs'), 'head-epochs', 0);
  if (headEpochs !== undefined) headSettings.epochs = headEpochs;
  const headLr = numberArg(str(v, 'head-lr'), 'head-lr');
  if (headLr !== undefined) {
    if (!(headLr > 0)) throw new UsageError(`--head-lr must be > 0; got ${headLr}.`);
    headSettings.lr = headLr;
  }
  const mIn = numberArg(str(v, 'margin-in'), 'margin-in');
  const mOut = numberArg(str(v, 'margin-out'), 'margin-out');
  if (mIn !== undefined) headSettings.marginIn = mIn;
  if (mOut !== undefined) headSettings.marginOut = mOut;

  await selectBackend(backendArg as 'auto', { strict: backendArg !== 'auto' });
  const reports: OodReport[] = [];
  for (const seed of seedList ?? [train.seed]) {
    const r = await runOpenWorld(ds, { train: { ...train, seed }, oodSets, detectors, head: headSettings, seed: intArg(str(v, 'ood-seed'), 'ood-seed') });
    reports.push(oodReport(r.steps, r, { dataset: datasetArg, head: headSettings }));
  }
  return withVerdict(reports);
}
