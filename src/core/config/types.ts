/**
 * The experiment config's types: one versioned object that is the whole truth of an experiment
 * (docs/architecture.md "Config"). The fill-ins are in defaults.ts, the checks in validate.ts and sections/, the
 * compatibility rule at the top of schema.ts.
 *
 * Layering: pure TS, imports only src/core.
 */
import type { FecamOptions, PtmStrategyId, RanpacOptions, SimpleCilOptions } from '../ptm/defaults';
import type { PromptSpec } from '../similarity/prompts';

export const CONFIG_VERSION = 1 as const;

/**
 * Every lab's id, each with the config sections that are its own (their fields of ExperimentConfig and their types):
 * empty here, each lab's entry module adds its own (src/core/labs/<lab>/index.ts, TypeScript's declaration merging):
 *
 *     declare module '../../config/types' {
 *       interface LabSections {
 *         time: { time?: TimeOwn | TimeLabConfig };
 *       }
 *     }
 *
 * So a new lab edits nothing here, and this module imports nothing of the labs. The compiler sees every file of src/
 * at once, so every module that reads `config.time` sees the field; at run time the labs' list (and its order: the
 * tabs', the `lab` check's) is the registry's, handed to the checkers where validation is wired (sections/index.ts).
 */
export interface LabSections {}

/** The lab a config opens: one of the registry's ids (src/core/labs). */
export type LabId = keyof LabSections & string;

/** Every lab's own fields in one type (the intersection of the `LabSections` values), which ExperimentConfig has. */
type LabFields = AllOf<LabSections[LabId]>;
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (all: infer I) => void ? I : never;

/**
 * Built-in datasets: the image datasets of src/data/registry.ts (fashion-mnist, digits, emoji; trainable) and
 * the class-name-only lists of src/core/classes/builtin.ts (cifar10, cifar100, mnist, cub200, imagenet-r; for
 * the Orderings lab). `mnist` is the names of MNIST; `digits` is the 8×8 image dataset named by that list.
 */
export type BuiltinDatasetRef = 'fashion-mnist' | 'digits' | 'emoji' | 'cifar10' | 'cifar100' | 'mnist' | 'cub200' | 'imagenet-r';

/** A file the user uploaded, named and fingerprinted: a link or config file never carries its bytes. */
export interface FileRef {
  /** The file's name as uploaded (shown when asking for it again). */
  name: string;
  /** `contentHash(bytes)` of url-codec.ts ("fnv1a64:<16 hex>"); "sha256:<64 hex>" is accepted too. */
  contentHash: string;
}

export type DatasetConfig =
  | { id: BuiltinDatasetRef }
  /** Class names typed or pasted by the user; `images` = an uploaded image dataset (needed to train), or null. */
  | { id: 'custom'; classNames: string[]; images: FileRef | null };

/** Where CLIP's weights come from (mirrors WeightSource of src/engine/clip/weights.ts); the image encoders' too. */
export type ClipWeightSource = { kind: 'hub' } | { kind: 'self-hosted'; path: string } | { kind: 'mirror'; url: string };

/** Precision of an image encoder's weights (transformers.js dtype: 'q8' int8-quantized, 'fp16', 'fp32'). */
export type FeaturePrecision = 'q8' | 'fp16' | 'fp32';

/**
 * Where each image's feature vector comes from (sections/features.ts; docs/science.md "Features"). Added in v1
 * (additive): a config without it means `pixels`, what every earlier link meant.
 */
export type FeaturesConfig =
  /** The image's pixels, scaled to [0, 1]: what the MLP and CNN train on. */
  | { source: 'pixels' }
  /**
   * The embedded backbone: a small network pre-trained, from `seed`, on the dataset's classes the experiment does
   * not use (src/engine/features/backbone.ts); its last hidden layer is the feature vector.
   */
  | { source: 'backbone'; seed: number }
  /** An image encoder run through transformers.js (CLIP's vision tower, DINOv2, …), weights as CLIP's text side. */
  | { source: 'encoder'; model: string; revision: string; precision: FeaturePrecision; weights: ClipWeightSource }
  /** An uploaded feature file (.npz of src/data/features/npz.ts): referenced, never carried. */
  | { source: 'upload'; file: FileRef };

export type SimilarityConfig =
  /**
   * WordNet Wu–Palmer. Built-in lists pin their own synsets; `pins` overrides or adds pins by class name
   * ("n" + 8 digits, WordNet 3.1 noun synsets), e.g. for custom class names.
   */
  | { kind: 'wordnet'; pins: Record<string, string> }
  /** CLIP text embeddings compared by cosine (docs/science.md §6). */
  | { kind: 'clip'; model: string; dtype: 'q8' | 'fp32'; prompt: PromptSpec; weights: ClipWeightSource }
  /** An uploaded similarity matrix or embeddings file: referenced, never carried; it must be uploaded again. */
  | { kind: 'upload'; file: FileRef }
  /**
   * Class prototypes of the config's feature source (`features`): each class's mean training feature vector,
   * compared by cosine (docs/science.md §6). With the pixels source, the mean images.
   */
  | { kind: 'features' };

/** CLIP's text side: the model, precision, prompt and weight source (the similarity section's, and the Your-classes lab's names). */
export type ClipTextConfig = Omit<Extract<SimilarityConfig, { kind: 'clip' }>, 'kind'>;

export type ModelConfig =
  /** MLP: input (H·W·C) → hidden widths → one output per class. */
  | { kind: 'mlp'; hidden: number[] }
  /** Two conv blocks (filters each) → dense → one output per class. */
  | { kind: 'cnn'; filters: [number, number]; dense: number }
  /** A head over feature vectors (features ≠ pixels): linear (`hidden: []`) or one hidden layer (`[width]`). */
  | { kind: 'head'; hidden: number[] };

export interface EwcOptions {
  lambda: number;
  mode: 'single' | 'multi';
  fisherSamples: number;
}
export interface LwfOptions {
  alpha: number;
  temperature: number;
}
export interface SiOptions {
  c: number;
  xi: number;
}
export interface ReplayOptions {
  memory: number;
  selection: 'reservoir' | 'herding';
}
export interface IcarlOptions {
  memory: number;
  distillWeight: number;
  temperature: number;
}
export interface AgemOptions {
  memory: number;
  sampleSize: number;
}
export interface GdumbOptions {
  memory: number;
}
type NoOptions = Record<string, never>;
export type { SimpleCilOptions, RanpacOptions, FecamOptions };

/**
 * Each strategy id's options: the strategies the engine trains (meanings in src/engine/defaults.ts) and the
 * pre-trained methods on frozen features (src/core/ptm/defaults.ts).
 */
export interface StrategyOptionsById {
  finetune: NoOptions;
  joint: NoOptions;
  ncm: NoOptions;
  ewc: EwcOptions;
  lwf: LwfOptions;
  si: SiOptions;
  replay: ReplayOptions;
  icarl: IcarlOptions;
  agem: AgemOptions;
  gdumb: GdumbOptions;
  simplecil: SimpleCilOptions;
  ranpac: RanpacOptions;
  fecam: FecamOptions;
}

/** One CIL strategy with all its hyper-parameters: one member per id of StrategyOptionsById. */
export type StrategySetting = { [K in keyof StrategyOptionsById]: { id: K; options: StrategyOptionsById[K] } }[keyof StrategyOptionsById];
/** Every strategy id a config may name. */
export type ConfigStrategyId = StrategySetting['id'];
/** The strategies the engine trains: every id but the pre-trained methods on frozen features. */
export type StrategyId = Exclude<ConfigStrategyId, PtmStrategyId>;

export interface TrainingConfig {
  /** Epochs on every task but the first … */
  epochs: number;
  /** … and on the first (base) task. Fill-in: `epochs`. */
  firstTaskEpochs: number;
  lr: number;
  batchSize: number;
  /** The engine has Adam only (INFERRED as a tagged object so another optimiser can be added in v1). */
  optimiser: { kind: 'adam'; beta1: number; beta2: number; epsilon: number };
  /** 'seen': output head masked to the classes seen so far; 'all': every unit from the start (CPCF's MLP). */
  head: 'seen' | 'all';
  /**
   * Initial weights (src/engine/models.ts): 'he-glorot' (He-uniform hidden layers, Glorot-uniform output, zero
   * biases; every build before the field) or 'pytorch' (torch.nn.Linear's U(±1/√fan_in) for weights and biases).
   * Fill-in 'he-glorot'. docs/science.md appendix "Initialisation and matching PyTorch".
   */
  init: 'he-glorot' | 'pytorch';
}

/** Images per class used from each split: the first n of each class in file order; null = all. */
export interface DataConfig {
  trainPerClass: number | null;
  testPerClass: number | null;
}

/**
 * The Forgetting lab's one-click presets (src/core/forgetting/setup.ts PRESETS; mirrored here, not imported, as every
 * table of this file): each trains several runs the other fields cannot list (MLP and EWC, a grid of calibration
 * ratios, four learning rates, three orderings).
 */
export const FORGETTING_PRESET_IDS = ['digits', 'fashion', 'fashion-paper', 'grid', 'ewc-variants', 'lr', 'edge'] as const;
export type ForgettingPresetId = (typeof FORGETTING_PRESET_IDS)[number];

/** Backend preferences ('auto' = the engine's order: webgpu → webgl → wasm → cpu). A preference, not a promise. */
export interface BackendConfig {
  train: 'auto' | 'webgpu' | 'webgl' | 'wasm' | 'cpu';
  /** CLIP's device (transformers.js). */
  embed: 'auto' | 'webgpu' | 'wasm' | 'cpu';
}

/** What is shown, not what is computed: excluded from configHash. */
export interface UiConfig {
  /** Teaching mode: big type, few controls, step-by-step play. */
  teaching: boolean;
  /** INFERRED: ids of controls teaching mode hides (the UI owns the vocabulary: lowercase words and hyphens); sorted. */
  hiddenControls: string[];
  /**
   * The selected ordering as an ordering key over dataset class indices (the numbers of `classes`): tasks in
   * order, each task's classes ascending ("0,3|1,5|2,4"); null = none.
   */
  selectedOrdering: string | null;
  /** A(O), the accuracy the Ground-truth lab studies: final average accuracy or AIA. */
  accuracy: 'final' | 'aia';
}

/** The Your-classes lab's image encoder (src/core/labs/own-classes/settings.ts checks it). */
export interface OwnEncoder {
  source: 'encoder';
  model: string;
  precision: FeaturePrecision;
  weights: ClipWeightSource;
}

/**
 * The whole experiment: the common sections every lab reads, each lab's own sections (`LabSections`, declared by the
 * labs' entries) and how the app runs and shows it.
 */
export interface ExperimentConfig extends LabFields {
  version: 1;
  /** The lab the link opens. */
  lab: LabId;
  dataset: DatasetConfig;
  /** Selected classes: indices into the dataset's class list, ascending. */
  classes: number[];
  /** m_1..m_K, summing to classes.length. */
  taskSizes: number[];
  similarity: SimilarityConfig;
  model: ModelConfig;
  /** The strategies to train, each id at most once. */
  strategies: StrategySetting[];
  training: TrainingConfig;
  data: DataConfig;
  /** Training seeds: every (ordering, strategy) is trained once per seed. */
  seeds: number[];
  /** Where feature vectors come from (sections/features.ts); absent = pixels, read with featuresOf. */
  features?: FeaturesConfig;
  backend: BackendConfig;
  ui: UiConfig;
}

/** One problem, at a path like "training.epochs" or "strategies[1].options.lambda" ("" = the whole config). */
export interface ConfigIssue {
  path: string;
  message: string;
}

export interface ConfigValidation {
  /** The config with every field filled; an invalid field holds its fill-in value. */
  config: ExperimentConfig;
  /** Invalid values and unknown fields. The config is usable only when this is empty. */
  errors: ConfigIssue[];
  /** Things to tell the user that do not make the config invalid (e.g. files to upload again). */
  warnings: ConfigIssue[];
}

export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  constructor(message: string, issues: ConfigIssue[] = []) {
    super(message);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
