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
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DETECTOR_IDS, HEAD_DEFAULTS, isDetectorId, type DetectorId, type HeadSettings } from '../core/ood/detectors';
import { resolveTaskSizes } from '../core/orderings/task-sizes';
import { splitIntoTasks } from '../core/orderings/key';
import { rsClassOrder } from '../core/protocols/rs';
import { BUILTIN_DATASET_IDS, loadBuiltinDataset } from '../data/registry';
import { isBackendName, selectBackend } from '../engine/backend';
import { fromDecodedDataset, subsetPerClass } from '../engine/dataset';
import { STRATEGY_DEFAULTS, STRATEGY_IDS, type StrategyId } from '../engine/defaults';
import { buildOodSet, OodSpecError, parseOodSpec, type OodSet } from '../engine/ood/ood-data';
import { oodReport } from '../engine/ood/report';
import { runOpenWorld } from '../engine/ood/run';
import type { ImageDataset, TrainRunConfig } from '../engine/types';
import { UsageError, intArg, intListArg, numberArg, rangeListArg } from './args';
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

export async function oodCommand(v: Values, options: { root: string; onNote?: (note: string) => void }): Promise<string> {
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
    if ([...given].sort((a, b) => a - b).join() !== [...classes].sort((a, b) => a - b).join()) throw new UsageError(`--order must list each class of the run once (${classes.join(',')}).`);
    order = given;
  } else if (str(v, 'protocol') !== undefined) {
    if (str(v, 'protocol') !== 'rs') throw new UsageError('cil-lab ood supports --protocol rs (with one --seeds value) or --order.');
    const seeds = intListArg(str(v, 'seeds'), 'seeds') ?? [1993];
    if (seeds.length !== 1) throw new UsageError('cil-lab ood trains one ordering: give one --seeds value.');
    order = rsClassOrder(seeds[0], classes.length).map((i) => classes[i]);
  }
  const memory = intArg(str(v, 'memory'), 'memory', 1);
  if (memory !== undefined && !('memory' in STRATEGY_DEFAULTS[strategy])) throw new UsageError(`--memory applies to strategies with a memory, not ${strategy}.`);
  const hiddenArg = str(v, 'hidden');
  const train = {
    tasks: splitIntoTasks(order, sizes),
    seed: intArg(str(v, 'seed'), 'seed') ?? 0,
    strategy,
    strategyOptions: memory !== undefined ? { memory } : undefined,
    model: modelKind === 'mlp' ? { kind: 'mlp' as const, hidden: hiddenArg ? hiddenArg.split(',').map((s) => Number(s.trim())) : undefined } : { kind: 'cnn' as const },
    epochs: intArg(str(v, 'epochs'), 'epochs', 0),
    firstTaskEpochs: intArg(str(v, 'first-epochs'), 'first-epochs', 0),
    lr: numberArg(str(v, 'lr'), 'lr'),
    batchSize: intArg(str(v, 'batch-size'), 'batch-size', 1),
    augment: augmentFor(v, datasetArg),
    head: head as 'seen' | 'all' | undefined,
  } as TrainRunConfig;

  // OOD sets
  const defaultOod = [
    ...(classes.length < ds.classNames.length ? [`${datasetArg}:${ds.classNames.map((_, i) => i).filter((c) => !classes.includes(c)).join(',')}`] : []),
    datasetArg === 'digits' ? 'fashion-mnist' : 'digits',
  ].join(',');
  const specs = (str(v, 'ood') ?? defaultOod).split(',').reduce<string[]>((acc, part) => {
    // "fashion-mnist:6,7" splits on the comma: a bare number continues the previous set's class list
    if (/^\s*\d+(-\d+)?\s*$/.test(part) && acc.length > 0 && acc[acc.length - 1].includes(':')) acc[acc.length - 1] += `,${part.trim()}`;
    else if (part.trim()) acc.push(part.trim());
    return acc;
  }, []);
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
  const r = await runOpenWorld(ds, { train, oodSets, detectors, head: headSettings, seed: intArg(str(v, 'ood-seed'), 'ood-seed') });
  return JSON.stringify(oodReport(r.steps, r, { dataset: datasetArg, head: headSettings }));
}
