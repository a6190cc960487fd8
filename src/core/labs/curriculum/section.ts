/**
 * The Curriculum lab's section (docs/science.md §8): which whole datasets make the curriculum, which order(s) to
 * train, and which scenario to read the model in. Two forms:
 * - `{ from: 'experiment', datasets, order, scenario }` (what the app writes): the lab's own part; its strategies,
 *   model, epochs, images per class and seeds are the experiment's common sections (`curriculumFromExperiment`,
 *   `foldCurriculum` below);
 * - the full `CurriculumConfig`, as links made before the lab moved onto the common sections carry it: they keep
 *   opening to the same numbers.
 *
 * Compatibility (schema.ts rule 2): the field is optional. Builds before the lab had no curriculum, so a config
 * without it means "the lab's defaults" (CURRICULUM_FILL), and a full curriculum equal to the fill-in is checked to
 * `undefined` — compactConfig and configHash of every config that does not change it stay as they were. Read it
 * with the lab entry's `view(config)` (src/core/labs/curriculum/index.ts).
 */
import { checkCurriculumOrder, CURRICULUM_COMMON, CURRICULUM_SETTINGS, curriculumDefaults, type CurriculumConfig, type CurriculumOwn } from './settings';
import type { Checker } from '../../config/checker';
import { STRATEGY_IDS, STRATEGY_OPTION_FILL } from '../../config/defaults';
import { readLabTraining, readOwnForm, strategyOptionsUnused, writeLabTraining, type Unused } from '../../config/lab-training';
import { checkFieldsIn } from '../../config/settings-table';
import type { ExperimentConfig, StrategySetting } from '../../config/types';
import { CURRICULUM_LIMITS } from '../../config/limits';
import type { ConfigSection } from '../../config/sections/section';

export type { CurriculumConfig, CurriculumOwn } from './settings';

/** Bounds of the lab's sizes (limits.ts). */
export { CURRICULUM_LIMITS };

/** The v1 fill-in (frozen once released): the defaults of the lab's table (src/core/labs/curriculum/settings.ts). */
export const CURRICULUM_FILL: Readonly<CurriculumConfig> = Object.freeze(curriculumDefaults());

/**
 * What a new Curriculum experiment starts with (docs/science.md §8 "Defaults, measured"): every dataset trains on 5
 * images per class — what the emoji sets have — for 30 epochs, so every dataset of the default curriculum learns
 * (at the fill-in's 3 epochs an emoji set gets 6 Adam steps and stays at chance), and 3 seeds. The fill-in above stays
 * as it is (links made before keep their meaning); a new experiment writes these values into its link explicitly.
 */
export const CURRICULUM_START: Readonly<CurriculumConfig> = Object.freeze({ ...CURRICULUM_FILL, trainPerClass: 5, epochs: 30, seeds: 3 } as CurriculumConfig);

export function isCurriculumOwn(x: unknown): x is CurriculumOwn {
  return typeof x === 'object' && x !== null && (x as { from?: unknown }).from === 'experiment';
}

/**
 * The lab's settings of a config whose section is `own`, and what of the common sections the lab cannot train, each
 * with what it trains instead. The common dataset, classes and tasks are not the lab's: it trains on `datasets`.
 */
export function curriculumFromExperiment(config: ExperimentConfig, own: CurriculumOwn): { settings: CurriculumConfig; unused: Unused[] } {
  const d = CURRICULUM_FILL;
  const unused: Unused[] = [];
  const add = (said: string, instead: string): void => void unused.push({ said, instead });
  const { from: _, ...rest } = own;
  const s: CurriculumConfig = { ...structuredClone(d as CurriculumConfig), ...structuredClone(rest) };
  const ids: string[] = [];
  for (const st of config.strategies) {
    if (!(STRATEGY_IDS as readonly string[]).includes(st.id)) {
      add(`${st.id} (a method on pre-trained features; the lab trains CIL strategies)`, 'without it');
      continue;
    }
    ids.push(st.id);
    const off = strategyOptionsUnused(st);
    if (off) unused.push(off);
  }
  if (ids.length) s.strategies = ids;
  const m = config.model;
  if (m.kind === 'mlp' && m.hidden.length === 1) s.hidden = m.hidden[0];
  else
    add(
      m.kind === 'mlp'
        ? `an MLP with hidden layers ${m.hidden.join(', ') || 'none'} (the lab trains one hidden layer)`
        : `the ${m.kind} model (the lab trains an MLP)`,
      `one hidden layer of ${d.hidden}`,
    );
  for (const k of ['trainPerClass', 'testPerClass'] as const) {
    const v = config.data[k];
    if (v === null) add(`all ${k === 'trainPerClass' ? 'training' : 'test'} images per class (the lab takes the same number from every dataset)`, String(d[k]));
    else s[k] = v;
  }
  // epochs, seed and (when more than one) seeds
  Object.assign(s, readLabTraining(config, unused, d.seed));
  return { settings: s, unused };
}

/** `config` with the lab's settings `s` as its experiment: the common sections say the training, `curriculum` the rest. */
export function foldCurriculum(config: ExperimentConfig, s: CurriculumConfig): ExperimentConfig {
  const c = structuredClone(config);
  c.lab = 'curriculum';
  c.strategies = s.strategies.map((id) => ({ id, options: { ...STRATEGY_OPTION_FILL[id as keyof typeof STRATEGY_OPTION_FILL] } }) as StrategySetting);
  c.model = { kind: 'mlp', hidden: [s.hidden] };
  c.data = { trainPerClass: s.trainPerClass, testPerClass: s.testPerClass };
  writeLabTraining(c, { epochs: s.epochs, seed: s.seed, seeds: s.seeds });
  c.curriculum = { from: 'experiment', ...curriculumOwnOf(s) };
  return c;
}

export const curriculumSection: ConfigSection<'curriculum'> = {
  check(c, v): CurriculumConfig | CurriculumOwn | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'object' && v !== null && 'from' in v) return checkOwn(c, v);
    const o = c.object(v, 'curriculum', Object.keys(CURRICULUM_SETTINGS));
    const out = curriculumDefaults();
    checkOwnFields(c, o, out);
    checkFieldsIn(c, CURRICULUM_SETTINGS, o, 'curriculum', out, Object.keys(CURRICULUM_COMMON) as (keyof CurriculumConfig)[]);
    // (both list their keys in the table's order, `seeds` last and only when not 1)
    return JSON.stringify(out) === JSON.stringify(CURRICULUM_FILL) ? undefined : out;
  },
};

/** The lab's own part of its settings (what the section's own form holds): every field the common sections do not. */
export function curriculumOwnOf(s: CurriculumConfig): Omit<CurriculumOwn, 'from'> {
  const out = structuredClone(s) as Partial<CurriculumConfig>;
  for (const k of Object.keys(CURRICULUM_COMMON)) delete out[k as keyof CurriculumConfig];
  return out as Omit<CurriculumOwn, 'from'>;
}

const OWN_KEYS = (Object.keys(CURRICULUM_SETTINGS) as (keyof CurriculumConfig)[]).filter((k) => !(k in CURRICULUM_COMMON));

/**
 * The lab's own fields (both forms have them), checked into `out`: the datasets, scenario and order with the rule
 * between them, then the others (as earlier builds checked them, so every message comes in the same order).
 */
function checkOwnFields(c: Checker, o: Record<string, unknown>, out: CurriculumConfig): void {
  const first = ['datasets', 'scenario', 'order'] as const;
  checkFieldsIn(c, CURRICULUM_SETTINGS, o, 'curriculum', out, first);
  checkCurriculumOrder(c, o.order, out);
  checkFieldsIn(
    c,
    CURRICULUM_SETTINGS,
    o,
    'curriculum',
    out,
    OWN_KEYS.filter((k) => !(first as readonly string[]).includes(k)),
  );
}

/** The lab's own part: its datasets, order and scenario; the rest is the common sections'. */
function checkOwn(c: Checker, v: object): CurriculumOwn | undefined {
  const known = ['from', ...OWN_KEYS];
  const o = readOwnForm(c, v, 'curriculum', known, CURRICULUM_COMMON, 'strategies, model and training');
  if (!o) return undefined;
  const out = curriculumDefaults();
  checkOwnFields(c, o, out);
  return { from: 'experiment', ...curriculumOwnOf(out) };
}
