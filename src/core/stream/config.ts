/**
 * The Time lab's settings (docs/science.md §7): the type, its defaults and a validator that the share link and the
 * config file use for this lab's section. Pure data: numbers, strings, one nested α.
 */
import { CONFIG_LIMITS, TIME_LIMITS } from '../config/limits'; // not ../config/schema: its time section imports this module
import { STREAM_KINDS, type StreamKind } from './buckets';
import { STREAM_PROTOCOLS, type StreamProtocol } from './metrics';
import { checkAlpha, type AlphaSpec } from './reservoir';

export type TimeLabMode = 'finetune' | 'scratch' | 'linear';
export const TIME_LAB_MODES: readonly TimeLabMode[] = ['finetune', 'scratch', 'linear'];
export const TIME_LAB_MODE_LABELS: Readonly<Record<TimeLabMode, string>> = {
  finetune: 'finetune: keep training the same model',
  scratch: 'from scratch: a new model at every bucket',
  linear: 'linear probe: a linear head on frozen features of a model trained on bucket 0',
};

export interface TimeLabConfig {
  /** the built-in stream: drift (default) or a control */
  stream: StreamKind;
  /** K buckets, 2…10 */
  buckets: number;
  /** images of each class in each bucket (10 classes) */
  perClass: number;
  /** drift strength, 0…2 (1 = the default path) */
  strength: number;
  /** which protocols run: the lab runs both by default to put them side by side */
  protocols: StreamProtocol[];
  /** the iid protocol's training share of a bucket (the paper: 0.7) */
  trainRatio: number;
  mode: TimeLabMode;
  buffer: 'cumulative' | 'reservoir';
  /** reservoir buffer size (samples); default one bucket's iid training part */
  k: number;
  alpha: AlphaSpec;
  model: 'mlp' | 'cnn';
  hidden: number[];
  epochs: number;
  lr: number;
  batchSize: number;
  seed: number;
  /**
   * Seeds the lab runs, `seed`, `seed` + 1, … (mean ± sd and intervals over them; docs/verdicts.md §Time). Optional,
   * absent = 1, so the settings of every earlier link (and the runs stored under them) read exactly as before.
   */
  seeds?: number;
  /**
   * Also train the no-drift control: the same seeds' streams at strength 0 under the iid protocol, so the verdict can
   * say whether the gap is beyond what no drift gives, paired by seed (docs/verdicts.md §Time). Optional, absent = not
   * run, so every earlier link reads exactly as before.
   */
  control?: boolean;
}

/** The settings the common sections hold (field → section). */
export const TIME_COMMON: Readonly<Record<string, string>> = {
  model: 'model',
  hidden: 'model',
  epochs: 'training',
  lr: 'training',
  batchSize: 'training',
  seed: 'seeds',
  seeds: 'seeds',
};
export type TimeCommonKey = 'model' | 'hidden' | 'epochs' | 'lr' | 'batchSize' | 'seed' | 'seeds';

/** The section when the lab's network and training are the experiment's common sections. */
export type TimeOwn = { from: 'experiment' } & Omit<TimeLabConfig, TimeCommonKey>;

export interface ConfigIssue {
  path: string;
  message: string;
}

export function defaultTimeLabConfig(): TimeLabConfig {
  return {
    stream: 'drift',
    buckets: 5,
    perClass: 100,
    strength: 1,
    protocols: ['iid', 'streaming'],
    trainRatio: 0.7,
    mode: 'finetune',
    buffer: 'cumulative',
    k: 700,
    alpha: { kind: 'fixed', value: 1 },
    model: 'mlp',
    hidden: [128],
    epochs: 5,
    lr: 0.001,
    batchSize: 32,
    seed: 0,
  };
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

const KEYS = [...Object.keys(defaultTimeLabConfig()), 'seeds', 'control'] as (keyof TimeLabConfig)[];

/**
 * Check an unknown value (a parsed share link or config file). Missing fields take their defaults; every wrong field
 * is one issue (path + message) and takes its default too, so `value` is always usable when given. Unknown keys are
 * issues. `value` is absent only when `v` is not an object.
 */
export function validateTimeLabConfig(v: unknown): { value?: TimeLabConfig; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { issues: [{ path: '', message: 'The Time lab settings must be an object.' }] };
  const o = v as Record<string, unknown>;
  const d = defaultTimeLabConfig();
  const out: TimeLabConfig = { ...d };
  for (const key of Object.keys(o)) if (!KEYS.includes(key as keyof TimeLabConfig)) issues.push({ path: key, message: `Unknown setting "${key}".` });
  const bad = (path: string, message: string): void => void issues.push({ path, message });
  const oneOf = <T extends string>(key: keyof TimeLabConfig, allowed: readonly T[]): T | undefined => {
    const x = o[key];
    if (x === undefined) return undefined;
    if (typeof x === 'string' && (allowed as readonly string[]).includes(x)) return x as T;
    bad(key, `Must be one of ${allowed.join(', ')}; got ${JSON.stringify(x)}.`);
    return undefined;
  };
  const numberIn = (key: keyof TimeLabConfig, min: number, max: number, integer: boolean, open = false): number | undefined => {
    const x = o[key];
    if (x === undefined) return undefined;
    const ok = typeof x === 'number' && Number.isFinite(x) && (!integer || Number.isInteger(x)) && (open ? x > min : x >= min) && x <= max;
    if (ok) return x as number;
    bad(key, `Must be ${integer ? 'a whole number' : 'a number'} ${open ? `above ${min}` : `from ${min}`} to ${max}; got ${JSON.stringify(x)}.`);
    return undefined;
  };
  const T = TIME_LIMITS;
  out.stream = oneOf('stream', STREAM_KINDS) ?? d.stream;
  out.buckets = numberIn('buckets', T.buckets.min, T.buckets.max, true) ?? d.buckets;
  out.perClass = numberIn('perClass', T.perClass.min, T.perClass.max, true) ?? d.perClass;
  out.strength = numberIn('strength', T.strength.min, T.strength.max, false) ?? d.strength;
  out.trainRatio = numberIn('trainRatio', T.trainRatio.min, T.trainRatio.max, false) ?? d.trainRatio;
  out.mode = oneOf('mode', TIME_LAB_MODES) ?? d.mode;
  out.buffer = oneOf('buffer', ['cumulative', 'reservoir'] as const) ?? d.buffer;
  out.k = numberIn('k', T.k.min, T.k.max, true) ?? d.k;
  out.model = oneOf('model', ['mlp', 'cnn'] as const) ?? d.model;
  out.epochs = numberIn('epochs', T.epochs.min, T.epochs.max, true) ?? d.epochs;
  out.lr = numberIn('lr', 0, CONFIG_LIMITS.lr, false, true) ?? d.lr;
  out.batchSize = numberIn('batchSize', T.batchSize.min, T.batchSize.max, true) ?? d.batchSize;
  out.seed = numberIn('seed', 0, 2 ** 32 - 1, true) ?? d.seed;
  const seeds = numberIn('seeds', 1, CONFIG_LIMITS.labSeeds, true);
  if (seeds !== undefined && seeds !== 1) out.seeds = seeds;
  if (o.control !== undefined) {
    if (typeof o.control === 'boolean') {
      if (o.control) out.control = true;
    } else bad('control', `Must be true or false; got ${JSON.stringify(o.control)?.slice(0, 40)}.`);
  }
  if (o.protocols !== undefined) {
    const p = o.protocols;
    if (Array.isArray(p) && p.length > 0 && p.every((x) => (STREAM_PROTOCOLS as readonly unknown[]).includes(x)) && new Set(p).size === p.length) {
      out.protocols = p.slice() as StreamProtocol[];
    } else bad('protocols', `Must be a non-empty list of distinct protocols from ${STREAM_PROTOCOLS.join(', ')}; got ${JSON.stringify(p)}.`);
  }
  if (o.hidden !== undefined) {
    const h = o.hidden;
    if (Array.isArray(h) && h.length <= T.hiddenLayers && h.every((x) => Number.isInteger(x) && x >= 1 && x <= T.width)) out.hidden = h.slice() as number[];
    else bad('hidden', `Must be a list of at most ${T.hiddenLayers} layer widths (whole numbers 1…${T.width}); got ${JSON.stringify(h)?.slice(0, 40)}.`);
  }
  if (o.alpha !== undefined) {
    const a = o.alpha as Record<string, unknown>;
    let spec: AlphaSpec | undefined;
    if (typeof a === 'object' && a !== null && a.kind === 'fixed' && typeof a.value === 'number' && Object.keys(a).length === 2)
      spec = { kind: 'fixed', value: a.value };
    else if (typeof a === 'object' && a !== null && a.kind === 'dynamic' && typeof a.c === 'number' && Object.keys(a).length === 2)
      spec = { kind: 'dynamic', c: a.c };
    if (spec) {
      try {
        checkAlpha(spec);
        out.alpha = spec;
      } catch (e) {
        bad('alpha', (e as Error).message);
      }
    } else bad('alpha', `Must be {"kind":"fixed","value":α} or {"kind":"dynamic","c":C}; got ${JSON.stringify(o.alpha)}.`);
  }
  return { value: out, issues };
}
