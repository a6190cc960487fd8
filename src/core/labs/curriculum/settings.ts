/**
 * The Curriculum lab's settings (docs/science.md §8), each declared once in a table of fields
 * (src/core/config/settings-table.ts): the type (`CurriculumConfig`, what a link made before the lab moved onto the
 * common sections carries), its v1 fill-in, the link's checks (src/core/labs/curriculum/section.ts), the
 * control's bounds and words and `cil-lab curriculum`'s flags come from here. The rule between fields (the order and
 * the datasets) is `checkCurriculumOrder`, beside the table.
 */
import { show, UINT32_MAX, type Checker } from '../../config/checker';
import { STRATEGY_IDS } from '../../config/defaults';
import { CONFIG_LIMITS, CURRICULUM_LIMITS } from '../../config/limits';
import { commonFields, settingsDefaults, settingsTable, type CommonKeyOf, type SettingsOf } from '../../config/settings-table';
import { CURRICULUM_DATASET_IDS, CURRICULUM_DATASETS, DEFAULT_CURRICULUM, MAX_CURRICULUM_DATASETS } from '../../curriculum/catalogue';
import { MAX_ALL_ORDERS_K } from '../../curriculum/orders';

export type CurriculumOrderChoice = 'm2i' | 'i2m' | 'all' | string[];
export type CurriculumScenario = 'cil' | 'til' | 'both';

const L = CURRICULUM_LIMITS;

/** An order as a link writes it: a word, or a list (each entry checked against the datasets by `checkCurriculumOrder`). */
function orderOf(x: unknown): { value: CurriculumOrderChoice } | { error: string } {
  if (x === 'm2i' || x === 'i2m' || x === 'all') return { value: x };
  if (Array.isArray(x)) return { value: x.slice() as string[] };
  return { error: `Must be "m2i", "i2m", "all" or a list of the curriculum's datasets; got ${show(x)}.` };
}

/**
 * The Curriculum lab's settings. The order is the settings' key order and the defaults are the v1 fill-in (frozen):
 * a new field goes last, with `absent` (what links made before it meant). `common`: held by the experiment's common
 * sections when the lab's section is its own form (`{ from: 'experiment', datasets, order, scenario }`).
 */
export const CURRICULUM_SETTINGS = settingsTable({
  datasets: {
    kind: 'list',
    options: CURRICULUM_DATASET_IDS,
    item: 'dataset',
    default: DEFAULT_CURRICULUM,
    minLength: 2,
    maxLength: MAX_CURRICULUM_DATASETS,
    fewer: (n) => `A curriculum needs at least 2 datasets; got ${n}.`,
    twice: (s) => `Dataset "${s}" is listed twice; list each dataset once.`,
    suggest: true,
    flag: 'datasets',
    value: DEFAULT_CURRICULUM.join(','),
    label: 'the datasets, each one task of 10 classes',
  },
  order: {
    kind: 'value',
    default: 'all' as CurriculumOrderChoice,
    check: orderOf,
    flag: 'order',
    value: 'm2i|i2m|pair|all|a,b,c',
    defaultText: 'all',
    label: 'the orders to train: M2I, I2M, both (pair), every K! order, or the datasets in a hand order',
  },
  scenario: {
    kind: 'choice',
    options: ['cil', 'til', 'both'] as const,
    default: 'both',
    flag: 'scenario',
    label: 'the scenario the model is read in',
    labels: {
      both: 'both: CIL and TIL from the same model',
      cil: 'class-incremental (one head over all classes)',
      til: 'task-incremental (outputs masked to the task)',
    },
  },
  /** the strategies trained on every order (engine ids) */
  strategies: {
    kind: 'list',
    options: STRATEGY_IDS as readonly string[],
    item: 'strategy',
    default: ['finetune', 'replay'],
    fewer: () => 'Pick at least one strategy.',
    twice: (s) => `Strategy "${s}" is listed twice.`,
    flag: 'strategy',
    label: 'the strategies trained on every order',
    common: 'strategies',
  },
  epochs: { kind: 'int', min: 1, max: L.epochs, default: 3, flag: 'epochs', label: 'epochs per task', common: 'training' },
  hidden: { kind: 'int', min: 1, max: L.hidden, default: 256, flag: 'hidden', label: "the MLP's one hidden layer's units", common: 'model' },
  trainPerClass: { kind: 'int', min: 1, max: L.trainPerClass, default: 100, flag: 'train-per-class', label: 'training images per class', common: 'data' },
  testPerClass: { kind: 'int', min: 1, max: L.testPerClass, default: 50, flag: 'test-per-class', label: 'test images per class', common: 'data' },
  seed: {
    kind: 'int',
    min: 0,
    max: UINT32_MAX,
    default: 0,
    message: (got) => `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${got}.`,
    flag: 'seed',
    label: 'the seed of every run',
    common: 'seeds',
  },
  /** Seeds: every run at `seed`, `seed` + 1, … (this many). Absent = 1, what every earlier link meant. The CLI's --seeds is a list of its own. */
  seeds: { kind: 'int', min: 1, max: CONFIG_LIMITS.labSeeds, default: 1, absent: 1, label: 'how many seeds', common: 'seeds' },
});

export type CurriculumConfig = SettingsOf<typeof CURRICULUM_SETTINGS>;

/** The settings the common sections hold (field → section). */
export const CURRICULUM_COMMON = commonFields(CURRICULUM_SETTINGS);
export type CurriculumCommonKey = CommonKeyOf<typeof CURRICULUM_SETTINGS>;

/** The section when the lab's strategies, model and training are the experiment's common sections. */
export type CurriculumOwn = { from: 'experiment' } & Omit<CurriculumConfig, CurriculumCommonKey>;

/** The v1 fill-in (frozen once released): the table's defaults. */
export function curriculumDefaults(): CurriculumConfig {
  return settingsDefaults(CURRICULUM_SETTINGS);
}

/**
 * The rule between fields, beside the table: a hand order lists each dataset of the curriculum once, and every order
 * ('all') is trained only for at most MAX_ALL_ORDERS_K datasets. `order`: the link's order as given (its message
 * shows it); a refused hand order leaves `out` the fill-in's.
 */
export function checkCurriculumOrder(c: Checker, order: unknown, out: CurriculumConfig, path = 'curriculum.order'): void {
  if (Array.isArray(out.order)) {
    const ids = out.order as unknown[];
    const ok = ids.length === out.datasets.length && new Set(ids).size === ids.length && ids.every((x) => typeof x === 'string' && out.datasets.includes(x));
    if (!ok) {
      c.error(path, `A hand order lists each dataset of the curriculum once (${out.datasets.join(', ')}); got ${show(order)}.`);
      out.order = CURRICULUM_SETTINGS.order.default;
    }
  }
  if (out.order === 'all' && out.datasets.length > MAX_ALL_ORDERS_K)
    c.error(
      path,
      `Every order is trained only for at most ${MAX_ALL_ORDERS_K} datasets (${MAX_ALL_ORDERS_K}! = 720 orders); the curriculum has ${out.datasets.length}: choose m2i, i2m or a hand order, or fewer datasets.`,
    );
}

/** What every run of the lab trains with, in the app and `cil-lab curriculum` (the engine's run settings). */
export interface CurriculumTraining {
  model: { kind: 'mlp'; hidden: number[] };
  epochs: number;
  augment: boolean;
}

/**
 * The run settings of the lab's settings: one hidden layer of `hidden` units, `epochs` per task, and augmentation when
 * the curriculum has an emoji dataset (4–5 drawings per class). The app's stored runs are keyed by this object: keep
 * its keys and their order. `cil-lab curriculum` lays run's training flags over it.
 */
export function curriculumTraining(s: Pick<CurriculumConfig, 'datasets' | 'hidden' | 'epochs'>): CurriculumTraining {
  const emoji = s.datasets.some((id) => CURRICULUM_DATASETS.find((d) => d.id === id)?.source === 'emoji');
  return { model: { kind: 'mlp', hidden: [s.hidden] }, epochs: s.epochs, augment: emoji };
}
