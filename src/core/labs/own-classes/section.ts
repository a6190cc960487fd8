/**
 * The Your-classes lab's section (docs/science.md §10): the visitor's own classes (their names, in the order they
 * were taught), how many samples each class records for training and for testing, the strategy the head learns
 * with, the seed, and the frozen image encoder that turns each image into a feature vector.
 *
 * Class names are user text: trimmed, at most OWN_CLASS_NAME_LENGTH characters, no control characters and nothing
 * that would make a folder of the samples zip other than one folder ("/", "\", a leading "."). The app shows them as
 * text, never as HTML. The images themselves are never in the link (they stay in the browser's IndexedDB).
 *
 * Compatibility (schema.ts rule 2): the field is optional. Builds before the lab had none, so a config without it
 * means the lab's fill-in (no classes yet), and a section equal to the fill-in is checked to `undefined`: compactConfig
 * and configHash of every other config stay as they were. Read it with `ownClassesOf(config)`.
 */
import { isPlainObject, show, type Checker } from '../../config/checker';
import { DEFAULT_CLIP_MODEL } from '../../config/defaults';
import { CONFIG_LIMITS, grouped, OWN_CLASSES_LIMITS } from '../../config/limits';
import type { ClipTextConfig, OwnClassesConfig, OwnEncoder } from '../../config/types';
import { FEATURE_PRECISIONS } from '../../config/sections/features';
import type { ConfigSection } from '../../config/sections/section';
import { isHeadStrategy, OWN_STRATEGIES, type OwnStrategy } from '../../own-classes/strategies';
import { clipTextOf, weightsOf } from '../../config/sections/similarity';

export { OWN_STRATEGIES, isHeadStrategy, type OwnStrategy } from '../../own-classes/strategies';
export type { OwnClassesConfig, OwnEncoder } from '../../config/types';

/** Bounds (src/core/config/limits.ts): a hundred classes for a closed-form head, a handful for the trained head. */
export const OWN_LIMITS = OWN_CLASSES_LIMITS;
export const OWN_CLASS_NAME_LENGTH = 40;

/**
 * The v1 fill-in (frozen once released): no classes yet, 30 + 10 samples, fine-tuning, CLIP ViT-B/32 (q8, hub), 8
 * frames a second (builds before the setting took a frame 120 ms after the last was stored; the rate changes no
 * number, only how long recording takes).
 */
export const OWN_CLASSES_FILL: Readonly<OwnClassesConfig> = Object.freeze({
  classes: [],
  trainPerClass: 30,
  testPerClass: 10,
  strategy: 'finetune',
  seed: 0,
  encoder: { source: 'encoder', model: DEFAULT_CLIP_MODEL, precision: 'q8', weights: { kind: 'hub' } },
  fps: 8,
} as OwnClassesConfig);

export function ownClassesOf(config: { ownClasses?: OwnClassesConfig }): OwnClassesConfig {
  return structuredClone(config.ownClasses ?? (OWN_CLASSES_FILL as OwnClassesConfig));
}

const MODEL_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a class name cannot be used (one sentence), or null when it can. `taken`: the names already in use. */
export function classNameProblem(name: string, taken: readonly string[] = []): string | null {
  const t = name.trim();
  if (t === '') return 'Give the class a name (e.g. "mug").';
  if (t !== name) return 'A class name has no spaces at its start or end.';
  if (t.length > OWN_CLASS_NAME_LENGTH) return `A class name has at most ${OWN_CLASS_NAME_LENGTH} characters; this one has ${t.length}.`;
  if (CONTROL.test(t)) return 'A class name has no control characters (line breaks, tabs).';
  if (/[/\\]/.test(t) || t.startsWith('.')) return 'A class name is a folder of the samples zip: no "/" or "\\", and no "." at its start.';
  if (taken.includes(t)) return `There is already a class "${t}": give each class its own name.`;
  return null;
}

/**
 * Why these sizes cannot be taught (one sentence, at the field to change), or null: the trained head's class bound,
 * and the whole set's sample bound. The page checks a class before it adds it with the same rule.
 */
export function ownSizeProblem(classes: number, perClass: number, strategy: OwnStrategy): { path: string; message: string } | null {
  if (isHeadStrategy(strategy) && classes > OWN_LIMITS.headClasses)
    return {
      path: 'ownClasses.classes',
      message: `${OWN_STRATEGY_WORDS[strategy]} trains its head again for every class, so it takes at most ${OWN_LIMITS.headClasses} classes; this has ${classes}. SimpleCIL, NCM, FeCAM and RanPAC take up to ${OWN_LIMITS.classes}.`,
    };
  if (classes * perClass > OWN_LIMITS.samples)
    return {
      path: 'ownClasses.trainPerClass',
      message: `${classes} classes of ${perClass} samples are ${grouped(classes * perClass)} samples; the lab keeps at most ${grouped(OWN_LIMITS.samples)} (e.g. ${OWN_LIMITS.classes} classes of ${OWN_LIMITS.samples / OWN_LIMITS.classes}).`,
    };
  return null;
}

const OWN_STRATEGY_WORDS: Readonly<Record<OwnStrategy, string>> = {
  finetune: 'Fine-tuning',
  replay: 'Replay',
  simplecil: 'SimpleCIL',
  ncm: 'NCM',
  fecam: 'FeCAM',
  ranpac: 'RanPAC',
};

const REFUSED: Record<string, string> = {
  backbone:
    'The embedded backbone was pre-trained on the built-in datasets’ small grey or emoji images, not on photos; it would not tell your objects apart. Your classes use an image encoder (ownClasses.encoder.source "encoder", CLIP ViT-B/32 by default).',
  pixels:
    'Webcam frames as raw pixels are thousands of numbers that change with every shift of light; your classes need a frozen image encoder (ownClasses.encoder.source "encoder").',
  upload:
    'Your classes’ features are computed from your own images in the browser, so there is no feature file to upload: use ownClasses.encoder.source "encoder".',
};

function encoderOf(c: Checker, v: unknown): OwnEncoder {
  const fill = structuredClone(OWN_CLASSES_FILL.encoder);
  if (v === undefined) return fill;
  const o = c.object(v, 'ownClasses.encoder', ['source', 'model', 'precision', 'weights']);
  if (o.source !== undefined && o.source !== 'encoder') {
    c.error('ownClasses.encoder.source', typeof o.source === 'string' && REFUSED[o.source] ? REFUSED[o.source] : `Must be "encoder"; got ${show(o.source)}.`);
    return fill;
  }
  if (o.model !== undefined) {
    if (typeof o.model !== 'string' || !MODEL_ID.test(o.model) || o.model.length > CONFIG_LIMITS.modelIdLength)
      c.error('ownClasses.encoder.model', `Must be a model id like "${DEFAULT_CLIP_MODEL}" (or a folder name of a self-hosted source); got ${show(o.model)}.`);
    else fill.model = o.model;
  }
  fill.precision = c.choice(o.precision, 'ownClasses.encoder.precision', FEATURE_PRECISIONS, fill.precision);
  if (o.weights !== undefined) fill.weights = weightsOf(c, o.weights, 'ownClasses.encoder.weights');
  return fill;
}

export const ownClassesSection: ConfigSection<'ownClasses'> = {
  check(c, v): OwnClassesConfig | undefined {
    if (v === undefined) return undefined;
    const o = c.object(v, 'ownClasses', ['classes', 'trainPerClass', 'testPerClass', 'strategy', 'seed', 'encoder', 'fps', 'names']);
    const out = ownClassesOf({});
    if (o.classes !== undefined) {
      const arr = c.array(o.classes, 'ownClasses.classes', 0, OWN_LIMITS.classes);
      if (arr) {
        const before = c.errors.length;
        arr.forEach((x, i) => {
          const problem = typeof x === 'string' ? classNameProblem(x, arr.slice(0, i) as string[]) : `Must be a class name; got ${show(x)}.`;
          if (problem) c.error(`ownClasses.classes.${i}`, problem);
        });
        if (c.errors.length === before) out.classes = [...(arr as string[])];
      }
    }
    out.trainPerClass = c.int(o.trainPerClass, 'ownClasses.trainPerClass', 2, OWN_LIMITS.trainPerClass, OWN_CLASSES_FILL.trainPerClass);
    out.testPerClass = c.int(o.testPerClass, 'ownClasses.testPerClass', 1, OWN_LIMITS.testPerClass, OWN_CLASSES_FILL.testPerClass);
    out.strategy = c.choice(o.strategy, 'ownClasses.strategy', OWN_STRATEGIES, OWN_CLASSES_FILL.strategy);
    out.seed = c.seed(o.seed, 'ownClasses.seed', OWN_CLASSES_FILL.seed);
    out.encoder = encoderOf(c, o.encoder);
    out.fps = c.int(o.fps, 'ownClasses.fps', 1, OWN_LIMITS.fps, OWN_CLASSES_FILL.fps);
    const problem = ownSizeProblem(out.classes.length, out.trainPerClass + out.testPerClass, out.strategy);
    if (problem) c.error(problem.path, problem.message);
    if (o.names !== undefined) {
      if (isPlainObject(o.names)) out.names = clipTextOf(c, o.names, 'ownClasses.names');
      else c.error('ownClasses.names', `Must be CLIP text settings ({"model", "dtype", "prompt", "weights"}); got ${show(o.names)}.`);
    }
    return JSON.stringify(out) === JSON.stringify(OWN_CLASSES_FILL) ? undefined : out;
  },
};
