/**
 * The experiment config: one versioned, validated object that is the whole truth of an experiment
 * (ARCHITECTURE.md "Config"). The share link (url-codec.ts) and the CLI's config file (config-file.ts) carry
 * exactly this object; `validateConfig` is the one gate every config passes through.
 *
 * ─── Compatibility rule (schema v1) ─────────────────────────────────────────────────────────────────────────
 * 1. A v1 link or file means the same experiment in every later v1 build.
 * 2. Within v1, changes are additive only: a new field, a new enum value, a new union kind. A new field gets a
 *    fill-in value that reproduces exactly what builds before it did (a new penalty gets fill-in 0, a new choice
 *    gets the old behaviour).
 * 3. A missing field is filled with its v1 fill-in value (`V1_FILL` and the rules in `validateConfig`). Released
 *    fill-ins are frozen: they are constants of this file, never imported live from the engine or the UI, and
 *    tests/unit/core/config pins them. `defaultConfig()` is the config with every field filled.
 * 4. Renaming or removing a field, changing its type, unit or meaning, or changing a released fill-in needs v2
 *    (a new `#v2.` prefix and `version: 2`), with a v1 → v2 migration so v1 links keep opening.
 * 5. Unknown fields are errors, not silently ignored: in a config file they are usually typos (the message
 *    suggests the known name), and in a link they come from a newer build using a feature this build cannot
 *    honour — running something else silently would betray the reader who wants to reproduce a number.
 * 6. Links and configHash use the compact form (`compactConfig`: every field equal to its fill-in omitted). So a
 *    field added later changes neither the link nor the hash of a config that does not use it: old links stay
 *    short and identical, stored results survive upgrades, and a newer build's link opens in an older build
 *    unless it really uses something the older build lacks.
 *
 * Where the fill-ins come from (each mirrors the code named; tests/unit/core/config/coverage.test.ts fails when
 * they drift apart, and then the fill-in here stays as it is — see rule 3 — unless a v2 is made):
 * - the Orderings page default (src/ui/orderings/OrderingsPage.svelte): Fashion-MNIST classes 0–5 in 3 tasks,
 *   WordNet, every protocol, RS seeds 0/42/1993;
 * - ProtocolOptions defaults (src/core/protocols/run.ts, rs.ts, exact.ts; orderings/score-distribution.ts);
 * - the training engine (src/engine/defaults.ts TRAINER_DEFAULTS, MODEL_DEFAULTS, STRATEGY_DEFAULTS,
 *   CALIBRATION_DEFAULTS), and issue 4's embedded default (300 training / 100 test images per class);
 * - CLIP (src/engine/clip/text-embedder.ts CLIP_MODELS[0], q8, the hub; prompts.ts DEFAULT_PROMPT).
 * Fields marked INFERRED have no code to mirror yet (the labs that will read them are being written): their
 * names and fill-ins are this file's proposal.
 *
 * Layering: pure TS, imports only src/core (the engine's and data layer's tables are mirrored, not imported).
 */
import { getClassList, type BuiltinClassListId } from '../classes/builtin';
import { validateClassNames } from '../classes/validate';
import { PROTOCOL_IDS, type ProtocolId, type ProtocolOptions } from '../protocols/types';
import { validateTemplate, type PromptSpec } from '../similarity/prompts';

// ═══════════════════════════════════════════ the type ═══════════════════════════════════════════

export const CONFIG_VERSION = 1 as const;

export type LabId = 'orderings' | 'ground-truth' | 'forgetting';
export const LAB_IDS: readonly LabId[] = ['orderings', 'ground-truth', 'forgetting'];

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

/** Where CLIP's weights come from (mirrors WeightSource of src/engine/clip/text-embedder.ts). */
export type ClipWeightSource = { kind: 'hub' } | { kind: 'self-hosted'; path: string } | { kind: 'mirror'; url: string };

export type SimilarityConfig =
  /**
   * WordNet Wu–Palmer. Built-in lists pin their own synsets; `pins` overrides or adds pins by class name
   * ("n" + 8 digits, WordNet 3.1 noun synsets), e.g. for custom class names.
   */
  | { kind: 'wordnet'; pins: Record<string, string> }
  /** CLIP text embeddings compared by cosine (SCIENCE.md §6). */
  | { kind: 'clip'; model: string; dtype: 'q8' | 'fp32'; prompt: PromptSpec; weights: ClipWeightSource }
  /** An uploaded similarity matrix or embeddings file: referenced, never carried; it must be uploaded again. */
  | { kind: 'upload'; file: FileRef };

export interface ProtocolsConfig {
  /** Protocols to run, in PROTOCOL_IDS order. */
  enabled: ProtocolId[];
  /** RS seeds (numpy legacy RandomState). */
  rsSeeds: number[];
  /** Seed of EDGE's random "median" ordering (numpy default_rng). */
  medianSeed: number;
  /** MS baseline: random orderings drawn, and their seed. */
  msSamples: number;
  msSeed: number;
  /** Largest |Ω| enumerated (exact extremes, and the exact histogram of S over Ω). */
  exactLimit: number;
  /** When |Ω| > exactLimit, the histogram of S is drawn from this many uniform orderings with this seed. */
  distribution: { sampleSize: number; seed: number };
}

/** INFERRED (issue 4): how many orderings the Ground-truth lab trains. */
export interface GroundTruthConfig {
  /** Train every ordering when |Ω| ≤ budget, else `budget` orderings drawn uniformly (seeded). */
  budget: number;
  sampleSeed: number;
}

export type ModelConfig =
  /** MLP: input (H·W·C) → hidden widths → one output per class. */
  | { kind: 'mlp'; hidden: number[] }
  /** Two conv blocks (filters each) → dense → one output per class. */
  | { kind: 'cnn'; filters: [number, number]; dense: number };

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

/** One CIL strategy with all its hyper-parameters (meanings in src/engine/defaults.ts). */
export type StrategySetting =
  | { id: 'finetune'; options: NoOptions }
  | { id: 'joint'; options: NoOptions }
  | { id: 'ncm'; options: NoOptions }
  | { id: 'ewc'; options: EwcOptions }
  | { id: 'lwf'; options: LwfOptions }
  | { id: 'si'; options: SiOptions }
  | { id: 'replay'; options: ReplayOptions }
  | { id: 'icarl'; options: IcarlOptions }
  | { id: 'agem'; options: AgemOptions }
  | { id: 'gdumb'; options: GdumbOptions };
export type StrategyId = StrategySetting['id'];

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
}

/** Images per class used from each split: the first n of each class in file order; null = all. */
export interface DataConfig {
  trainPerClass: number | null;
  testPerClass: number | null;
}

/** Conformal prediction for the Forgetting lab (SCIENCE.md §3). */
export interface ConformalConfig {
  /** Miscoverage α: sets aim at coverage 1 − α. */
  alpha: number;
  /** Share r of each task's training images held out for calibration. */
  calibrationRatio: number;
  score: 'aps' | 'lac' | 'raps';
  /** RAPS regularisation (INFERRED fill-ins λ = 0.01, k_reg = 5; used only when score = 'raps'). */
  raps: { lambda: number; kReg: number };
  /** Softmax over the classes seen so far, or over the full head. */
  softmax: 'seen' | 'all';
}

/**
 * The Forgetting lab's one-click presets (src/core/forgetting/setup.ts PRESETS; mirrored here, not imported, as every
 * table of this file): each trains several runs the other fields cannot list (MLP and EWC, a grid of calibration
 * ratios, four learning rates, three orderings).
 */
export const FORGETTING_PRESET_IDS = ['digits', 'fashion', 'grid', 'ewc-variants', 'lr', 'edge'] as const;
export type ForgettingPresetId = (typeof FORGETTING_PRESET_IDS)[number];

/** The Forgetting lab (SCIENCE.md §3). Added in v1 (additive; fill-in: no preset, what every earlier link meant). */
export interface ForgettingConfig {
  /**
   * The preset whose runs the experiment is; its varying settings are the preset's own, the rest are this config's
   * (dataset, data, seeds, and training.lr as the preset's learning rate). null = one run, described by the other
   * fields (ordering = ui.selectedOrdering over `classes`).
   */
  preset: ForgettingPresetId | null;
}

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

export interface ExperimentConfig {
  version: 1;
  /** The lab the link opens. */
  lab: LabId;
  dataset: DatasetConfig;
  /** Selected classes: indices into the dataset's class list, ascending. */
  classes: number[];
  /** m_1..m_K, summing to classes.length. */
  taskSizes: number[];
  similarity: SimilarityConfig;
  protocols: ProtocolsConfig;
  groundTruth: GroundTruthConfig;
  model: ModelConfig;
  /** The strategies to train, each id at most once. */
  strategies: StrategySetting[];
  training: TrainingConfig;
  data: DataConfig;
  /** Training seeds: every (ordering, strategy) is trained once per seed. */
  seeds: number[];
  conformal: ConformalConfig;
  forgetting: ForgettingConfig;
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

// ═══════════════════════════════════════════ v1 fill-ins (frozen) ═══════════════════════════════════════════

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

/** How each strategy option is checked (the engine's rules in strategies/index.ts, plus T > 0). */
const OPTION_RULES: Record<string, { int?: boolean; min: number; max: number; exclusiveMin?: boolean; choices?: readonly string[] }> = {
  lambda: { min: 0, max: 1e12 },
  mode: { min: 0, max: 0, choices: ['single', 'multi'] },
  fisherSamples: { int: true, min: 1, max: 1_000_000 },
  alpha: { min: 0, max: 1e6 },
  temperature: { min: 0, max: 1e6, exclusiveMin: true },
  c: { min: 0, max: 1e12 },
  xi: { min: 0, max: 1e6 },
  memory: { int: true, min: 1, max: 1_000_000 },
  selection: { min: 0, max: 0, choices: ['reservoir', 'herding'] },
  distillWeight: { min: 0, max: 1e6 },
  sampleSize: { int: true, min: 1, max: 1_000_000 },
};

const DEFAULT_PROTOCOLS: ProtocolId[] = ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'];
const DEFAULT_CLIP_MODEL = 'Xenova/clip-vit-base-patch32';

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

/** The app's default experiment: every field at its v1 fill-in (the Orderings page default). */
export function defaultConfig(): ExperimentConfig {
  return validateConfig({}).config;
}

// ═══════════════════════════════════════════ validation ═══════════════════════════════════════════

const UINT32_MAX = 2 ** 32 - 1;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try {
    s = typeof v === 'number' && !Number.isFinite(v) ? String(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return path ? `${path}.${key}` : key;
  return `${path}[${JSON.stringify(key)}]`;
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length];
}

function suggestion(key: string, known: readonly string[]): string {
  const k = key.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const name of known) {
    const d = name.toLowerCase() === k ? 0 : editDistance(k, name.toLowerCase());
    if (d < bestD) {
      best = name;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.min(3, Math.floor(key.length / 3))) ? ` Did you mean "${best}"?` : '';
}

function list(xs: readonly string[]): string {
  return xs.map((x) => `"${x}"`).join(', ');
}

class Checker {
  readonly errors: ConfigIssue[] = [];
  readonly warnings: ConfigIssue[] = [];

  error(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  /** An object whose keys must be among `known`; undefined → {} (every field filled). */
  object(v: unknown, path: string, known: readonly string[], what = 'an object'): Record<string, unknown> {
    if (v === undefined) return {};
    if (!isPlainObject(v)) {
      this.error(path, `Must be ${what} ({…}); got ${show(v)}.`);
      return {};
    }
    for (const key of Object.keys(v)) {
      if (!known.includes(key)) {
        this.error(join(path, key), `Unknown setting "${key}"; the known ones here are ${list(known)}.${suggestion(key, known)}`);
      }
    }
    return v;
  }

  int(v: unknown, path: string, min: number, max: number, fill: number): number {
    if (v === undefined) return fill;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.error(path, `Must be a whole number from ${min} to ${max}; got ${show(v)}.`);
      return fill;
    }
    return v;
  }

  intOrNull(v: unknown, path: string, min: number, max: number, fill: number | null): number | null {
    if (v === null) return null;
    if (v === undefined) return fill;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.error(path, `Must be a whole number from ${min} to ${max}, or null (all); got ${show(v)}.`);
      return fill;
    }
    return v;
  }

  /** A finite number in the range; exclusive ends are written with ( ). */
  num(v: unknown, path: string, range: { min: number; max: number; exclusiveMin?: boolean; exclusiveMax?: boolean }, fill: number): number {
    if (v === undefined) return fill;
    const { min, max, exclusiveMin = false, exclusiveMax = false } = range;
    const ok =
      typeof v === 'number' && Number.isFinite(v) && (exclusiveMin ? v > min : v >= min) && (exclusiveMax ? v < max : v <= max);
    if (!ok) {
      this.error(path, `Must be a number in ${exclusiveMin ? '(' : '['}${min}, ${max}${exclusiveMax ? ')' : ']'}; got ${show(v)}.`);
      return fill;
    }
    return v as number;
  }

  bool(v: unknown, path: string, fill: boolean): boolean {
    if (v === undefined) return fill;
    if (typeof v !== 'boolean') {
      this.error(path, `Must be true or false; got ${show(v)}.`);
      return fill;
    }
    return v;
  }

  choice<T extends string>(v: unknown, path: string, options: readonly T[], fill: T): T {
    if (v === undefined) return fill;
    if (typeof v !== 'string' || !options.includes(v as T)) {
      this.error(path, `Must be one of ${list(options)}; got ${show(v)}.${typeof v === 'string' ? suggestion(v, options) : ''}`);
      return fill;
    }
    return v as T;
  }

  text(v: unknown, path: string, opts: { max?: number; what?: string } = {}): string | undefined {
    const max = opts.max ?? CONFIG_LIMITS.textLength;
    if (typeof v !== 'string' || v.trim() === '' || v.length > max) {
      this.error(path, `Must be ${opts.what ?? 'non-empty text'} of at most ${max} characters; got ${show(v)}.`);
      return undefined;
    }
    return v;
  }

  array(v: unknown, path: string, minLength: number, maxLength: number): unknown[] | undefined {
    if (!Array.isArray(v)) {
      this.error(path, `Must be a list ([…]); got ${show(v)}.`);
      return undefined;
    }
    if (v.length < minLength || v.length > maxLength) {
      this.error(
        path,
        minLength === maxLength
          ? `Must have exactly ${minLength} entries; got ${v.length}.`
          : `Must have ${minLength === 0 ? 'at most' : `from ${minLength} to`} ${maxLength} entries; got ${v.length}.`,
      );
      return undefined;
    }
    return v;
  }

  /** A list of distinct 32-bit unsigned integer seeds (numpy's accepted range for RandomState). */
  seeds(v: unknown, path: string, minLength: number, maxLength: number, fill: readonly number[]): number[] {
    if (v === undefined) return fill.slice();
    const arr = this.array(v, path, minLength, maxLength);
    if (!arr) return fill.slice();
    const before = this.errors.length;
    const seen = new Set<number>();
    arr.forEach((s, i) => {
      if (!isUint32(s)) this.error(join(path, i), `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${show(s)}.`);
      else if (seen.has(s)) this.error(join(path, i), `Seed ${s} appears twice; each seed is listed once.`);
      else seen.add(s);
    });
    return this.errors.length === before ? (arr as number[]).slice() : fill.slice();
  }

  seed(v: unknown, path: string, fill: number): number {
    if (v === undefined) return fill;
    if (!isUint32(v)) {
      this.error(path, `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${show(v)}.`);
      return fill;
    }
    return v;
  }
}

function isUint32(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= UINT32_MAX;
}

const CONTENT_HASH = /^(fnv1a64:[0-9a-f]{16}|sha256:[0-9a-f]{64})$/;
const SYNSET = /^n\d{8}$/;
const HUB_MODEL = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;
const CONTROL_ID = /^[a-z][a-z0-9-]{0,39}$/;

function fileRef(c: Checker, v: unknown, path: string): FileRef | undefined {
  if (v === undefined) {
    c.error(path, 'Missing: which uploaded file ({"name", "contentHash"}).');
    return undefined;
  }
  const before = c.errors.length;
  const o = c.object(v, path, ['name', 'contentHash']);
  if (!isPlainObject(v)) return undefined;
  const name = c.text(o.name, join(path, 'name'), { max: 255, what: 'the file name' });
  if (typeof o.contentHash !== 'string' || !CONTENT_HASH.test(o.contentHash)) {
    c.error(join(path, 'contentHash'), `Must be the file's content hash ("fnv1a64:" + 16 hex digits, or "sha256:" + 64); got ${show(o.contentHash)}.`);
  }
  return c.errors.length === before ? { name: name!, contentHash: o.contentHash as string } : undefined;
}

function reuploadWarning(c: Checker, path: string, ref: FileRef, what: string): void {
  c.warnings.push({
    path,
    message:
      `This experiment uses the uploaded ${what} "${ref.name}" (${ref.contentHash}). A link or config file never carries a file's ` +
      'contents: provide that file again (upload it, or pass it to the CLI); CIL Lab checks it is the same file.',
  });
}

function datasetOf(c: Checker, v: unknown): { dataset: DatasetConfig; names: string[] | undefined } {
  const fill = (): { dataset: DatasetConfig; names: string[] } => {
    const d = V1_FILL.dataset as { id: BuiltinDatasetRef };
    return { dataset: { id: d.id }, names: getClassList(datasetClassListId(d.id)).classes };
  };
  if (v === undefined) return fill();
  const o = c.object(v, 'dataset', ['id', 'classNames', 'images']);
  if (!isPlainObject(v)) return { ...fill(), names: undefined };
  const ids = [...BUILTIN_DATASET_REFS, 'custom'] as const;
  const id = o.id === undefined ? (V1_FILL.dataset.id as string) : o.id;
  if (typeof id !== 'string' || !(ids as readonly string[]).includes(id)) {
    c.error('dataset.id', `Must be a built-in dataset (${list(BUILTIN_DATASET_REFS)}) or "custom"; got ${show(id)}.${typeof id === 'string' ? suggestion(id, ids) : ''}`);
    return { ...fill(), names: undefined };
  }
  if (id !== 'custom') {
    for (const k of ['classNames', 'images'] as const) {
      if (o[k] !== undefined) c.error(join('dataset', k), `Only a custom dataset has "${k}"; "${id}" is built in.`);
    }
    return { dataset: { id: id as BuiltinDatasetRef }, names: getClassList(datasetClassListId(id as BuiltinDatasetRef)).classes };
  }
  let names: string[] | undefined;
  if (o.classNames === undefined) c.error('dataset.classNames', 'Missing: a custom dataset lists its class names.');
  else {
    const arr = c.array(o.classNames, 'dataset.classNames', 2, CONFIG_LIMITS.classes);
    if (arr) {
      const bad = arr.findIndex((n) => typeof n !== 'string' || n.length > CONFIG_LIMITS.classNameLength);
      if (bad >= 0) c.error(`dataset.classNames[${bad}]`, `A class name must be text of at most ${CONFIG_LIMITS.classNameLength} characters; got ${show(arr[bad])}.`);
      else {
        try {
          names = validateClassNames(arr as string[]);
        } catch (e) {
          c.error('dataset.classNames', (e as Error).message);
        }
      }
    }
  }
  let images: FileRef | null = null;
  if (o.images !== undefined && o.images !== null) {
    const ref = fileRef(c, o.images, 'dataset.images');
    if (ref) {
      images = ref;
      reuploadWarning(c, 'dataset.images', ref, 'image dataset');
    }
  }
  return { dataset: { id: 'custom', classNames: names ?? [], images }, names };
}

function classesOf(c: Checker, v: unknown, names: string[] | undefined, custom: boolean): number[] {
  const n = names?.length ?? 0;
  const fill = names ? [...Array(custom ? n : Math.min(V1_FILL.classesPerDataset, n)).keys()] : [];
  if (v === undefined) return fill;
  const arr = c.array(v, 'classes', 2, CONFIG_LIMITS.classes);
  if (!arr) return fill;
  const before = c.errors.length;
  const seen = new Set<number>();
  arr.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0) c.error(`classes[${i}]`, `A class is its index in the dataset's class list (0, 1, …); got ${show(x)}.`);
    else if (names && x >= n) c.error(`classes[${i}]`, `Class ${x} does not exist: the dataset has classes 0..${n - 1}.`);
    else if (seen.has(x)) c.error(`classes[${i}]`, `Class ${x} is selected twice.`);
    else seen.add(x);
  });
  return c.errors.length === before ? (arr as number[]).slice().sort((a, b) => a - b) : fill;
}

function taskSizesOf(c: Checker, v: unknown, classCount: number, classesOk: boolean): number[] {
  if (v === undefined) {
    const k = V1_FILL.tasks;
    if (classCount >= k && classCount % k === 0) return Array(k).fill(classCount / k);
    if (classesOk && classCount > 0) c.error('taskSizes', `Missing: ${classCount} classes do not split into ${k} equal tasks, so give the task sizes (they sum to ${classCount}).`);
    return classCount > 0 ? [classCount] : [];
  }
  const arr = c.array(v, 'taskSizes', 1, CONFIG_LIMITS.classes);
  if (!arr) return [classCount];
  const before = c.errors.length;
  arr.forEach((m, i) => {
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 1) c.error(`taskSizes[${i}]`, `Task ${i + 1} has size ${show(m)}; every task size must be a whole number ≥ 1.`);
  });
  if (c.errors.length > before) return [classCount];
  const sizes = arr as number[];
  const total = sizes.reduce((a, b) => a + b, 0);
  if (classesOk && total !== classCount) {
    c.error('taskSizes', `Task sizes ${sizes.join(',')} sum to ${total}, but ${classCount} classes are selected: they must sum to ${classCount}.`);
    return [classCount];
  }
  return sizes.slice();
}

function promptOf(c: Checker, v: unknown, path: string): PromptSpec {
  const fill = V1_FILL.clip.prompt;
  if (v === undefined) return { ...fill };
  if (!isPlainObject(v)) {
    c.error(path, `Must be a prompt ({"kind": "bare" | "template" | "descriptions", …}); got ${show(v)}.`);
    return { ...fill };
  }
  const kind = c.choice(v.kind, join(path, 'kind'), ['bare', 'template', 'descriptions'] as const, 'bare');
  const known = kind === 'bare' ? ['kind', 'underscores'] : kind === 'template' ? ['kind', 'template', 'underscores'] : ['kind', 'descriptions', 'template', 'underscores'];
  c.object(v, path, known);
  const underscores = v.underscores === undefined ? undefined : c.choice(v.underscores, join(path, 'underscores'), ['keep', 'space'] as const, 'keep');
  const template = (required: boolean): string | undefined => {
    if (v.template === undefined) {
      if (required) c.error(join(path, 'template'), 'Missing: a template with {} where the class name goes, e.g. "a photo of a {}".');
      return undefined;
    }
    if (typeof v.template !== 'string' || v.template.length > CONFIG_LIMITS.textLength) {
      c.error(join(path, 'template'), `Must be text with {} where the class name goes; got ${show(v.template)}.`);
      return undefined;
    }
    try {
      return validateTemplate(v.template);
    } catch (e) {
      c.error(join(path, 'template'), (e as Error).message);
      return undefined;
    }
  };
  // The underscore rule is dropped when it equals the kind's own default (prompts.ts), so equal prompts are equal configs.
  switch (kind) {
    case 'bare':
      return underscores === 'space' ? { kind, underscores } : { kind };
    case 'template': {
      const t = template(true);
      if (t === undefined) return { ...fill };
      return underscores === 'keep' ? { kind, template: t, underscores } : { kind, template: t };
    }
    case 'descriptions': {
      const t = template(false);
      const dpath = join(path, 'descriptions');
      let descriptions: Record<string, string> = {};
      if (v.descriptions === undefined) c.error(dpath, 'Missing: an object mapping class names to their descriptions.');
      else if (!isPlainObject(v.descriptions)) c.error(dpath, `Must be an object mapping class names to text; got ${show(v.descriptions)}.`);
      else {
        const entries = Object.entries(v.descriptions);
        if (entries.length > CONFIG_LIMITS.classes) c.error(dpath, `Must have at most ${CONFIG_LIMITS.classes} descriptions; got ${entries.length}.`);
        else {
          const bad = entries.find(([, d]) => typeof d !== 'string' || d.length > CONFIG_LIMITS.textLength);
          if (bad) c.error(join(dpath, bad[0]), `A description must be text of at most ${CONFIG_LIMITS.textLength} characters; got ${show(bad[1])}.`);
          else descriptions = Object.fromEntries(entries) as Record<string, string>;
        }
      }
      const ownDefault = t !== undefined ? 'space' : 'keep';
      const spec: PromptSpec = { kind, descriptions };
      if (t !== undefined) spec.template = t;
      if (underscores !== undefined && underscores !== ownDefault) spec.underscores = underscores;
      return spec;
    }
  }
}

function weightsOf(c: Checker, v: unknown, path: string): ClipWeightSource {
  if (v === undefined) return { kind: 'hub' };
  if (!isPlainObject(v)) {
    c.error(path, `Must be a weight source ({"kind": "hub" | "self-hosted" | "mirror", …}); got ${show(v)}.`);
    return { kind: 'hub' };
  }
  const kind = c.choice(v.kind, join(path, 'kind'), ['hub', 'self-hosted', 'mirror'] as const, 'hub');
  c.object(v, path, kind === 'hub' ? ['kind'] : kind === 'self-hosted' ? ['kind', 'path'] : ['kind', 'url']);
  if (kind === 'self-hosted') {
    const p = c.text(v.path, join(path, 'path'), { max: 1000, what: 'a folder or URL path (e.g. "/models/")' });
    return p === undefined ? { kind: 'hub' } : { kind, path: p };
  }
  if (kind === 'mirror') {
    if (typeof v.url !== 'string' || !/^https?:\/\/\S+$/i.test(v.url) || v.url.length > 1000) {
      c.error(join(path, 'url'), `Must be an http(s) URL (e.g. "https://hf-mirror.com/"); got ${show(v.url)}.`);
      return { kind: 'hub' };
    }
    return { kind, url: v.url };
  }
  return { kind: 'hub' };
}

function similarityOf(c: Checker, v: unknown): SimilarityConfig {
  const path = 'similarity';
  if (v === undefined) return { kind: 'wordnet', pins: {} };
  if (!isPlainObject(v)) {
    c.error(path, `Must be a similarity source ({"kind": "wordnet" | "clip" | "upload", …}); got ${show(v)}.`);
    return { kind: 'wordnet', pins: {} };
  }
  const kind = c.choice(v.kind, 'similarity.kind', ['wordnet', 'clip', 'upload'] as const, 'wordnet');
  switch (kind) {
    case 'wordnet': {
      c.object(v, path, ['kind', 'pins']);
      let pins: Record<string, string> = {};
      if (v.pins !== undefined) {
        if (!isPlainObject(v.pins)) c.error('similarity.pins', `Must be an object mapping class names to WordNet synset ids; got ${show(v.pins)}.`);
        else {
          const entries = Object.entries(v.pins);
          const bad = entries.find(([, s]) => typeof s !== 'string' || !SYNSET.test(s));
          if (entries.length > CONFIG_LIMITS.classes) c.error('similarity.pins', `Must have at most ${CONFIG_LIMITS.classes} pins; got ${entries.length}.`);
          else if (bad) c.error(join('similarity.pins', bad[0]), `Must be a WordNet 3.1 noun synset id ("n" + 8 digits, e.g. "n02084071"); got ${show(bad[1])}.`);
          else pins = Object.fromEntries(entries) as Record<string, string>;
        }
      }
      return { kind, pins };
    }
    case 'clip': {
      c.object(v, path, ['kind', 'model', 'dtype', 'prompt', 'weights']);
      let model: string = V1_FILL.clip.model;
      if (v.model !== undefined) {
        if (typeof v.model !== 'string' || !HUB_MODEL.test(v.model) || v.model.length > 200) {
          c.error('similarity.model', `Must be a model id like "${DEFAULT_CLIP_MODEL}"; got ${show(v.model)}.`);
        } else model = v.model;
      }
      return {
        kind,
        model,
        dtype: c.choice(v.dtype, 'similarity.dtype', ['q8', 'fp32'] as const, V1_FILL.clip.dtype),
        prompt: promptOf(c, v.prompt, 'similarity.prompt'),
        weights: weightsOf(c, v.weights, 'similarity.weights'),
      };
    }
    case 'upload': {
      c.object(v, path, ['kind', 'file']);
      const ref = fileRef(c, v.file, 'similarity.file');
      if (!ref) return { kind: 'wordnet', pins: {} };
      reuploadWarning(c, 'similarity.file', ref, 'similarity file');
      return { kind, file: ref };
    }
  }
}

function protocolsOf(c: Checker, v: unknown): ProtocolsConfig {
  const f = V1_FILL.protocols;
  const o = c.object(v, 'protocols', ['enabled', 'rsSeeds', 'medianSeed', 'msSamples', 'msSeed', 'exactLimit', 'distribution']);
  let enabled = f.enabled.slice();
  if (o.enabled !== undefined) {
    const arr = c.array(o.enabled, 'protocols.enabled', 0, PROTOCOL_IDS.length);
    if (arr) {
      const before = c.errors.length;
      const seen = new Set<string>();
      arr.forEach((p, i) => {
        if (typeof p !== 'string' || !(PROTOCOL_IDS as readonly string[]).includes(p)) {
          c.error(`protocols.enabled[${i}]`, `Must be one of ${list(PROTOCOL_IDS)}; got ${show(p)}.`);
        } else if (seen.has(p)) c.error(`protocols.enabled[${i}]`, `Protocol "${p}" is listed twice.`);
        else seen.add(p);
      });
      if (c.errors.length === before) enabled = PROTOCOL_IDS.filter((p) => seen.has(p));
    }
  }
  const rsSeeds = c.seeds(o.rsSeeds, 'protocols.rsSeeds', 0, CONFIG_LIMITS.rsSeeds, f.rsSeeds);
  if (enabled.includes('rs') && rsSeeds.length === 0) c.error('protocols.rsSeeds', 'RS is enabled: give at least one RS seed (for example 0, 42, 1993).');
  const d = c.object(o.distribution, 'protocols.distribution', ['sampleSize', 'seed']);
  return {
    enabled,
    rsSeeds,
    medianSeed: c.seed(o.medianSeed, 'protocols.medianSeed', f.medianSeed),
    msSamples: c.int(o.msSamples, 'protocols.msSamples', 1, 1_000_000, f.msSamples),
    msSeed: c.seed(o.msSeed, 'protocols.msSeed', f.msSeed),
    exactLimit: c.int(o.exactLimit, 'protocols.exactLimit', 1, 100_000_000, f.exactLimit),
    distribution: {
      sampleSize: c.int(d.sampleSize, 'protocols.distribution.sampleSize', 1, 10_000_000, f.distribution.sampleSize),
      seed: c.seed(d.seed, 'protocols.distribution.seed', f.distribution.seed),
    },
  };
}

function modelOf(c: Checker, v: unknown): ModelConfig {
  const fill = (): ModelConfig => ({ kind: 'mlp', hidden: [256, 128] });
  if (v === undefined) return fill();
  if (!isPlainObject(v)) {
    c.error('model', `Must be a model ({"kind": "mlp", "hidden": […]} or {"kind": "cnn", …}); got ${show(v)}.`);
    return fill();
  }
  const kind = c.choice(v.kind, 'model.kind', ['mlp', 'cnn'] as const, 'mlp');
  const widths = (x: unknown, path: string, min: number, max: number, fillW: readonly number[]): number[] => {
    if (x === undefined) return fillW.slice();
    const arr = c.array(x, path, min, max);
    if (!arr) return fillW.slice();
    const before = c.errors.length;
    arr.forEach((w, i) => c.int(w, join(path, i), 1, CONFIG_LIMITS.width, 1));
    return c.errors.length === before ? (arr as number[]).slice() : fillW.slice();
  };
  if (kind === 'mlp') {
    c.object(v, 'model', ['kind', 'hidden']);
    return { kind, hidden: widths(v.hidden, 'model.hidden', 0, CONFIG_LIMITS.hiddenLayers, [256, 128]) };
  }
  c.object(v, 'model', ['kind', 'filters', 'dense']);
  const filters = widths(v.filters, 'model.filters', 2, 2, V1_FILL.cnn.filters) as [number, number];
  return { kind, filters, dense: c.int(v.dense, 'model.dense', 1, CONFIG_LIMITS.width, V1_FILL.cnn.dense) };
}

function strategiesOf(c: Checker, v: unknown): StrategySetting[] {
  const fill = (): StrategySetting[] => V1_FILL.strategies.map((s) => ({ id: s.id, options: { ...s.options } }) as StrategySetting);
  if (v === undefined) return fill();
  const arr = c.array(v, 'strategies', 1, STRATEGY_IDS.length);
  if (!arr) return fill();
  const before = c.errors.length;
  const seen = new Set<string>();
  const out: StrategySetting[] = [];
  arr.forEach((s, i) => {
    const path = `strategies[${i}]`;
    if (!isPlainObject(s)) {
      c.error(path, `Must be a strategy ({"id": "ewc", "options": {…}}); got ${show(s)}.`);
      return;
    }
    c.object(s, path, ['id', 'options']);
    if (typeof s.id !== 'string' || !(STRATEGY_IDS as string[]).includes(s.id)) {
      c.error(join(path, 'id'), s.id === undefined ? `Missing: which strategy (${list(STRATEGY_IDS)}).` : `Must be one of ${list(STRATEGY_IDS)}; got ${show(s.id)}.${typeof s.id === 'string' ? suggestion(s.id, STRATEGY_IDS) : ''}`);
      return;
    }
    const id = s.id as StrategyId;
    if (seen.has(id)) {
      c.error(join(path, 'id'), `Strategy "${id}" is listed twice; each strategy appears once (results are stored per strategy).`);
      return;
    }
    seen.add(id);
    const defaults = STRATEGY_OPTION_FILL[id] as Record<string, number | string>;
    const known = Object.keys(defaults);
    const opath = join(path, 'options');
    const given = s.options === undefined ? {} : s.options;
    if (!isPlainObject(given)) {
      c.error(opath, `Must be an object of ${id}'s hyper-parameters; got ${show(given)}.`);
      return;
    }
    const options: Record<string, number | string> = {};
    for (const key of Object.keys(given)) {
      if (!known.includes(key)) {
        c.error(join(opath, key), known.length ? `Strategy ${id} has no option "${key}"; it has ${list(known)}.${suggestion(key, known)}` : `Strategy ${id} has no options.`);
      }
    }
    for (const key of known) {
      const rule = OPTION_RULES[key];
      const x = given[key];
      const p = join(opath, key);
      if (rule.choices) options[key] = c.choice(x, p, rule.choices, defaults[key] as string);
      else if (rule.int) options[key] = c.int(x, p, rule.min, rule.max, defaults[key] as number);
      else options[key] = c.num(x, p, rule, defaults[key] as number);
    }
    out.push({ id, options } as StrategySetting);
  });
  return c.errors.length === before ? out : fill();
}

function trainingOf(c: Checker, v: unknown): TrainingConfig {
  const f = V1_FILL.training;
  const o = c.object(v, 'training', ['epochs', 'firstTaskEpochs', 'lr', 'batchSize', 'optimiser', 'head']);
  const epochs = c.int(o.epochs, 'training.epochs', 0, CONFIG_LIMITS.epochs, f.epochs);
  let optimiser: TrainingConfig['optimiser'] = { ...f.optimiser };
  if (o.optimiser !== undefined) {
    if (!isPlainObject(o.optimiser)) c.error('training.optimiser', `Must be an optimiser ({"kind": "adam", …}); got ${show(o.optimiser)}.`);
    else {
      const p = o.optimiser;
      c.object(p, 'training.optimiser', ['kind', 'beta1', 'beta2', 'epsilon']);
      optimiser = {
        kind: c.choice(p.kind, 'training.optimiser.kind', ['adam'] as const, 'adam'),
        beta1: c.num(p.beta1, 'training.optimiser.beta1', { min: 0, max: 1, exclusiveMax: true }, f.optimiser.beta1),
        beta2: c.num(p.beta2, 'training.optimiser.beta2', { min: 0, max: 1, exclusiveMax: true }, f.optimiser.beta2),
        epsilon: c.num(p.epsilon, 'training.optimiser.epsilon', { min: 0, max: 1, exclusiveMin: true }, f.optimiser.epsilon),
      };
    }
  }
  return {
    epochs,
    firstTaskEpochs: c.int(o.firstTaskEpochs, 'training.firstTaskEpochs', 0, CONFIG_LIMITS.epochs, epochs),
    lr: c.num(o.lr, 'training.lr', { min: 0, max: 10, exclusiveMin: true }, f.lr),
    batchSize: c.int(o.batchSize, 'training.batchSize', 1, 65_536, f.batchSize),
    optimiser,
    head: c.choice(o.head, 'training.head', ['seen', 'all'] as const, f.head),
  };
}

function uiOf(c: Checker, v: unknown, classes: number[], taskSizes: number[], checkOrdering: boolean): UiConfig {
  const f = V1_FILL.ui;
  const o = c.object(v, 'ui', ['teaching', 'hiddenControls', 'selectedOrdering', 'accuracy']);
  let hiddenControls: string[] = [];
  if (o.hiddenControls !== undefined) {
    const arr = c.array(o.hiddenControls, 'ui.hiddenControls', 0, 100);
    if (arr) {
      const before = c.errors.length;
      const seen = new Set<string>();
      arr.forEach((h, i) => {
        if (typeof h !== 'string' || !CONTROL_ID.test(h)) c.error(`ui.hiddenControls[${i}]`, `Must be a control id (lowercase letters, digits and hyphens, e.g. "seeds"); got ${show(h)}.`);
        else if (seen.has(h)) c.error(`ui.hiddenControls[${i}]`, `"${h}" is listed twice.`);
        else seen.add(h);
      });
      if (c.errors.length === before) hiddenControls = [...seen].sort();
    }
  }
  let selectedOrdering: string | null = null;
  if (o.selectedOrdering !== undefined && o.selectedOrdering !== null) {
    const key = o.selectedOrdering;
    const path = 'ui.selectedOrdering';
    if (typeof key !== 'string' || key.length > 20_000 || !/^\d+(,\d+)*(\|\d+(,\d+)*)*$/.test(key)) {
      c.error(path, `Must be an ordering key like "0,3|1,5|2,4" (tasks separated by |), or null; got ${show(key)}.`);
    } else {
      const tasks = key.split('|').map((t) => t.split(',').map(Number).sort((a, b) => a - b));
      const flat = tasks.flat();
      const wanted = new Set(classes);
      const sizesOk = tasks.length === taskSizes.length && tasks.every((t, i) => t.length === taskSizes[i]);
      const classesOk = flat.length === classes.length && new Set(flat).size === flat.length && flat.every((x) => wanted.has(x));
      if (checkOrdering && !(sizesOk && classesOk)) {
        c.error(
          path,
          `The ordering "${key}" does not fit the experiment: it must place each selected class (${classes.join(',')}) once, in tasks of sizes ${taskSizes.join(',')}.`,
        );
      } else selectedOrdering = tasks.map((t) => t.join(',')).join('|');
    }
  }
  return {
    teaching: c.bool(o.teaching, 'ui.teaching', f.teaching),
    hiddenControls,
    selectedOrdering,
    accuracy: c.choice(o.accuracy, 'ui.accuracy', ['final', 'aia'] as const, f.accuracy),
  };
}

const TOP_LEVEL = [
  'version',
  'lab',
  'dataset',
  'classes',
  'taskSizes',
  'similarity',
  'protocols',
  'groundTruth',
  'model',
  'strategies',
  'training',
  'data',
  'seeds',
  'conformal',
  'forgetting',
  'backend',
  'ui',
] as const;

/**
 * Check every field of a config (from a link, a file or the UI), fill missing fields with their v1 fill-ins
 * (see the compatibility rule at the top of this file), and normalise (classes ascending, protocols in
 * PROTOCOL_IDS order, redundant prompt settings dropped). Never throws.
 */
export function validateConfig(input: unknown): ConfigValidation {
  const c = new Checker();
  if (!isPlainObject(input)) {
    c.error('', `An experiment config must be a JSON object ({…}); got ${show(input)}.`);
    return { config: validateConfig({}).config, errors: c.errors, warnings: [] };
  }
  c.object(input, '', TOP_LEVEL);
  if (input.version !== undefined && input.version !== CONFIG_VERSION) {
    const v = input.version;
    c.error(
      'version',
      typeof v === 'number' && Number.isInteger(v) && v > CONFIG_VERSION
        ? `This config was made by a newer CIL Lab (v${v}); this version reads v${CONFIG_VERSION} configs.`
        : `Must be ${CONFIG_VERSION}; got ${show(v)}.`,
    );
  }
  const lab = c.choice(input.lab, 'lab', LAB_IDS, V1_FILL.lab);

  const errorsBeforeDataset = c.errors.length;
  const { dataset, names } = datasetOf(c, input.dataset);
  const datasetOk = c.errors.length === errorsBeforeDataset && names !== undefined;
  const errorsBeforeClasses = c.errors.length;
  const classes = classesOf(c, input.classes, datasetOk ? names : undefined, dataset.id === 'custom');
  const classesOk = datasetOk && c.errors.length === errorsBeforeClasses;
  const errorsBeforeSizes = c.errors.length;
  const taskSizes = taskSizesOf(c, input.taskSizes, classes.length, classesOk);
  const sizesOk = classesOk && c.errors.length === errorsBeforeSizes;

  const similarity = similarityOf(c, input.similarity);
  const protocols = protocolsOf(c, input.protocols);
  const g = c.object(input.groundTruth, 'groundTruth', ['budget', 'sampleSeed']);
  const groundTruth: GroundTruthConfig = {
    budget: c.int(g.budget, 'groundTruth.budget', 1, 1_000_000, V1_FILL.groundTruth.budget),
    sampleSeed: c.seed(g.sampleSeed, 'groundTruth.sampleSeed', V1_FILL.groundTruth.sampleSeed),
  };
  const model = modelOf(c, input.model);
  const strategies = strategiesOf(c, input.strategies);
  const training = trainingOf(c, input.training);
  const d = c.object(input.data, 'data', ['trainPerClass', 'testPerClass']);
  const data: DataConfig = {
    trainPerClass: c.intOrNull(d.trainPerClass, 'data.trainPerClass', 1, 1_000_000, V1_FILL.data.trainPerClass),
    testPerClass: c.intOrNull(d.testPerClass, 'data.testPerClass', 1, 1_000_000, V1_FILL.data.testPerClass),
  };
  const seeds = c.seeds(input.seeds, 'seeds', 1, CONFIG_LIMITS.seeds, V1_FILL.seeds);
  const cf = c.object(input.conformal, 'conformal', ['alpha', 'calibrationRatio', 'score', 'raps', 'softmax']);
  const r = c.object(cf.raps, 'conformal.raps', ['lambda', 'kReg']);
  const conformal: ConformalConfig = {
    alpha: c.num(cf.alpha, 'conformal.alpha', { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true }, V1_FILL.conformal.alpha),
    calibrationRatio: c.num(cf.calibrationRatio, 'conformal.calibrationRatio', { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true }, V1_FILL.conformal.calibrationRatio),
    score: c.choice(cf.score, 'conformal.score', ['aps', 'lac', 'raps'] as const, V1_FILL.conformal.score),
    raps: {
      lambda: c.num(r.lambda, 'conformal.raps.lambda', { min: 0, max: 100 }, V1_FILL.conformal.raps.lambda),
      kReg: c.int(r.kReg, 'conformal.raps.kReg', 0, 100_000, V1_FILL.conformal.raps.kReg),
    },
    softmax: c.choice(cf.softmax, 'conformal.softmax', ['seen', 'all'] as const, V1_FILL.conformal.softmax),
  };
  const fg = c.object(input.forgetting, 'forgetting', ['preset']);
  const forgetting: ForgettingConfig = { preset: V1_FILL.forgetting.preset };
  if (fg.preset !== undefined && fg.preset !== null) {
    if (typeof fg.preset === 'string' && (FORGETTING_PRESET_IDS as readonly string[]).includes(fg.preset)) forgetting.preset = fg.preset as ForgettingPresetId;
    else {
      const hint = typeof fg.preset === 'string' ? suggestion(fg.preset, FORGETTING_PRESET_IDS) : '';
      c.error('forgetting.preset', `Must be one of ${list(FORGETTING_PRESET_IDS)}, or null (one run); got ${show(fg.preset)}.${hint}`);
    }
  }
  const b = c.object(input.backend, 'backend', ['train', 'embed']);
  const backend: BackendConfig = {
    train: c.choice(b.train, 'backend.train', ['auto', 'webgpu', 'webgl', 'wasm', 'cpu'] as const, V1_FILL.backend.train),
    embed: c.choice(b.embed, 'backend.embed', ['auto', 'webgpu', 'wasm', 'cpu'] as const, V1_FILL.backend.embed),
  };
  const ui = uiOf(c, input.ui, classes, taskSizes, sizesOk);

  // Cross-field rules.
  if (lab !== 'orderings' && datasetOk) {
    const trainable = dataset.id === 'custom' ? dataset.images !== null : datasetHasImages(dataset.id);
    if (!trainable) {
      const labName = lab === 'ground-truth' ? 'Ground-truth' : 'Forgetting';
      c.error(
        'dataset',
        dataset.id === 'custom'
          ? `The ${labName} lab trains models, so it needs images: add an uploaded image dataset (dataset.images) or choose ${list(BUILTIN_DATASET_REFS.filter(datasetHasImages))}.`
          : `"${dataset.id}" has class names only; the ${labName} lab trains models and needs images: choose ${list(BUILTIN_DATASET_REFS.filter(datasetHasImages))}, or a custom dataset with images.`,
      );
    }
  }
  if (lab === 'forgetting' && data.trainPerClass !== null) {
    const held = Math.round(conformal.calibrationRatio * data.trainPerClass);
    if (held < 1 || held >= data.trainPerClass) {
      c.error(
        'conformal.calibrationRatio',
        `With ${data.trainPerClass} training images per class, a calibration ratio of ${conformal.calibrationRatio} holds out ${held}; it must hold out at least 1 and leave at least 1 to train on.`,
      );
    }
  }

  const config: ExperimentConfig = {
    version: CONFIG_VERSION,
    lab,
    dataset,
    classes,
    taskSizes,
    similarity,
    protocols,
    groundTruth,
    model,
    strategies,
    training,
    data,
    seeds,
    conformal,
    forgetting,
    backend,
    ui,
  };
  return { config, errors: c.errors, warnings: c.warnings };
}

/** validateConfig, throwing a ConfigError that lists every problem. */
export function assertValidConfig(input: unknown, what = 'The experiment config'): ExperimentConfig {
  const { config, errors } = validateConfig(input);
  if (errors.length > 0) throw new ConfigError(`${what} is invalid: ${formatIssues(errors)}`, errors);
  return config;
}

/** "a.b: message; c: message" (at most `max` listed, then "and N more"). */
export function formatIssues(issues: readonly ConfigIssue[], max = 10): string {
  const shown = issues.slice(0, max).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length > max ? ` … and ${issues.length - max} more.` : '';
  return shown.join(' ') + more;
}

/** The class names of the experiment (selected classes of the dataset, in `classes` order). */
export function experimentClassNames(config: ExperimentConfig): string[] {
  const names = config.dataset.id === 'custom' ? config.dataset.classNames : getClassList(datasetClassListId(config.dataset.id)).classes;
  return config.classes.map((i) => names[i]);
}

/** The protocol run's options (src/core/protocols/run.ts) of a config; one limit serves exact extremes and the histogram. */
export function protocolOptionsOf(config: ExperimentConfig): ProtocolOptions {
  const p = config.protocols;
  return {
    protocols: p.enabled.slice(),
    rsSeeds: p.rsSeeds.slice(),
    medianSeed: p.medianSeed,
    msSamples: p.msSamples,
    msSeed: p.msSeed,
    exactLimit: p.exactLimit,
    distribution: { limit: p.exactLimit, sampleSize: p.distribution.sampleSize, seed: p.distribution.seed },
  };
}

/**
 * The training engine's per-run settings of a config (the fields of src/engine/types.ts TrainRunConfig other
 * than tasks, seed and strategy; plain data, so core does not import the engine). `probs` is set in the
 * Forgetting lab, which records softmax outputs on a held-out calibration split.
 */
export function trainingOptionsOf(config: ExperimentConfig) {
  const t = config.training;
  return {
    model: config.model.kind === 'mlp' ? { kind: 'mlp' as const, hidden: config.model.hidden.slice() } : { kind: 'cnn' as const, filters: config.model.filters.slice(), dense: config.model.dense },
    lr: t.lr,
    beta1: t.optimiser.beta1,
    beta2: t.optimiser.beta2,
    epsilon: t.optimiser.epsilon,
    batchSize: t.batchSize,
    epochs: t.epochs,
    firstTaskEpochs: t.firstTaskEpochs,
    head: t.head,
    augment: config.dataset.id === 'emoji', // seeded training-batch augmentation (engine augment.ts): emoji's test styles are never trained on (issue 3)
    probs: config.lab === 'forgetting' ? { calibrationRatio: config.conformal.calibrationRatio, softmax: config.conformal.softmax } : undefined,
  };
}

// ═══════════════════════════════════════════ canonical and compact forms ═══════════════════════════════════════════

/** JSON with object keys sorted at every depth (arrays keep their order): equal configs give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isPlainObject(v)) {
    return Object.fromEntries(
      Object.keys(v)
        .filter((k) => v[k] !== undefined)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  }
  return v;
}

/** Records whose entries are data, not fields with fill-ins: never compacted entry by entry. */
const ATOMIC_KEYS = new Set(['pins', 'descriptions']);

/**
 * The config with every field that equals its fill-in removed (rule 6 of the compatibility rule): what links and
 * configHash are made of. By construction `validateConfig(compactConfig(c)).config` equals `c`: each removal is
 * kept only if re-validation restores the same config, so the compact form is exactly as expressive as the full
 * one. Deterministic: the input is normalised first and walked in a fixed key order.
 */
export function compactConfig(config: ExperimentConfig): Record<string, unknown> {
  const checked = validateConfig(config);
  if (checked.errors.length > 0) throw new ConfigError(`Cannot compact an invalid config: ${formatIssues(checked.errors)}`, checked.errors);
  const target = canonicalJson(checked.config);
  const work = JSON.parse(canonicalJson(checked.config)) as Record<string, unknown>;
  const restores = (): boolean => {
    const r = validateConfig(work);
    return r.errors.length === 0 && canonicalJson(r.config) === target;
  };
  const visit = (obj: Record<string, unknown>): void => {
    for (const key of Object.keys(obj)) {
      const saved = obj[key];
      delete obj[key];
      if (restores()) continue;
      obj[key] = saved;
      if (ATOMIC_KEYS.has(key)) continue;
      if (isPlainObject(saved)) visit(saved);
      else if (Array.isArray(saved)) for (const el of saved) if (isPlainObject(el)) visit(el);
    }
  };
  visit(work);
  return JSON.parse(canonicalJson(work)) as Record<string, unknown>;
}
