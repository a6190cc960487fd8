/**
 * The Ground-truth lab's binding (its entry's `view` and `apply`, ./ground-truth.ts): the lab's controls ⇄ the app's
 * experiment config (src/core/config/schema.ts), both ways, pure (tested in
 * tests/unit/core/labs/ground-truth-binding.test.ts). The app has one experiment (src/services/share-link.svelte.ts):
 * the Orderings and Ground-truth labs read it and fold their inputs back into it, so a link copied on either tab
 * opens the same experiment, and the lab's stored runs (src/core/ground-truth/run-keys.ts) come back with it.
 *
 * The config's checkers sit below the lab registry, so this module never imports them (validate.ts reaches the
 * registry): the fold that keeps only the valid parts (`groundTruthSteps` through `foldValidSteps`, src/core/config/fold-valid.ts)
 * checks each step where it is called.
 */
import { getClassList } from '../../classes/builtin';
import { featuresOf, withFeatureSource } from '../../config/sections/features';
import { BUILTIN_DATASET_REFS, CONFIG_STRATEGY_IDS, STRATEGY_OPTION_FILL, datasetClassListId, datasetHasImages } from '../../config/defaults';
import { settingsValue, settingsView } from '../../config/settings-table';
import type { BuiltinDatasetRef, ConfigStrategyId, ExperimentConfig, FeaturesConfig, StrategySetting } from '../../config/types';
import { GROUND_TRUTH_SETTINGS, type GroundTruthSettings } from './settings';
import { isPtmStrategyId } from '../../ptm/defaults';

type AccuracyChoice = ExperimentConfig['ui']['accuracy'];
type TrainBackend = ExperimentConfig['backend']['train'];

/** The training settings the lab's controls and their resolved state hold alike. */
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

/** The lab's controls, as a config sets them (`view`); its own settings (`budget`, `sampleSeed`, …) are its table's. */
export interface GroundTruthInputs extends TrainingFields, Required<GroundTruthSettings> {
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
  seedsText: string;
  rsSeedsText: string;
  /** MLP or head hidden widths ("256, 128"; "" a linear head); null when the model is a CNN (from a config file). */
  hiddenText: string | null;
}

const FALLBACK_DATASET: BuiltinDatasetRef = 'fashion-mnist';

/** A built-in dataset with images (the data layer's BUILTIN_DATASETS, mirrored in the config's dataset table). */
function isImageDataset(id: string): id is BuiltinDatasetRef {
  return (BUILTIN_DATASET_REFS as readonly string[]).includes(id) && datasetHasImages(id as BuiltinDatasetRef);
}

/** The first (up to) 6 classes of a built-in image dataset: what picking it selects (another id: Digits'). */
export function firstClassesOf(id: BuiltinDatasetRef): number[] {
  const n = getClassList(datasetClassListId(isImageDataset(id) ? id : 'digits')).classes.length;
  return Array.from({ length: Math.min(6, n) }, (_, i) => i);
}

/**
 * Whether a config's feature vectors come from the feature cache (an image encoder's or an upload's): then the lab
 * needs no images of its own, and a built-in list of names (CIFAR-100 loaded in the Data tab) trains as well.
 */
function trainsOnCachedFeatures(config: ExperimentConfig): boolean {
  const f = featuresOf(config).source;
  return f === 'encoder' || f === 'upload';
}

/** The first-session width of a config's SimpleCIL or RanPAC (the lab sets both alike), 0 when neither adapts. */
function firstSessionOf(config: ExperimentConfig): number {
  for (const x of config.strategies) {
    const w = (x.options as { firstSession?: number }).firstSession;
    if ((x.id === 'simplecil' || x.id === 'ranpac') && w) return w;
  }
  return 0;
}

/**
 * The lab's controls for a config (the entry's `view`). A dataset the lab cannot train on (names only, e.g. CIFAR-100 chosen in the
 * Orderings lab, while the experiment trains on pixels or the embedded backbone) is reported in `foreignDataset`,
 * and the controls fall back to Fashion-MNIST's classes without writing them (the config keeps its dataset until the
 * user picks one here). A built-in list of names whose feature vectors come from the feature cache trains.
 */
function groundTruthView(config: ExperimentConfig): GroundTruthInputs {
  const dsId = config.dataset.id;
  const trainable = dsId !== 'custom' && (isImageDataset(dsId) || trainsOnCachedFeatures(config));
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
    ...settingsView(GROUND_TRUTH_SETTINGS, config.groundTruth),
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

/**
 * What the lab's controls hand back to `apply`: their current inputs, resolved; null parts are invalid right now (the
 * config keeps what it had).
 */
export interface GroundTruthState extends TrainingFields, GroundTruthSettings {
  /** null: the user has not picked a dataset this lab can train on (the config's dataset, classes and tasks stay). */
  datasetId: BuiltinDatasetRef | null;
  classes: number[];
  /** null while the classes or task sizes are invalid (then dataset, classes and tasks all stay as they were). */
  taskSizes: number[] | null;
  strategies: ConfigStrategyId[];
  features: FeaturesConfig;
  /** null while the typed width is invalid */
  firstSession: number | null;
  seeds: number[] | null;
  rsSeeds: number[] | null;
  /** null: invalid right now, or the model is a CNN (it stays as it is). */
  hidden: number[] | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One part of the config the lab writes; each returns the changed config (a fresh copy). */
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
  // the lab's own section: its table's fields
  (c, s) => ({ ...c, groundTruth: settingsValue(GROUND_TRUTH_SETTINGS, s) }),
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
 * The config with all the controls' inputs in, the chosen ordering aside (the entry's `apply`; not validated: the
 * page shows the errors next to its controls, and runs this config when there are none).
 */
function applyGroundTruth(config: ExperimentConfig, s: GroundTruthState): ExperimentConfig {
  return PARTS.reduce((c, part) => part(c, s), structuredClone(config));
}

/**
 * Every part of the controls' inputs as a step on the config (experiment, strategies, budget, seeds, model, training,
 * data, backend, what is shown, and last the chosen ordering), for the fold that keeps each step only when the config
 * stays valid (src/core/config/fold-valid.ts): an invalid part (an epoch count of 0, a half-typed seed list) keeps
 * the config's values, so the rest still reaches the link and the link always opens. What the lab does not show
 * (similarity, protocols other than the RS seeds, conformal settings, strategy options, the first task's epochs when
 * they differ) is carried over unchanged.
 */
export function groundTruthSteps(s: GroundTruthState): ((c: ExperimentConfig) => ExperimentConfig)[] {
  return [...PARTS, SELECTION].map((part) => (c: ExperimentConfig) => part(c, s));
}

/** The lab entry's binding (./lab.ts `view`, `apply`). */
export const groundTruthBinding = { view: groundTruthView, apply: applyGroundTruth };
