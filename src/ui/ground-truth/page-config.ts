/**
 * The Ground-truth page's inputs ⇄ the app's experiment config (src/core/config/schema.ts), both ways, pure (tested
 * in tests/unit/ui/ground-truth-page-config.test.ts). The app has one experiment (src/services/share-link.svelte.ts):
 * the Orderings and Ground-truth labs read it and fold their inputs back into it, so a link copied on either tab
 * opens the same experiment, and the lab's stored runs (IndexedDB, keyed by `groundTruthRunHash`) come back with it.
 */
import { getClassList } from '../../core/classes/builtin';
import { isPtmStrategyId } from '../../core/ptm/defaults';
import { featuresOf, withFeatureSource } from '../../core/config/sections/features';
import {
  CONFIG_STRATEGY_IDS,
  STRATEGY_OPTION_FILL,
  V1_FILL,
  datasetHasImages,
  defaultConfig,
  validateConfig,
  type BuiltinDatasetRef,
  type ConfigStrategyId,
  type ExperimentConfig,
  type FeaturesConfig,
  type StrategySetting,
} from '../../core/config/schema';
import { configHash } from '../../core/config/url-codec';
import { BUILTIN_DATASETS, type BuiltinDatasetId } from '../../data/registry';

export type AccuracyChoice = ExperimentConfig['ui']['accuracy'];
export type TrainBackend = ExperimentConfig['backend']['train'];

/** The training settings the page's controls and its resolved state hold alike. */
interface TrainingFields {
  epochs: number;
  lr: number;
  batchSize: number;
  trainPerClass: number | null;
  testPerClass: number | null;
  backend: TrainBackend;
  accuracy: AccuracyChoice;
  /** ui.selectedOrdering: an ordering key over dataset class indices, or null. */
  selectedOrdering: string | null;
}

/** The page's controls. */
export interface GroundTruthInputs extends TrainingFields {
  /** a built-in image dataset, or a built-in list of names on cached features (`trainsOnCachedFeatures`) */
  datasetId: BuiltinDatasetRef;
  /** The config's dataset when this lab cannot train on it (its name, e.g. "cifar100"); null when it can. */
  foreignDataset: string | null;
  selected: number[];
  tasks: number;
  /** '' when the tasks are equal (then `tasks` says how many). */
  sizesText: string;
  /** every strategy id, the pre-trained methods (simplecil, ranpac, fecam) with them: they run on features only */
  chosen: Record<ConfigStrategyId, boolean>;
  /** where the feature vectors come from (the config's `features`; pixels when absent) */
  features: FeaturesConfig;
  /** SimpleCIL's and RanPAC's first-session layer width (0: they do not adapt) */
  firstSession: number;
  budget: number;
  sampleSeed: number;
  seedsText: string;
  rsSeedsText: string;
  /** MLP or head hidden widths ("256, 128"; "" a linear head); null when the model is a CNN (from a config file). */
  hiddenText: string | null;
}

const FALLBACK_DATASET: BuiltinDatasetId = 'fashion-mnist';

function isImageDataset(id: string): id is BuiltinDatasetId {
  return BUILTIN_DATASETS.some((d) => d.id === id);
}

/** The first (up to) 6 classes of a built-in image dataset: what picking it selects. */
export function firstClassesOf(id: BuiltinDatasetId): number[] {
  const d = BUILTIN_DATASETS.find((x) => x.id === id) ?? BUILTIN_DATASETS[0];
  const n = getClassList(d.classListId).classes.length;
  return Array.from({ length: Math.min(6, n) }, (_, i) => i);
}

/**
 * Whether a config's feature vectors come from the feature cache (an image encoder's or an upload's): then the lab
 * needs no images of its own, and a built-in list of names (CIFAR-100 loaded in the Data tab) trains as well.
 */
export function trainsOnCachedFeatures(config: ExperimentConfig): boolean {
  const f = featuresOf(config).source;
  return f === 'encoder' || f === 'upload';
}

/** The first-session width of a config's SimpleCIL or RanPAC (the page sets both alike), 0 when neither adapts. */
export function firstSessionOf(config: ExperimentConfig): number {
  for (const x of config.strategies) {
    const w = (x.options as { firstSession?: number }).firstSession;
    if ((x.id === 'simplecil' || x.id === 'ranpac') && w) return w;
  }
  return 0;
}

/**
 * The page's controls for a config. A dataset the lab cannot train on (names only, e.g. CIFAR-100 chosen in the
 * Orderings lab, while the experiment trains on pixels or the embedded backbone) is reported in `foreignDataset`,
 * and the controls fall back to Fashion-MNIST's classes without writing them (the config keeps its dataset until the
 * user picks one here). A built-in list of names whose feature vectors come from the feature cache trains.
 */
export function inputsFromConfig(config: ExperimentConfig): GroundTruthInputs {
  const dsId = config.dataset.id;
  const trainable = dsId !== 'custom' && ((isImageDataset(dsId) && datasetHasImages(dsId as BuiltinDatasetRef)) || trainsOnCachedFeatures(config));
  const datasetId: BuiltinDatasetRef = trainable ? (dsId as BuiltinDatasetRef) : FALLBACK_DATASET;
  const sizes = trainable ? config.taskSizes : [2, 2, 2];
  const equal = sizes.length > 0 && sizes.every((m) => m === sizes[0]);
  const ids = new Set(config.strategies.map((s) => s.id));
  const t = config.training;
  return {
    datasetId,
    foreignDataset: trainable ? null : dsId,
    selected: trainable ? config.classes.slice() : firstClassesOf(FALLBACK_DATASET),
    tasks: Math.max(1, sizes.length),
    sizesText: equal ? '' : sizes.join(','),
    chosen: Object.fromEntries(CONFIG_STRATEGY_IDS.map((id) => [id, ids.has(id)])) as Record<ConfigStrategyId, boolean>,
    features: featuresOf(config),
    firstSession: firstSessionOf(config),
    budget: config.groundTruth.budget,
    sampleSeed: config.groundTruth.sampleSeed,
    seedsText: config.seeds.join(', '),
    rsSeedsText: config.protocols.rsSeeds.join(', '),
    hiddenText: config.model.kind === 'cnn' ? null : config.model.hidden.join(', '),
    epochs: t.epochs,
    lr: t.lr,
    batchSize: t.batchSize,
    trainPerClass: config.data.trainPerClass,
    testPerClass: config.data.testPerClass,
    backend: config.backend.train,
    accuracy: config.ui.accuracy,
    selectedOrdering: trainable ? config.ui.selectedOrdering : null,
  };
}

/** A fingerprint of what the page shows of a config: the page re-reads its inputs when another lab changes it. */
export function inputsKey(config: ExperimentConfig): string {
  return JSON.stringify(inputsFromConfig(config));
}

/** The page's current inputs, resolved; null parts are invalid right now (the config keeps what it had). */
export interface GroundTruthState extends TrainingFields {
  /** null: the user has not picked a dataset this lab can train on (the config's dataset, classes and tasks stay). */
  datasetId: BuiltinDatasetRef | null;
  classes: number[];
  /** null while the classes or task sizes are invalid (then dataset, classes and tasks all stay as they were). */
  taskSizes: number[] | null;
  strategies: ConfigStrategyId[];
  features: FeaturesConfig;
  /** null while the typed width is invalid */
  firstSession: number | null;
  budget: number;
  sampleSeed: number;
  seeds: number[] | null;
  rsSeeds: number[] | null;
  /** null: invalid right now, or the model is a CNN (it stays as it is). */
  hidden: number[] | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One part of the config the page writes; each returns the changed config (a fresh copy). */
type Part = (c: ExperimentConfig, s: GroundTruthState) => ExperimentConfig;

const PARTS: Part[] = [
  // dataset, classes and task sizes move together (and a selected ordering that no longer fits is dropped)
  (c, s) => {
    if (!s.datasetId || !s.taskSizes || s.taskSizes.length === 0) return c;
    const classes = [...new Set(s.classes)].sort((a, b) => a - b);
    const next = { ...c, dataset: { id: s.datasetId } as ExperimentConfig['dataset'], classes, taskSizes: s.taskSizes.slice() };
    if (!same([next.dataset, next.classes, next.taskSizes], [c.dataset, c.classes, c.taskSizes])) next.ui = { ...c.ui, selectedOrdering: null };
    return next;
  },
  // the feature source; the model follows it (the head trains on features, the MLP on pixels), and the pre-trained
  // methods, which need features, leave with them
  (c, s) => {
    return same(featuresOf(c), s.features) ? c : withFeatureSource(c, s.features);
  },
  // strategies: the same set keeps the config's order and options; a new one gets the engine's defaults
  (c, s) => {
    const want = CONFIG_STRATEGY_IDS.filter((id) => s.strategies.includes(id) && (featuresOf(c).source !== 'pixels' || !isPtmStrategyId(id)));
    if (want.length === 0 || same([...want].sort(), c.strategies.map((x) => x.id).sort())) return c;
    const strategies = want.map((id) => c.strategies.find((x) => x.id === id) ?? ({ id, options: { ...STRATEGY_OPTION_FILL[id] } } as StrategySetting));
    return { ...c, strategies: structuredClone(strategies) };
  },
  // SimpleCIL's and RanPAC's first-session adaptation: one width for both (absent when 0, as the config keeps it)
  (c, s) => {
    if (s.firstSession === null || s.firstSession === firstSessionOf(c)) return c;
    const width = s.firstSession;
    const strategies = c.strategies.map((x) => {
      if (x.id !== 'simplecil' && x.id !== 'ranpac') return x;
      const { firstSession: _off, ...rest } = x.options as unknown as Record<string, unknown>;
      return { ...x, options: width > 0 ? { ...rest, firstSession: width } : rest } as unknown as StrategySetting;
    });
    return { ...c, strategies };
  },
  (c, s) => ({ ...c, groundTruth: { budget: s.budget, sampleSeed: s.sampleSeed } }),
  (c, s) => (s.seeds && s.seeds.length > 0 ? { ...c, seeds: s.seeds.slice() } : c),
  (c, s) => (s.rsSeeds && s.rsSeeds.length > 0 ? { ...c, protocols: { ...c.protocols, rsSeeds: s.rsSeeds.slice() } } : c),
  (c, s) => (s.hidden && c.model.kind !== 'cnn' ? { ...c, model: { kind: c.model.kind, hidden: s.hidden.slice() } } : c),
  // one "epochs per task" control: the first task follows it while the config had them equal
  (c, s) => {
    const t = c.training;
    const firstTaskEpochs = t.firstTaskEpochs === t.epochs ? s.epochs : t.firstTaskEpochs;
    return { ...c, training: { ...t, epochs: s.epochs, firstTaskEpochs, lr: s.lr, batchSize: s.batchSize } };
  },
  (c, s) => ({ ...c, data: { trainPerClass: s.trainPerClass, testPerClass: s.testPerClass } }),
  (c, s) => ({ ...c, backend: { ...c.backend, train: s.backend } }),
  (c, s) => ({ ...c, ui: { ...c.ui, accuracy: s.accuracy } }),
];
/** Last: the chosen ordering (refused, so left null, when it does not fit the classes and tasks written before it). */
const SELECTION: Part = (c, s) => ({ ...c, ui: { ...c.ui, selectedOrdering: s.selectedOrdering } });

/**
 * The config with all the page's inputs in, the chosen ordering aside (not validated: the page shows the errors next
 * to its controls, and runs this config when there are none).
 */
export function applyGroundTruthState(config: ExperimentConfig, s: GroundTruthState): ExperimentConfig {
  return PARTS.reduce((c, part) => part(c, s), structuredClone(config));
}

/**
 * The config with every part of the page's inputs (experiment, strategies, budget, seeds, model, training, data,
 * backend, what is shown) that is valid right now; an invalid part (an epoch count of 0, a half-typed seed list)
 * keeps the config's values, so the rest still reaches the link and the link always opens. What the page does not
 * show (similarity, protocols other than the RS seeds, conformal settings, strategy options, the first task's epochs
 * when they differ) is carried over unchanged.
 */
export function foldGroundTruthState(config: ExperimentConfig, s: GroundTruthState): ExperimentConfig {
  let current = structuredClone(config);
  for (const part of [...PARTS, SELECTION]) {
    const next = part(current, s);
    if (next === current) continue;
    const r = validateConfig(next);
    if (r.errors.length === 0) current = r.config;
  }
  return current;
}

/** What every store key of the lab starts from: the v1 fill-ins, the lab, and the experiment's data, classes and tasks. */
function keyBase(c: ExperimentConfig): ExperimentConfig {
  return { ...defaultConfig(), lab: 'ground-truth', dataset: c.dataset, classes: c.classes, taskSizes: c.taskSizes };
}

/**
 * The config the lab trains and stores its runs under: only what it uses, the rest at the v1 fill-ins (so the lab
 * shown, the protocols the Orderings lab lists and its S-histogram sample, the Forgetting lab's settings, and any
 * field added later do not change it; the strategies in one fixed order). The RS seeds and EDGE's median seed stay:
 * they choose orderings that are trained.
 */
export function groundTruthRunConfig(config: ExperimentConfig): ExperimentConfig {
  const c = structuredClone(config);
  return {
    ...keyBase(c),
    similarity: c.similarity,
    protocols: { ...structuredClone(V1_FILL.protocols), rsSeeds: c.protocols.rsSeeds, medianSeed: c.protocols.medianSeed } as ExperimentConfig['protocols'],
    groundTruth: c.groundTruth,
    model: c.model,
    strategies: CONFIG_STRATEGY_IDS.flatMap((id) => c.strategies.filter((s) => s.id === id)),
    training: c.training,
    data: c.data,
    seeds: c.seeds,
    // absent for pixels, so the keys of every experiment before the features section stay as they were
    ...(c.features ? { features: c.features } : {}),
  };
}

/** The key of the lab's stored runs for a config (IndexedDB, src/services/results-store.ts). */
export function groundTruthRunHash(config: ExperimentConfig): string {
  return configHash(groundTruthRunConfig(config));
}

/**
 * What determines one run's result: the dataset and its subsets, the classes and tasks (the run's ordering covers
 * them), the feature source, the model, the training and the run's own strategy with its options; the ordering and
 * the seed are the rest of the run's store key. Not the other strategies chosen, the budget, the sample seed, the
 * similarity, the RS seeds nor the training seeds: they choose which runs are trained, not what a run gives. So a
 * strategy added to a finished ground truth (or a larger budget) finds the stored runs of the others.
 */
function runDeterminingConfig(config: ExperimentConfig, strategies: StrategySetting[]): ExperimentConfig {
  const c = structuredClone(config);
  return {
    ...keyBase(c),
    model: c.model,
    training: c.training,
    data: c.data,
    strategies: structuredClone(strategies),
    // what the run trains on: two feature sources never share a run's key (absent for pixels: the keys stay)
    ...(c.features ? { features: c.features } : {}),
  };
}

/** The store key of the runs of one strategy (with its options, as the config sets them) of an experiment. */
export function groundTruthStrategyHash(config: ExperimentConfig, strategy: string): string {
  const setting = config.strategies.find((s) => s.id === strategy);
  if (!setting) throw new Error(`The experiment has no strategy "${strategy}".`);
  return configHash(runDeterminingConfig(config, [setting]));
}

/** The keys of an experiment's stored runs (services/results-store.ts; ./run-store.ts reads and writes by them). */
export interface GroundTruthRunKeys {
  /**
   * The experiment's key (`groundTruthRunHash`): the runner's and the page's handle on its runs. Runs were stored
   * under it by older builds (so it changed with the list of strategies); they are still read.
   */
  experiment: string;
  /** each strategy's key (`groundTruthStrategyHash`) */
  strategies: Record<string, string>;
  /** imported runs of a method that is none of the experiment's strategies ("der", "memo"): the training part only */
  imported: string;
}

export function groundTruthRunKeys(config: ExperimentConfig): GroundTruthRunKeys {
  return {
    experiment: groundTruthRunHash(config),
    strategies: Object.fromEntries(config.strategies.map((s) => [s.id, groundTruthStrategyHash(config, s.id)])),
    imported: `${configHash(runDeterminingConfig(config, defaultConfig().strategies))}:imported`,
  };
}

/** The experiment's WordNet pins, resolved as the Orderings page and the CLI do (one function for all three). */
export { wordnetPinsFor, wordnetPinsOf } from '../../core/config/wordnet-pins';

/** Teaching mode's readout: how many orderings are fully trained, of how many, and the next one to train. */
export function orderingProgress(
  jobs: readonly { orderingKey: string; strategy: string; seed: number }[],
  runs: readonly { orderingKey: string; strategy: string; seed: number }[],
): { done: number; total: number; next: string | null; runsOfNext: number } {
  const have = new Set(runs.map((r) => JSON.stringify([r.orderingKey, r.strategy, r.seed])));
  const left = new Map<string, number>();
  const order: string[] = [];
  for (const j of jobs) {
    if (!left.has(j.orderingKey)) {
      left.set(j.orderingKey, 0);
      order.push(j.orderingKey);
    }
    if (!have.has(JSON.stringify([j.orderingKey, j.strategy, j.seed]))) left.set(j.orderingKey, left.get(j.orderingKey)! + 1);
  }
  // the runner trains the jobs in plan order, skipping stored ones: the next ordering is the first with runs left
  const next = order.find((k) => left.get(k)! > 0) ?? null;
  return { done: order.filter((k) => left.get(k) === 0).length, total: order.length, next, runsOfNext: next ? left.get(next)! : 0 };
}
