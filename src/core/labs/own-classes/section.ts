/**
 * The Your-classes lab's section (docs/science.md §10): the visitor's own classes (their names, in the order they
 * were taught), how many samples each class records for training and for testing, the strategy the head learns
 * with, the seed, the frozen image encoder, the recording rate and CLIP's text side. Its fields are checked by the
 * lab's settings table (./settings.ts) in the config checker's words; the rule between them (the sizes a strategy
 * can teach) is here, checked where it always was: after the recording rate, before CLIP's text side.
 *
 * Compatibility (schema.ts rule 2): the field is optional. Builds before the lab had none, so a config without it
 * means the lab's fill-in (no classes yet), and a section equal to the fill-in is checked to `undefined`: compactConfig
 * and configHash of every other config stay as they were. Read it with `ownClassesOf(config)`.
 */
import { grouped } from '../../config/limits';
import { checkFieldsIn } from '../../config/settings-table';
import type { ConfigSection } from '../../config/sections/section';
import { isHeadStrategy, type OwnStrategy } from '../../own-classes/strategies';
import { OWN_CLASSES_FILL, OWN_CLASSES_SETTINGS, OWN_LIMITS, type OwnClassesConfig } from './settings';

export { OWN_STRATEGIES, isHeadStrategy, type OwnStrategy } from '../../own-classes/strategies';
export {
  classNameProblem,
  OWN_CLASS_NAME_LENGTH,
  OWN_CLASSES_FILL,
  OWN_CLASSES_SETTINGS,
  OWN_LIMITS,
  type OwnClassesConfig,
  type OwnEncoder,
} from './settings';

export function ownClassesOf(config: { ownClasses?: OwnClassesConfig }): OwnClassesConfig {
  return structuredClone(config.ownClasses ?? (OWN_CLASSES_FILL as OwnClassesConfig));
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

/** The fields checked before the sizes' rule (those up to the recording rate) and after it (CLIP's text side and any later row). */
const KEYS = Object.keys(OWN_CLASSES_SETTINGS) as (keyof typeof OWN_CLASSES_SETTINGS)[];
const BEFORE_SIZES = KEYS.slice(0, KEYS.indexOf('names'));
const AFTER_SIZES = KEYS.slice(KEYS.indexOf('names'));

export const ownClassesSection: ConfigSection<'ownClasses'> = {
  check(c, v): OwnClassesConfig | undefined {
    if (v === undefined) return undefined;
    const o = c.object(v, 'ownClasses', Object.keys(OWN_CLASSES_SETTINGS));
    const out = ownClassesOf({});
    checkFieldsIn(c, OWN_CLASSES_SETTINGS, o, 'ownClasses', out, BEFORE_SIZES);
    const problem = ownSizeProblem(out.classes.length, out.trainPerClass + out.testPerClass, out.strategy);
    if (problem) c.error(problem.path, problem.message);
    checkFieldsIn(c, OWN_CLASSES_SETTINGS, o, 'ownClasses', out, AFTER_SIZES);
    return JSON.stringify(out) === JSON.stringify(OWN_CLASSES_FILL) ? undefined : out;
  },
};
