/**
 * The Your-classes lab's own settings (docs/science.md §10), its config section `ownClasses`, each declared once
 * (src/core/config/settings-table.ts): the type, the v1 fill-in, the link's checks (in the config checker's words,
 * ./section.ts), the controls' bounds and words and `cil-lab own-classes`'s --seed, --train-per-class and
 * --test-per-class bounds come from here. The order is the section's key order: a new field goes last, with `absent`
 * (the value that means what links made before it meant).
 *
 * The class names, the encoder and CLIP's text side have checks of their own (`checkIn`, the config checker's code):
 * class names are user text, trimmed, at most OWN_CLASS_NAME_LENGTH characters, no control characters and nothing that
 * would make a folder of the samples zip other than one folder ("/", "\", a leading "."). The app shows them as text,
 * never as HTML. The images themselves are never in the link (they stay in the browser's IndexedDB).
 */
import { isPlainObject, show, UINT32_MAX, type Checker } from '../../config/checker';
import { DEFAULT_CLIP_MODEL } from '../../config/defaults';
import { CONFIG_LIMITS, OWN_CLASSES_LIMITS } from '../../config/limits';
import { checkVia, settingsDefaults, settingsTable, type SettingsOf } from '../../config/settings-table';
import { FEATURE_PRECISIONS } from '../../config/sections/features';
import { clipTextOf, weightsOf } from '../../config/sections/similarity';
import type { ClipTextConfig, OwnEncoder } from '../../config/types';
import { OWN_STRATEGY_LABELS } from '../../own-classes/settings';
import { OWN_STRATEGIES } from '../../own-classes/strategies';

/** Bounds (src/core/config/limits.ts): a hundred classes for a closed-form head, a handful for the trained head. */
export const OWN_LIMITS = OWN_CLASSES_LIMITS;
export const OWN_CLASS_NAME_LENGTH = 40;

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

/** The class names of a link: at most OWN_LIMITS.classes, each a usable name given once (an error at each index). */
function classesIn(c: Checker, x: unknown, path: string): { value: string[] } | undefined {
  const arr = c.array(x, path, 0, OWN_LIMITS.classes);
  if (!arr) return undefined;
  const before = c.errors.length;
  arr.forEach((n, i) => {
    const problem = typeof n === 'string' ? classNameProblem(n, arr.slice(0, i) as string[]) : `Must be a class name; got ${show(n)}.`;
    if (problem) c.error(`${path}.${i}`, problem);
  });
  return c.errors.length === before ? { value: [...(arr as string[])] } : undefined;
}

const ENCODER_FILL: OwnEncoder = { source: 'encoder', model: DEFAULT_CLIP_MODEL, precision: 'q8', weights: { kind: 'hub' } };

const REFUSED: Record<string, string> = {
  backbone:
    'The embedded backbone was pre-trained on the built-in datasets’ small grey or emoji images, not on photos; it would not tell your objects apart. Your classes use an image encoder (ownClasses.encoder.source "encoder", CLIP ViT-B/32 by default).',
  pixels:
    'Webcam frames as raw pixels are thousands of numbers that change with every shift of light; your classes need a frozen image encoder (ownClasses.encoder.source "encoder").',
  upload:
    'Your classes’ features are computed from your own images in the browser, so there is no feature file to upload: use ownClasses.encoder.source "encoder".',
};

/**
 * A link's encoder: the parts given over the fill-in's. A wrong part is its error and keeps the fill-in's (the value
 * is the encoder read so far, as the section always kept it).
 */
function encoderIn(c: Checker, v: unknown, path: string): { value: OwnEncoder } {
  const fill = structuredClone(ENCODER_FILL);
  const o = c.object(v, path, ['source', 'model', 'precision', 'weights']);
  if (o.source !== undefined && o.source !== 'encoder') {
    c.error(`${path}.source`, typeof o.source === 'string' && REFUSED[o.source] ? REFUSED[o.source] : `Must be "encoder"; got ${show(o.source)}.`);
    return { value: fill };
  }
  if (o.model !== undefined) {
    if (typeof o.model !== 'string' || !MODEL_ID.test(o.model) || o.model.length > CONFIG_LIMITS.modelIdLength)
      c.error(`${path}.model`, `Must be a model id like "${DEFAULT_CLIP_MODEL}" (or a folder name of a self-hosted source); got ${show(o.model)}.`);
    else fill.model = o.model;
  }
  fill.precision = c.choice(o.precision, `${path}.precision`, FEATURE_PRECISIONS, fill.precision);
  if (o.weights !== undefined) fill.weights = weightsOf(c, o.weights, `${path}.weights`);
  return { value: fill };
}

/** CLIP's text side of a link (an object of its own; a wrong part is its error, the rest read as the similarity's). */
function namesIn(c: Checker, x: unknown, path: string): { value: ClipTextConfig } | undefined {
  if (isPlainObject(x)) return { value: clipTextOf(c, x, path) };
  c.error(path, `Must be CLIP text settings ({"model", "dtype", "prompt", "weights"}); got ${show(x)}.`);
  return undefined;
}

export const OWN_CLASSES_SETTINGS = settingsTable({
  /** the visitor's class names, in the order they were taught (task t = class t) */
  classes: { kind: 'value', default: [] as string[], label: 'Classes', check: checkVia<string[]>(classesIn), checkIn: classesIn },
  /** samples per class: the first `trainPerClass` recorded train the model, the next `testPerClass` test it */
  trainPerClass: { kind: 'int', min: 2, max: OWN_LIMITS.trainPerClass, default: 30, flag: 'train-per-class', label: 'Samples to train' },
  testPerClass: { kind: 'int', min: 1, max: OWN_LIMITS.testPerClass, default: 10, flag: 'test-per-class', label: 'Samples to test' },
  strategy: { kind: 'choice', options: OWN_STRATEGIES, default: 'finetune', label: 'Strategy', labels: OWN_STRATEGY_LABELS },
  seed: {
    kind: 'int',
    min: 0,
    max: UINT32_MAX,
    default: 0,
    flag: 'seed',
    label: 'Seed',
    message: (got) => `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${got}.`,
  },
  /** the frozen image encoder that turns each image into a feature vector */
  encoder: { kind: 'value', default: ENCODER_FILL, label: 'Encoder', check: checkVia<OwnEncoder>(encoderIn), checkIn: encoderIn },
  /**
   * frames a second the recorder takes (8 in links made before it: builds before the setting took a frame 120 ms after
   * the last was stored; the rate changes no number, only how long recording takes)
   */
  fps: { kind: 'int', min: 1, max: OWN_LIMITS.fps, default: 8, label: 'Frames a second' },
  /** CLIP's text side for EDGE on the class names (absent: EDGE runs on the image prototypes only) */
  names: {
    kind: 'value',
    default: undefined as ClipTextConfig | undefined,
    absent: undefined,
    label: 'EDGE on the class names (CLIP text)',
    check: checkVia<ClipTextConfig>(namesIn),
    checkIn: namesIn,
  },
});

/** The Your-classes lab's settings (its section `ownClasses`). */
export type OwnClassesConfig = SettingsOf<typeof OWN_CLASSES_SETTINGS>;
export type { OwnEncoder } from '../../config/types';

/**
 * The v1 fill-in (frozen once released): no classes yet, 30 + 10 samples, fine-tuning, seed 0, CLIP ViT-B/32 (q8,
 * hub), 8 frames a second.
 */
export const OWN_CLASSES_FILL: Readonly<OwnClassesConfig> = Object.freeze(settingsDefaults(OWN_CLASSES_SETTINGS));
