/**
 * The v1 fill-ins (frozen: see the compatibility rule at the top of schema.ts, and where each one comes from), the
 * tables of built-in datasets and strategy options (the bounds on sizes are in limits.ts).
 *
 * Layering: pure TS, imports only src/core (the engine's and data layer's tables are mirrored, not imported).
 */
import type { BuiltinClassListId } from '../classes/builtin';
import { CONFORMAL_FILL, FORGETTING_FILL } from '../labs/forgetting/settings';
import { GROUND_TRUTH_FILL } from '../labs/ground-truth/settings';
import { PROTOCOLS_FILL } from '../labs/orderings/settings';
import { PTM_STRATEGY_IDS } from '../ptm/defaults';
import type { PromptSpec } from '../similarity/prompts';
import type {
  BackendConfig,
  BuiltinDatasetRef,
  ClipWeightSource,
  DataConfig,
  DatasetConfig,
  LabId,
  ModelConfig,
  SimilarityConfig,
  ConfigStrategyId,
  StrategyId,
  StrategySetting,
  TrainingConfig,
  UiConfig,
} from './types';

/** Image datasets (mirror src/data/registry.ts BUILTIN_DATASETS) and name-only lists: class list id, and image shape [height, width, channels] (null: names only). */
type ImageShape = readonly [height: number, width: number, channels: number];
const DATASET_TABLE: Record<BuiltinDatasetRef, { classList: BuiltinClassListId; images: ImageShape | null }> = {
  'fashion-mnist': { classList: 'fashion-mnist', images: [28, 28, 1] },
  digits: { classList: 'mnist', images: [8, 8, 1] },
  emoji: { classList: 'emoji', images: [32, 32, 3] },
  cifar10: { classList: 'cifar10', images: null },
  cifar100: { classList: 'cifar100', images: null },
  mnist: { classList: 'mnist', images: null },
  cub200: { classList: 'cub200', images: null },
  'imagenet-r': { classList: 'imagenet-r', images: null },
};
export const BUILTIN_DATASET_REFS = Object.keys(DATASET_TABLE) as BuiltinDatasetRef[];

/** Which built-in datasets have images (can be trained on). */
export function datasetHasImages(id: BuiltinDatasetRef): boolean {
  return DATASET_TABLE[id].images !== null;
}

/** A built-in image dataset's image shape [height, width, channels]; null for a list of class names only. */
export function datasetImageShape(id: BuiltinDatasetRef): ImageShape | null {
  return DATASET_TABLE[id].images;
}

/** The class list id naming a built-in dataset's classes. */
export function datasetClassListId(id: BuiltinDatasetRef): BuiltinClassListId {
  return DATASET_TABLE[id].classList;
}

/**
 * Strategy hyper-parameters: the trained strategies mirror src/engine/defaults.ts STRATEGY_DEFAULTS, the pre-trained
 * methods on frozen features (simplecil, ranpac, fecam) src/core/ptm/defaults.ts PTM_DEFAULTS.
 */
export const STRATEGY_OPTION_FILL = {
  finetune: {},
  joint: {},
  ewc: { lambda: 1000, mode: 'multi', fisherSamples: 200 },
  lwf: { alpha: 1, temperature: 2 },
  si: { c: 1, xi: 1e-3 },
  replay: { memory: 200, selection: 'reservoir' },
  icarl: { memory: 200, distillWeight: 1, temperature: 2 },
  agem: { memory: 200, sampleSize: 64 },
  gdumb: { memory: 200 },
  ncm: {},
  simplecil: { metric: 'cosine' },
  ranpac: { projection: 2000, lambdaFrom: 'task' },
  fecam: { shrinkage: 1 },
} as const satisfies Record<ConfigStrategyId, Record<string, number | string>>;
/** Every strategy id a config may name. */
export const CONFIG_STRATEGY_IDS = Object.keys(STRATEGY_OPTION_FILL) as ConfigStrategyId[];
/** The pre-trained methods on frozen features: they run on a feature set (src/core/ptm), not in the engine. */
export { PTM_STRATEGY_IDS };
/** The strategies the engine trains (mirror src/engine/defaults.ts STRATEGY_IDS): what the labs' strategy pickers list. */
export const STRATEGY_IDS = CONFIG_STRATEGY_IDS.filter((id): id is StrategyId => !(PTM_STRATEGY_IDS as readonly string[]).includes(id));
/** The strategies with an exemplar memory (their options have `memory`: replay, icarl, agem, gdumb). */
export const MEMORY_STRATEGY_IDS: readonly StrategyId[] = STRATEGY_IDS.filter((id) => 'memory' in STRATEGY_OPTION_FILL[id]);

export const DEFAULT_CLIP_MODEL = 'Xenova/clip-vit-base-patch32';

/** Every v1 fill-in that does not depend on other fields (classes and task sizes do: see validateConfig). */
export const V1_FILL = {
  lab: 'orderings' as LabId,
  dataset: { id: 'fashion-mnist' } as DatasetConfig,
  /** first min(6, N) classes of the dataset; all classes of a custom list */
  classesPerDataset: 6,
  /** 3 equal tasks when 3 divides the class count (else task sizes must be given) */
  tasks: 3,
  similarity: { kind: 'wordnet', pins: {} } as SimilarityConfig,
  clip: { model: DEFAULT_CLIP_MODEL, dtype: 'q8' as const, prompt: { kind: 'bare' } as PromptSpec, weights: { kind: 'hub' } as ClipWeightSource },
  /** which protocols the Orderings lab runs, with their seeds and sample sizes (its table, src/core/labs/orderings/settings.ts) */
  protocols: PROTOCOLS_FILL,
  /** INFERRED: how many orderings the Ground-truth lab trains (its table, src/core/labs/ground-truth/settings.ts) */
  groundTruth: GROUND_TRUTH_FILL,
  model: { kind: 'mlp', hidden: [256, 128] } as ModelConfig,
  cnn: { filters: [16, 32] as [number, number], dense: 128 },
  strategies: [{ id: 'finetune', options: {} }] as StrategySetting[],
  training: {
    epochs: 3,
    lr: 1e-3,
    batchSize: 64,
    optimiser: { kind: 'adam', beta1: 0.9, beta2: 0.999, epsilon: 1e-8 },
    head: 'seen',
    init: 'he-glorot',
  } as Omit<TrainingConfig, 'firstTaskEpochs'>,
  data: { trainPerClass: 300, testPerClass: 100 } as DataConfig,
  seeds: [0],
  /** the Forgetting lab's (its tables, src/core/labs/forgetting/settings.ts) */
  conformal: CONFORMAL_FILL,
  forgetting: FORGETTING_FILL,
  backend: { train: 'auto', embed: 'auto' } as BackendConfig,
  ui: { teaching: false, hiddenControls: [], selectedOrdering: null, accuracy: 'final' } as UiConfig,
} as const;
