/**
 * `cil-lab ood <the flags of run> --ood digits,fashion-mnist:6-9 --detectors msp,energy,ber,…`: the Open-world lab
 * headless (docs/science.md §5; src/engine/ood). Trains one class-incremental run and, after every step, scores the
 * ID test data of the tasks so far against a growing share of each OOD set with every detector. As the lab ("app and
 * CLI give the same numbers"): with `--config FILE` / `--link URL`, or a command naming every lab setting (the one the
 * lab shows under its Run button, src/services/ood-export.ts), the lab's settings run through the worker's own
 * `openWorldInput`. Flags and output: the command's help (`cil-lab ood --help`) and `oodCommand`.
 */
import { getClassList } from '../core/classes/builtin';
import { UINT32_MAX } from '../core/config/checker';
import { CONFIG_LIMITS } from '../core/config/limits';
import { openWorldLab } from '../core/labs/open-world';
import { flagNames } from '../core/config/settings-table';
import {
  OPEN_WORLD_DATASETS,
  OPEN_WORLD_DEFAULTS,
  OPEN_WORLD_SETTINGS,
  openWorldIssues,
  type OpenWorldIssue,
  type OpenWorldSettings,
} from '../core/labs/open-world/settings';
import { DETECTOR_IDS, HEAD_DEFAULTS, isDetectorId, type DetectorId, type HeadSettings } from '../core/ood/detectors';
import { splitIntoTasks } from '../core/orderings/key';
import { rsClassOrder } from '../core/protocols/rs';
import { subsetPerClass } from '../engine/dataset';
import { STRATEGY_IDS, type StrategyId } from '../engine/defaults';
import { buildOodSet, OodSpecError, parseOodSpec, type OodSet } from '../engine/ood/ood-data';
import { datasetsNeeded, openWorldInput } from '../engine/ood/from-settings';
import { oodReport, oodSeedsOutput, type OodReport } from '../engine/ood/report';
import { seedListArg, seedRange } from './seeds';
import { runOpenWorld } from '../engine/ood/run';
import type { ImageDataset, TrainRunConfig } from '../engine/types';
import { backendArg, intArg, intListArg, nameListArg, numberArg, rangeListArg, str, taskSizesArg, refuseUnused, UsageError } from './args';
import { selectCliBackend } from './backend';
import { loadExperimentConfig } from './config-args';
import { loadBuiltinImages } from './inputs';
import type { Flag } from './flags';
import { fieldHelp, readSettingFlags } from './lab-flags';
import { checkAsLink, TRAINING_FLAGS } from './link-check';
import { augmentFor, trainingFields } from './run';

type Values = Record<string, string | boolean | undefined>;

/** The ID datasets of the lab (and of this command): the built-in image datasets. */
function idDataset(id: string): OpenWorldSettings['dataset'] {
  if (!(OPEN_WORLD_DATASETS as readonly string[]).includes(id))
    throw new UsageError(`"${id.slice(0, 40)}" is not a built-in image dataset: cil-lab ood uses ${OPEN_WORLD_DATASETS.join(', ')}.`);
  return id as OpenWorldSettings['dataset'];
}

const classCount = (dataset: OpenWorldSettings['dataset']): number => getClassList(dataset === 'digits' ? 'mnist' : dataset).classes.length;

/** The flag each Open-world setting comes from, for messages that name it (its table's; the seeds' and the margins' here). */
const FLAG_OF_SETTING: Record<OpenWorldIssue['field'], string> = {
  ...(Object.fromEntries(Object.entries(OPEN_WORLD_SETTINGS).map(([k, f]) => [k, `--${'flag' in f ? f.flag : k}`])) as Record<OpenWorldIssue['field'], string>),
  // --protocol rs takes the class order's seed from --seeds; --seeds a-b is the training seeds
  orderSeed: '--seeds',
  seeds: '--seeds',
  // their check is one, of the pair
  marginIn: '--margin-in / --margin-out',
  marginOut: '--margin-in / --margin-out',
};

/** The lab's checker (src/core/labs/open-world/settings.ts, the share link's) on `s`; the first problem (of `fields`) names its flag. */
function checkSettings(s: OpenWorldSettings, fields?: readonly OpenWorldIssue['field'][]): void {
  const issue = openWorldIssues(s).find((i) => !fields || fields.includes(i.field));
  if (issue) throw new UsageError(`${FLAG_OF_SETTING[issue.field]}: ${issue.message}`);
}

function parseDetectors(text: string): DetectorId[] {
  const out = nameListArg(text.toLowerCase(), 'detectors', CONFIG_LIMITS.detectors);
  for (const d of out) if (!isDetectorId(d)) throw new UsageError(`Unknown detector "${d.slice(0, 40)}": use ${DETECTOR_IDS.join(', ')}.`);
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

/**
 * The flags that are Open-world lab settings: each field's in its table (src/core/labs/open-world/settings.ts), --protocol rs with
 * the class order's seed in --seeds; `--backend` is allowed besides them.
 */
export const OOD_SETTING_FLAGS: readonly Flag[] = flagNames(OPEN_WORLD_SETTINGS).flatMap((f): Flag[] => (f === 'protocol' ? ['protocol', 'seeds'] : [f]));
/**
 * A command naming all of these runs exactly as the lab does (the command the lab shows names them all): the flags
 * every lab command has named, so a setting added later is read where given and takes its absent value where not.
 */
const COMPLETE = ['dataset', 'classes', 'tasks', 'strategy', 'epochs', 'hidden', 'seed', 'detectors', 'ood', 'head-epochs', 'margin-in', 'margin-out'];
const OTHER_OK = new Set(['backend', 'config', 'link']);

/** With --protocol rs, --seeds is the one RS seed of the class order (default 1993). */
function rsSeed(v: Values): number {
  const text = str(v, 'seeds');
  const seeds = text === undefined ? [1993] : seedListArg(text, 'seeds', CONFIG_LIMITS.rsSeeds);
  if (seeds.length !== 1) throw new UsageError('cil-lab ood trains one ordering: give one --seeds value.');
  return seeds[0];
}

/**
 * The lab's settings of `base` (a config's `openWorld`, or the lab's defaults) with the flags given applied, each the
 * flag of its field (OPEN_WORLD_SETTINGS), in the table's order; these the command reads in its own words.
 */
const OWN_READERS = {
  dataset: (v: Values) => {
    const dataset = str(v, 'dataset');
    return dataset === undefined ? undefined : idDataset(dataset);
  },
  classes: (v: Values, s: OpenWorldSettings) => {
    const classes = str(v, 'classes');
    const out = classes === undefined ? undefined : rangeListArg(classes, 'classes', classCount(s.dataset), s.dataset);
    if (str(v, 'task-sizes') !== undefined) throw new UsageError('The lab splits the classes into equal tasks: give --tasks K, not --task-sizes.');
    return out;
  },
  orderSeed: (v: Values) => {
    const protocol = str(v, 'protocol');
    if (protocol === undefined) return undefined;
    if (protocol !== 'rs') throw new UsageError('The lab orders classes ascending (no --protocol) or by RS (--protocol rs --seeds S).');
    return rsSeed(v);
  },
  // any word: the lab's check names the strategies
  strategy: (v: Values) => str(v, 'strategy'),
  detectors: (v: Values) => {
    const detectors = str(v, 'detectors');
    return detectors === undefined ? undefined : parseDetectors(detectors);
  },
  oodSets: (v: Values) => {
    const ood = str(v, 'ood');
    return ood === undefined ? undefined : splitOodList(ood);
  },
};

export function oodSettingsOf(v: Values, base: OpenWorldSettings = OPEN_WORLD_DEFAULTS): OpenWorldSettings {
  return readSettingFlags(OPEN_WORLD_SETTINGS, v, structuredClone(base), OWN_READERS).settings;
}

/** What `cil-lab ood --help` adds: each lab setting's flag with its bounds. */
export const OOD_DETAILS = `the lab's settings (with --config / --link, or all of them: the command the lab shows):
${fieldHelp(OPEN_WORLD_SETTINGS, {}, 20)}`;

/**
 * The lab's settings when the command runs as the lab does: with --config FILE / --link URL (the lab's settings of
 * that experiment, the lab entry's `view`: its section and the common sections, under the flags given), or a command naming every setting (the one the lab shows). Null: the flags
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
  // the lab's ID experiment is the config's common sections: what the lab cannot train there is refused, not replaced
  if (config) refuseUnused(openWorldLab.labName, openWorldLab.tab.unused(config));
  return oodSettingsOf(v, config ? openWorldLab.view(config) : OPEN_WORLD_DEFAULTS);
}

/** Run the lab's settings exactly as its job does (src/engine/ood/job.ts: the same `openWorldInput`). */
async function runLabSettings(s: OpenWorldSettings, v: Values, root: string): Promise<OodReport> {
  checkSettings(s);
  const backend = backendArg(v);
  const loaded = new Map<string, ImageDataset>();
  for (const id of datasetsNeeded(s)) loaded.set(id, await loadBuiltinImages(id, root, '--ood'));
  const { dataset, config } = openWorldInput(s, (id) => loaded.get(id) as ImageDataset);
  await selectCliBackend(backend);
  const r = await runOpenWorld(dataset, config);
  return oodReport(r.steps, r, { dataset: s.dataset, head: config.head });
}

/** One seed: the run's report as before, with the verdict; several: every run, the reading over seeds and the verdict. */
function withVerdict(reports: readonly OodReport[]): string {
  return JSON.stringify(oodSeedsOutput(reports));
}

/** The training seeds: `--seeds 0-2` without `--protocol` (with it, --seeds is the RS seed of the class order). */
function trainingSeeds(v: Values): number[] | null {
  const s = str(v, 'seeds');
  return s !== undefined && str(v, 'protocol') === undefined ? seedListArg(s) : null;
}

/**
 * Runs the command. Run flags supported: --dataset (built-in), --classes, --tasks/--task-sizes, --order or --protocol
 * rs --seeds S (one seed), --strategy, --memory, --model, --hidden, --epochs, --first-epochs, --lr, --batch-size,
 * --seed, --backend, --train-per-class, --test-per-class, --augment, --head. OOD flags: --ood (a comma list of
 * dataset ids, optionally with classes; default: the ID dataset's held-out classes and digits, or fashion-mnist when
 * the ID data is digits), --detectors (default msp,energy,ber), --head-epochs, --head-lr, --margin-in, --margin-out,
 * --ood-seed. Prints `{"results": [{step, detector, oodSet, auroc, fpr95, auprIn, auprOut, idCount, oodCount}],
 * "accuracy": [per step], "summary": [per detector: per-set means over steps, then the mean over sets], "steps": [per
 * step: confidence per task and OOD set, OOD assignment per task, seconds per detector], "oodSets", "backend",
 * "seconds", "config"}`.
 */
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
  if (!datasetArg) throw new UsageError(`Give --dataset: ${OPEN_WORLD_DATASETS.join(', ')}.`);
  const dataset = idDataset(datasetArg);
  const detectors = parseDetectors(str(v, 'detectors') ?? 'msp,energy,ber');
  const strategy = (str(v, 'strategy') ?? 'replay') as StrategyId;
  if (!STRATEGY_IDS.includes(strategy)) throw new UsageError(`Unknown --strategy "${strategy.slice(0, 40)}": use ${STRATEGY_IDS.join(', ')}.`);
  const backend = backendArg(v);
  const head = str(v, 'head');
  if (head !== undefined && head !== 'seen' && head !== 'all') throw new UsageError(`Unknown --head "${head.slice(0, 40)}": use seen or all.`);

  // every flag checked, bounds included, before any data is read: the training flags as a link's config, the OOD
  // flags by the lab's own checker
  const nClasses = classCount(dataset);
  const classArg = str(v, 'classes');
  const classes = classArg !== undefined ? rangeListArg(classArg, 'classes', nClasses, dataset) : [...Array(nClasses).keys()];
  const sizes = taskSizesArg(v, classes.length);
  const fields = trainingFields(v, [strategy], false);
  checkAsLink({ lab: 'ground-truth', dataset: { id: dataset }, classes, taskSizes: sizes, ...fields }, TRAINING_FLAGS);
  const defaultOod = [
    ...(classes.length < nClasses ? [`${dataset}:${[...Array(nClasses).keys()].filter((c) => !classes.includes(c)).join(',')}`] : []),
    dataset === 'digits' ? 'fashion-mnist' : 'digits',
  ].join(',');
  const specs = splitOodList(str(v, 'ood') ?? defaultOod);
  if (specs.length === 0) throw new UsageError('--ood is empty: give OOD sets like digits,fashion-mnist:6-9.');
  const headEpochs = intArg(str(v, 'head-epochs'), 'head-epochs', 1);
  const mIn = numberArg(str(v, 'margin-in'), 'margin-in');
  const mOut = numberArg(str(v, 'margin-out'), 'margin-out');
  checkSettings(
    {
      ...OPEN_WORLD_DEFAULTS,
      dataset,
      classes,
      tasks: 1,
      detectors,
      oodSets: specs,
      headEpochs: headEpochs ?? HEAD_DEFAULTS.epochs,
      marginIn: mIn ?? HEAD_DEFAULTS.marginIn,
      marginOut: mOut ?? HEAD_DEFAULTS.marginOut,
      // the lab's bound on its model applies to the MLP here too (a CNN has the bound of every lab, checked above)
      hidden: fields.model && (fields.model as { kind: string }).kind === 'mlp' ? ((fields.model as { hidden?: number[] }).hidden ?? [256, 128]) : [],
    },
    ['detectors', 'oodSets', 'headEpochs', 'marginIn', 'marginOut', 'hidden'],
  );
  const headLr = numberArg(str(v, 'head-lr'), 'head-lr', { min: 0, max: CONFIG_LIMITS.lr, exclusiveMin: true });
  const oodSeed = intArg(str(v, 'ood-seed'), 'ood-seed', 0, UINT32_MAX);

  let ds = await loadBuiltinImages(dataset, options.root);
  const data = fields.data as { trainPerClass: number | null; testPerClass: number | null };
  if (data.trainPerClass !== null || data.testPerClass !== null)
    ds = subsetPerClass(ds, { trainPerClass: data.trainPerClass ?? undefined, testPerClass: data.testPerClass ?? undefined });
  let order = classes.slice();
  const given = intListArg(str(v, 'order'), 'order');
  if (given) {
    if ([...given].sort((a, b) => a - b).join() !== [...classes].sort((a, b) => a - b).join())
      throw new UsageError(`--order must list each class of the run once (${classes.join(',')}).`);
    order = given;
  } else if (str(v, 'protocol') !== undefined) {
    if (str(v, 'protocol') !== 'rs') throw new UsageError('cil-lab ood supports --protocol rs (with one --seeds value) or --order.');
    order = rsClassOrder(rsSeed(v), classes.length).map((i) => classes[i]);
  }
  const training = fields.training as { epochs?: number; firstTaskEpochs?: number; lr?: number; batchSize?: number };
  const model = fields.model as TrainRunConfig['model'];
  const memory = ((fields.strategies as { options: { memory?: number } }[])[0].options.memory as number | undefined) ?? undefined;
  if (str(v, 'memory') !== undefined && memory === undefined) throw new UsageError(`--memory applies to strategies with a memory, not ${strategy}.`);
  const train = {
    tasks: splitIntoTasks(order, sizes),
    seed: (fields.seeds as number[])[0],
    strategy,
    strategyOptions: memory !== undefined ? { memory } : undefined,
    model,
    epochs: training.epochs,
    firstTaskEpochs: training.firstTaskEpochs,
    lr: training.lr,
    batchSize: training.batchSize,
    augment: augmentFor(v, dataset),
    head: head as 'seen' | 'all' | undefined,
  } as TrainRunConfig;

  const oodSets: OodSet[] = [];
  const sources = new Map<string, ImageDataset>([[dataset, ds]]);
  try {
    for (const text of specs) {
      const spec = parseOodSpec(text);
      // the OOD set's source: the full built-in dataset (not the --train/test-per-class subset)
      if (!sources.has(`full:${spec.dataset}`)) sources.set(`full:${spec.dataset}`, await loadBuiltinImages(spec.dataset, options.root, '--ood'));
      oodSets.push(buildOodSet(spec, sources.get(`full:${spec.dataset}`) as ImageDataset, ds, spec.dataset === dataset, classes));
    }
  } catch (e) {
    if (e instanceof OodSpecError) throw new UsageError(e.message);
    throw e;
  }

  const headSettings: Partial<HeadSettings> = {};
  if (headEpochs !== undefined) headSettings.epochs = headEpochs;
  if (headLr !== undefined) headSettings.lr = headLr;
  if (mIn !== undefined) headSettings.marginIn = mIn;
  if (mOut !== undefined) headSettings.marginOut = mOut;

  await selectCliBackend(backend);
  const reports: OodReport[] = [];
  for (const seed of seedList ?? [train.seed]) {
    const r = await runOpenWorld(ds, { train: { ...train, seed }, oodSets, detectors, head: headSettings, seed: oodSeed });
    reports.push(oodReport(r.steps, r, { dataset, head: headSettings }));
  }
  return withVerdict(reports);
}
