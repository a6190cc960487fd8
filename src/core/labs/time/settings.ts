/**
 * The Time lab's settings (docs/science.md §7): the type, its defaults and a validator that the share link and the
 * config file use for this lab's section. Pure data: numbers, strings, one nested α.
 */
import { CONFIG_LIMITS, TIME_LIMITS } from '../../config/limits'; // not ../config/schema: its time section imports this module
import { checkSettings, commonFields, settingsDefaults, settingsTable, type CommonKeyOf, type SettingsOf } from '../../config/settings-table';
import { STREAM_KINDS } from '../../stream/buckets';
import { STREAM_PROTOCOLS, type StreamProtocol } from '../../stream/metrics';
import { checkAlpha, parseAlpha, type AlphaSpec } from '../../stream/reservoir';

export type TimeLabMode = 'finetune' | 'scratch' | 'linear';
const TIME_LAB_MODES: readonly TimeLabMode[] = ['finetune', 'scratch', 'linear'];

const T = TIME_LIMITS;

/** An α of Alg. 1 as a link writes it: {"kind":"fixed","value":α} or {"kind":"dynamic","c":C}, within the paper's range. */
function alphaOf(x: unknown): { value: AlphaSpec } | { error: string } {
  const a = x as Record<string, unknown>;
  let spec: AlphaSpec | undefined;
  if (typeof a === 'object' && a !== null && a.kind === 'fixed' && typeof a.value === 'number' && Object.keys(a).length === 2)
    spec = { kind: 'fixed', value: a.value };
  else if (typeof a === 'object' && a !== null && a.kind === 'dynamic' && typeof a.c === 'number' && Object.keys(a).length === 2)
    spec = { kind: 'dynamic', c: a.c };
  if (!spec) return { error: `Must be {"kind":"fixed","value":α} or {"kind":"dynamic","c":C}; got ${JSON.stringify(x)}.` };
  try {
    checkAlpha(spec);
    return { value: spec };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * The Time lab's settings, each declared once (src/core/config/settings-table.ts): the type, defaults, the link's
 * checks, the control's words and `cil-lab stream`'s flags come from here. The order is the settings' key order (the
 * runs' store keys are written in it): a new field goes last. `common`: held by the experiment's common sections
 * when the lab's section is its own form. The defaults are the v1 fill-in (frozen); `absent` fields are optional,
 * their absent value what links made before them meant.
 */
export const TIME_SETTINGS = settingsTable({
  stream: { kind: 'choice', options: STREAM_KINDS, default: 'drift', flag: 'stream', label: 'the built-in stream: the drift, or a control' },
  buckets: { kind: 'int', ...T.buckets, default: 5, flag: 'buckets', label: 'K buckets' },
  perClass: { kind: 'int', ...T.perClass, default: 100, flag: 'per-class', label: 'images of each of the 10 classes in each bucket' },
  strength: { kind: 'number', ...T.strength, default: 1, flag: 'strength', label: 'drift strength, 1 the full path' },
  protocols: {
    kind: 'list',
    options: STREAM_PROTOCOLS,
    item: 'protocol',
    default: ['iid', 'streaming'],
    flag: 'protocol',
    label: 'the protocols to run: the lab runs both, side by side',
  },
  trainRatio: { kind: 'number', ...T.trainRatio, default: 0.7, flag: 'train-ratio', label: "the iid protocol's training share of a bucket, the paper's 0.7" },
  mode: {
    kind: 'choice',
    options: TIME_LAB_MODES,
    default: 'finetune',
    flag: 'mode',
    label: 'training mode',
    labels: {
      finetune: 'finetune: keep training the same model',
      scratch: 'from scratch: a new model at every bucket',
      linear: 'linear probe: a linear head on frozen features of a model trained on bucket 0',
    },
  },
  buffer: { kind: 'choice', options: ['cumulative', 'reservoir'], default: 'cumulative', flag: 'buffer', label: 'what step i trains on' },
  k: { kind: 'int', ...T.k, default: 700, flag: 'k', label: "the reservoir's size in samples", defaultText: "one bucket's training part" },
  alpha: {
    kind: 'value',
    default: { kind: 'fixed', value: 1 } as AlphaSpec,
    check: alphaOf,
    parse: parseAlpha,
    flag: 'alpha',
    value: 'A|dynamic:C',
    defaultText: '1, the classic reservoir',
    label: "the reservoir's α (Alg. 1): a fixed α, or dynamic:C for α = C·i/k",
  },
  model: { kind: 'choice', options: ['mlp', 'cnn'], default: 'mlp', flag: 'model', label: 'the network', common: 'model' },
  hidden: {
    kind: 'ints',
    maxLength: T.hiddenLayers,
    min: 1,
    max: T.width,
    items: 'layer widths',
    default: [128],
    flag: 'hidden',
    label: "the MLP's hidden widths",
    common: 'model',
  },
  epochs: { kind: 'int', ...T.epochs, default: 5, flag: 'epochs', label: 'epochs per bucket', common: 'training' },
  lr: { kind: 'number', min: 0, above: true, max: CONFIG_LIMITS.lr, default: 0.001, flag: 'lr', label: 'learning rate', common: 'training' },
  batchSize: { kind: 'int', ...T.batchSize, default: 32, flag: 'batch-size', label: 'batch size', common: 'training' },
  seed: { kind: 'int', min: 0, max: 2 ** 32 - 1, default: 0, flag: 'seed', label: 'the first seed', common: 'seeds' },
  /** Seeds the lab runs, `seed`, `seed` + 1, … (mean ± sd and intervals over them; docs/verdicts.md §Time). The CLI's --seeds is a list of its own. */
  seeds: { kind: 'int', min: 1, max: CONFIG_LIMITS.labSeeds, default: 1, absent: 1, label: 'how many seeds', common: 'seeds' },
  /**
   * Also train the no-drift control: the same seeds' streams at strength 0 under the iid protocol, so the verdict can
   * say whether the gap is beyond what no drift gives, paired by seed (docs/verdicts.md §Time).
   */
  control: { kind: 'bool', default: false, absent: false, flag: 'control', label: 'each seed again at strength 0, iid: the no-drift control' },
});

export type TimeLabConfig = SettingsOf<typeof TIME_SETTINGS>;

/** The settings the common sections hold (field → section). */
export const TIME_COMMON = commonFields(TIME_SETTINGS);
export type TimeCommonKey = CommonKeyOf<typeof TIME_SETTINGS>;

/** The section when the lab's network and training are the experiment's common sections. */
export type TimeOwn = { from: 'experiment' } & Omit<TimeLabConfig, TimeCommonKey>;

export interface ConfigIssue {
  path: string;
  message: string;
}

export function defaultTimeLabConfig(): TimeLabConfig {
  return settingsDefaults(TIME_SETTINGS);
}

/** One bucket's training part under the protocol: the default reservoir size k of the paper ("one bucket"). */
export function bucketTrainingSize(c: TimeLabConfig, protocol: StreamProtocol, classes: number): number {
  return protocol === 'iid' ? Math.round(c.trainRatio * c.perClass) * classes : c.perClass * classes;
}

/**
 * What a new Time experiment starts with (docs/science.md §7 "Defaults, measured"): 3 seeds with the no-drift control,
 * and drift strength 0.5 — the smallest of the measured strengths (0.1, 0.2, 0.3, 0.5, 1) whose in-domain −
 * next-domain gap, at these 3 seeds and 100 images per class per bucket, is distinguishable both from 0 and from the
 * no-drift control paired by seed (seeds 0–2: gap 8.7 ± 2.0 points, 95 % interval 3.7 to 13.7; beyond the control
 * 8.2 ± 2.3, 2.6 to 13.8). That is above the range CLEAR reports (0.5 to 2.8): our synthetic drift must be larger
 * than a year of CLEAR's images for 3 seeds of a 300-image test split to tell it from none. The v1 fill-in above
 * (strength 1, one seed, no control) stays as it is: links made before keep their meaning, and a new experiment
 * writes these values into its link explicitly.
 */
export const TIME_LAB_START: Readonly<TimeLabConfig> = Object.freeze({ ...defaultTimeLabConfig(), strength: 0.5, seeds: 3, control: true });

/** Named starting points beside TIME_LAB_START: the strong drift (strength 1, the v1 fill-in's; gap ≈ 23 points). */
export const TIME_LAB_PRESETS: Readonly<Record<'start' | 'strong-drift', Readonly<TimeLabConfig>>> = Object.freeze({
  start: TIME_LAB_START,
  'strong-drift': Object.freeze({ ...TIME_LAB_START, strength: 1 }),
});

/**
 * The no-drift control of these settings (null when there is none to run: `control` off, a stream with no drift, or
 * no iid protocol): the same stream, buckets, images, training and seed at strength 0, iid only. Stored and keyed as
 * settings of their own.
 */
export function timeControlOf(c: TimeLabConfig): TimeLabConfig | null {
  if (!c.control || c.stream === 'mixed' || !(c.strength > 0) || !c.protocols.includes('iid')) return null;
  const { control: _c, seeds: _s, ...rest } = c;
  // at strength 0 every bucket looks the same, so the abrupt stream (the same buckets reordered) is the drift stream
  return { ...structuredClone(rest), stream: 'drift', strength: 0, protocols: ['iid'] };
}

/**
 * Check an unknown value (a parsed share link or config file). Missing fields take their defaults; every wrong field
 * is one issue (path + message) and takes its default too, so `value` is always usable when given. Unknown keys are
 * issues. `value` is absent only when `v` is not an object.
 */
export function validateTimeLabConfig(v: unknown): { value?: TimeLabConfig; issues: ConfigIssue[] } {
  return checkSettings(TIME_SETTINGS, v, 'The Time lab settings');
}
