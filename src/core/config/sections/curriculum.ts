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
 * with the lab entry's `view(config)` (src/core/labs/curriculum.ts).
 */
import { CURRICULUM_DATASET_IDS, DEFAULT_CURRICULUM, MAX_CURRICULUM_DATASETS } from '../../curriculum/catalogue';
import { MAX_ALL_ORDERS_K } from '../../curriculum/orders';
import { list, show, suggestion, type Checker } from '../checker';
import { STRATEGY_IDS, STRATEGY_OPTION_FILL } from '../defaults';
import { readLabTraining, readOwnForm, strategyOptionsUnused, TRAINING_FIELDS, writeLabTraining, type Unused } from '../lab-training';
import type { CurriculumConfig, CurriculumOwn } from '../../curriculum/settings';
import type { ExperimentConfig, StrategySetting } from '../types';
import { CONFIG_LIMITS, CURRICULUM_LIMITS } from '../limits';
import type { ConfigSection } from './section';

export type { CurriculumConfig, CurriculumOwn } from '../../curriculum/settings';

/** Bounds of the lab's sizes (limits.ts). */
export { CURRICULUM_LIMITS };

/** The v1 fill-in (frozen once released). */
export const CURRICULUM_FILL: Readonly<CurriculumConfig> = Object.freeze({
  datasets: [...DEFAULT_CURRICULUM],
  order: 'all',
  scenario: 'both',
  strategies: ['finetune', 'replay'],
  epochs: 3,
  hidden: 256,
  trainPerClass: 100,
  testPerClass: 50,
  seed: 0,
} as CurriculumConfig);

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
  const s: CurriculumConfig = {
    ...structuredClone(d as CurriculumConfig),
    datasets: own.datasets.slice(),
    order: structuredClone(own.order),
    scenario: own.scenario,
  };
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
  c.curriculum = { from: 'experiment', datasets: s.datasets.slice(), order: structuredClone(s.order), scenario: s.scenario };
  return c;
}

export const curriculumSection: ConfigSection<'curriculum'> = {
  check(c, v): CurriculumConfig | CurriculumOwn | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'object' && v !== null && 'from' in v) return checkOwn(c, v);
    const o = c.object(v, 'curriculum', ['datasets', 'order', 'scenario', 'strategies', 'epochs', 'hidden', 'trainPerClass', 'testPerClass', 'seed', 'seeds']);
    const out: CurriculumConfig = structuredClone(CURRICULUM_FILL as CurriculumConfig);
    checkOwnFields(c, o, out);
    if (o.strategies !== undefined) {
      const set = c.distinctStrings(
        o.strategies,
        'curriculum.strategies',
        STRATEGY_IDS.length,
        (x) => (STRATEGY_IDS as readonly string[]).includes(x),
        (x) => `Must be one of ${list(STRATEGY_IDS)}; got ${show(x)}.`,
        (x) => `Strategy "${x}" is listed twice.`,
      );
      if (set && set.size === 0) c.error('curriculum.strategies', 'Pick at least one strategy.');
      else if (set) out.strategies = [...(o.strategies as string[])];
    }
    out.epochs = c.int(o.epochs, 'curriculum.epochs', 1, CURRICULUM_LIMITS.epochs, CURRICULUM_FILL.epochs);
    out.hidden = c.int(o.hidden, 'curriculum.hidden', 1, CURRICULUM_LIMITS.hidden, CURRICULUM_FILL.hidden);
    out.trainPerClass = c.int(o.trainPerClass, 'curriculum.trainPerClass', 1, CURRICULUM_LIMITS.trainPerClass, CURRICULUM_FILL.trainPerClass);
    out.testPerClass = c.int(o.testPerClass, 'curriculum.testPerClass', 1, CURRICULUM_LIMITS.testPerClass, CURRICULUM_FILL.testPerClass);
    out.seed = c.seed(o.seed, 'curriculum.seed', CURRICULUM_FILL.seed);
    if (o.seeds !== undefined) {
      const seeds = c.int(o.seeds, 'curriculum.seeds', 1, CONFIG_LIMITS.labSeeds, 1);
      if (seeds !== 1) out.seeds = seeds;
    }
    const key = (x: CurriculumConfig): string =>
      JSON.stringify([x.datasets, x.order, x.scenario, x.strategies, x.epochs, x.hidden, x.trainPerClass, x.testPerClass, x.seed, x.seeds ?? 1]);
    return key(out) === key(CURRICULUM_FILL) ? undefined : out;
  },
};

/** The curriculum's datasets, order and scenario (both forms have them), checked into `out`. */
function checkOwnFields(c: Checker, o: Record<string, unknown>, out: CurriculumConfig): void {
  if (o.datasets !== undefined) {
    const set = c.distinctStrings(
      o.datasets,
      'curriculum.datasets',
      MAX_CURRICULUM_DATASETS,
      (s) => CURRICULUM_DATASET_IDS.includes(s),
      (x) => `Must be one of ${list(CURRICULUM_DATASET_IDS)}; got ${show(x)}.${typeof x === 'string' ? suggestion(x, CURRICULUM_DATASET_IDS) : ''}`,
      (s) => `Dataset "${s}" is listed twice; list each dataset once.`,
    );
    if (set && set.size < 2) c.error('curriculum.datasets', `A curriculum needs at least 2 datasets; got ${set.size}.`);
    else if (set) out.datasets = [...(o.datasets as string[])];
  }
  if (o.scenario !== undefined) out.scenario = c.choice(o.scenario, 'curriculum.scenario', ['cil', 'til', 'both'] as const, CURRICULUM_FILL.scenario);
  if (o.order !== undefined) {
    if (o.order === 'm2i' || o.order === 'i2m' || o.order === 'all') out.order = o.order;
    else if (Array.isArray(o.order)) {
      const ids = o.order as unknown[];
      const ok = ids.length === out.datasets.length && new Set(ids).size === ids.length && ids.every((x) => typeof x === 'string' && out.datasets.includes(x));
      if (ok) out.order = [...(ids as string[])];
      else c.error('curriculum.order', `A hand order lists each dataset of the curriculum once (${out.datasets.join(', ')}); got ${show(o.order)}.`);
    } else c.error('curriculum.order', `Must be "m2i", "i2m", "all" or a list of the curriculum's datasets; got ${show(o.order)}.`);
  }
  if (out.order === 'all' && out.datasets.length > MAX_ALL_ORDERS_K)
    c.error(
      'curriculum.order',
      `Every order is trained only for at most ${MAX_ALL_ORDERS_K} datasets (${MAX_ALL_ORDERS_K}! = 720 orders); the curriculum has ${out.datasets.length}: choose m2i, i2m or a hand order, or fewer datasets.`,
    );
}

/** The lab's own part: its datasets, order and scenario; the rest is the common sections'. */
function checkOwn(c: Checker, v: object): CurriculumOwn | undefined {
  const common: Record<string, string> = {
    strategies: 'strategies',
    ...TRAINING_FIELDS,
  };
  const o = readOwnForm(c, v, 'curriculum', ['from', 'datasets', 'order', 'scenario'], common, 'strategies, model and training');
  if (!o) return undefined;
  const out: CurriculumConfig = structuredClone(CURRICULUM_FILL as CurriculumConfig);
  checkOwnFields(c, o, out);
  return { from: 'experiment', datasets: out.datasets, order: out.order, scenario: out.scenario };
}
