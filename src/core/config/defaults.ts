/**
 * The v1 fill-ins (frozen: see the compatibility rule at the top of schema.ts, and where each one comes from), the
 * tables of built-in datasets and strategy options, and the limits every size in a config is checked against.
 *
 * Layering: pure TS, imports only src/core (the engine's and data layer's tables are mirrored, not imported).
 */
import type { BuiltinClassListId } from '../classes/builtin';
import type { ProtocolId } from '../protocols/types';
import type { PromptSpec } from '../similarity/prompts';
import type {
  BackendConfig,
  BuiltinDatasetRef,
  ClipWeightSource,
  ConformalConfig,
  DataConfig,
  DatasetConfig,
  ForgettingConfig,
  GroundTruthConfig,
  LabId,
  ModelConfig,
  ProtocolsConfig,
  SimilarityConfig,
  StrategyId,
  StrategySetting,
  TrainingConfig,
  UiConfig,
} from './types';

/** Image datasets (mirror src/data/registry.ts BUILTIN_DATASETS) and name-only lists; value = class list id. */
const DATASET_TABLE: Record<BuiltinDatasetRef, { classList: BuiltinClassListId; images: boolean }> = {
  'fashion-mnist': { classList: 'fashion-mnist', images: true },
  digits: { classList: 'mnist', images: true },
  emoji: { classList: 'emoji', images: true },
  cifar10: { classList: 'cifar10', images: false },
  cifar100: { classList: 'cifar100', images: false },
  mnist: { classList: 'mnist', images: false },
  cub200: { classList: 'cub200', images: false },
  'imagenet-r': { classList: 'imagenet-r', images: false },
};
export const BUILTIN_DATASET_REFS = Object.keys(DATASET_TABLE) as BuiltinDatasetRef[];

/** Which built-in datasets have images (can be trained on). */
export function datasetHasImages(id: BuiltinDatasetRef): boolean {
  return DATASET_TABLE[id].images;
}

/** The class list id naming a built-in dataset's classes. */
export function datasetClassListId(id: BuiltinDatasetRef): BuiltinClassListId {
  return DATASET_TABLE[id].classList;
}

/** Strategy hyper-parameters (mirror src/engine/defaults.ts STRATEGY_DEFAULTS). */
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
} as const satisfies Record<StrategyId, Record<string, number | string>>;
export const STRATEGY_IDS = Object.keys(STRATEGY_OPTION_FILL) as StrategyId[];

const DEFAULT_PROTOCOLS: ProtocolId[] = ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'];
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
  protocols: {
    enabled: DEFAULT_PROTOCOLS,
    rsSeeds: [0, 42, 1993],
    medianSeed: 0,
    msSamples: 200,
    msSeed: 0,
    exactLimit: 1_000_000,
    distribution: { sampleSize: 20_000, seed: 0 },
  } as ProtocolsConfig,
  groundTruth: { budget: 500, sampleSeed: 0 } as GroundTruthConfig,
  model: { kind: 'mlp', hidden: [256, 128] } as ModelConfig,
  cnn: { filters: [16, 32] as [number, number], dense: 128 },
  strategies: [{ id: 'finetune', options: {} }] as StrategySetting[],
  training: {
    epochs: 3,
    lr: 1e-3,
    batchSize: 64,
    optimiser: { kind: 'adam', beta1: 0.9, beta2: 0.999, epsilon: 1e-8 },
    head: 'seen',
  } as Omit<TrainingConfig, 'firstTaskEpochs'>,
  data: { trainPerClass: 300, testPerClass: 100 } as DataConfig,
  seeds: [0],
  conformal: { alpha: 0.1, calibrationRatio: 0.1, score: 'aps', raps: { lambda: 0.01, kReg: 5 }, softmax: 'seen' } as ConformalConfig,
  forgetting: { preset: null } as ForgettingConfig,
  backend: { train: 'auto', embed: 'auto' } as BackendConfig,
  ui: { teaching: false, hiddenControls: [], selectedOrdering: null, accuracy: 'final' } as UiConfig,
} as const;

/** Limits that keep a config (and a hostile link) within what a browser tab can do. */
export const CONFIG_LIMITS = {
  classes: 1000,
  classNameLength: 200,
  seeds: 100,
  rsSeeds: 1000,
  hiddenLayers: 8,
  width: 4096,
  epochs: 1000,
  textLength: 2000,
} as const;
