/**
 * The Open-world lab's settings (docs/science.md §5): what the lab's form edits, what a share link and a stored run
 * carry, and what the worker turns into `runOpenWorld`'s config. Pure: the settings table (the type, defaults, the
 * link's checks, the CLI's flags and the command line come from it), presets, the lab's checks and a canonical key
 * (runs are stored under the settings that determine their numbers).
 */
import { datasetImageShape, STRATEGY_IDS } from '../../config/defaults'; // not ../config/schema: its open-world section imports this module
import { show, UINT32_MAX, type Checker } from '../../config/checker';
import { parseIndexRanges } from '../../config/index-ranges';
import { CONFIG_LIMITS, grouped, modelSize } from '../../config/limits';
import { commonFields, fieldProblem, settingsDefaults, settingsTable, type CommonKeyOf, type SettingField, type SettingsOf } from '../../config/settings-table';
import { getClassList } from '../../classes/builtin';
import { DETECTOR_IDS, HEAD_DEFAULTS } from '../../ood/detectors';

/** The built-in datasets with images (those the lab can train on and draw OOD sets from). */
export const OPEN_WORLD_DATASETS = ['fashion-mnist', 'digits', 'emoji'] as const;
export type OpenWorldDataset = (typeof OPEN_WORLD_DATASETS)[number];

const L = CONFIG_LIMITS;

/** A whole number's sentence in the lab's words ("Epochs must be a whole number from 1 to 1 000; got 0."). */
const whole =
  (subject: string, max: number, after = '') =>
  (x: unknown): string =>
    `${subject} must be a whole number from 1 to ${grouped(max)}${after}; got ${String(x)}.`;

/** A seed in the config's words (checker.ts `seed`; a wrong one is 0, as it always was); null too where `orNull`. */
const seedIn =
  (orNull: boolean) =>
  (c: Checker, x: unknown, path: string): { value: unknown } =>
    orNull && x === null ? { value: null } : { value: c.seed(x, path, 0) };

/** A list of 1 to `max` names (detectors, OOD sets) in the config's words: their own checks are the lab's. */
const namesIn =
  (max: number) =>
  (c: Checker, x: unknown, path: string): { value: unknown } | undefined => {
    const a = c.array(x, path, 1, max);
    if (!a) return undefined;
    if (a.every((s) => typeof s === 'string' && s.length <= 80)) return { value: a };
    c.error(path, `Must be a list of names; got ${show(x)}.`);
    return undefined;
  };

/**
 * The Open-world lab's settings, each declared once (src/core/config/settings-table.ts): the type, defaults, the
 * link's checks, the own form's fields, `cil-lab ood`'s flags and the lab's command line come from here; a new field
 * goes last, with `absent` (what links made before it meant). `common`: held by the experiment's common sections
 * (src/core/ood/experiment.ts). Each field keeps the words its checks always had: `says` in the lab's form and
 * command line, `checkIn` in a link where they are not checker.ts's, `flagBounds` where the flag is read as a whole
 * number. The rules between fields are `openWorldIssues` below.
 */
export const OPEN_WORLD_SETTINGS = settingsTable({
  dataset: {
    kind: 'choice',
    options: OPEN_WORLD_DATASETS,
    default: 'fashion-mnist',
    flag: 'dataset',
    label: 'ID dataset',
    common: 'dataset',
    says: (x) => `Unknown dataset "${String(x)}": use ${OPEN_WORLD_DATASETS.join(', ')}.`,
  },
  /** its classes that arrive (dataset labels) */
  classes: {
    kind: 'value',
    default: [0, 1, 2, 3, 4, 5] as number[],
    check: (x: unknown) => (Array.isArray(x) ? { value: x as number[] } : { error: 'Must be a list of class indices.' }),
    checkIn: (c, x, path) => {
      const a = c.array(x, path, 1, L.classes);
      if (!a) return undefined;
      if (a.every((n) => Number.isInteger(n) && (n as number) >= 0 && (n as number) < L.classes)) return { value: a };
      c.error(path, `Must be a list of class indices, whole numbers from 0 to ${L.classes - 1}; got ${show(x)}.`);
      return undefined;
    },
    flag: 'classes',
    value: '0-5',
    defaultText: '0-5',
    label: 'ID classes',
    common: 'classes',
  },
  /** number of tasks K (equal sizes) */
  tasks: {
    kind: 'int',
    min: 1,
    max: L.classes,
    default: 3,
    flag: 'tasks',
    flagBounds: 'both',
    label: 'Tasks',
    common: 'taskSizes',
    says: whole('The number of tasks', L.classes),
  },
  /** the class order: null = ascending, a number = RS with that seed */
  orderSeed: {
    kind: 'int',
    min: 0,
    max: UINT32_MAX,
    orNull: 'ascending',
    default: null,
    checkIn: seedIn(true),
    flag: 'protocol',
    value: 'rs --seeds S',
    defaultText: 'ascending',
    args: (x: number | null) => (x === null ? [] : ['--protocol', 'rs', '--seeds', String(x)]),
    label: 'the class order: ascending, or RS with the seed S (--protocol rs --seeds S)',
    says: (x) => `The order seed must be a whole number from 0 to ${UINT32_MAX}, or unset (ascending); got ${String(x)}.`,
  },
  strategy: {
    kind: 'value',
    default: 'replay' as string,
    check: (x: unknown) =>
      typeof x === 'string' && (STRATEGY_IDS as readonly string[]).includes(x) ? { value: x } : { error: `Must be one of ${STRATEGY_IDS.join(', ')}.` },
    checkIn: (c, x, path) => (typeof x === 'string' ? { value: x } : (c.error(path, `Must be a strategy id; got ${show(x)}.`), undefined)),
    flag: 'strategy',
    value: STRATEGY_IDS.join('|'),
    defaultText: 'replay',
    label: 'CIL strategy',
    common: 'strategies',
    says: (x) => `Unknown strategy "${String(x).slice(0, 40)}": use ${STRATEGY_IDS.join(', ')}.`,
  },
  /** exemplar memory (strategies with one) */
  memory: {
    kind: 'int',
    min: 1,
    max: L.strategyExamples,
    default: 200,
    flag: 'memory',
    flagBounds: 'min',
    label: 'Memory (exemplars)',
    common: 'strategies',
    says: whole('The memory', L.strategyExamples, ' exemplars'),
  },
  epochs: {
    kind: 'int',
    min: 1,
    max: L.epochs,
    default: 3,
    flag: 'epochs',
    flagBounds: 'min',
    label: 'Epochs per task',
    common: 'training',
    says: whole('Epochs', L.epochs),
  },
  hidden: {
    kind: 'ints',
    maxLength: L.hiddenLayers,
    min: 1,
    max: L.width,
    items: 'layer widths',
    default: [256, 128],
    checkIn: (c, x, path) => {
      const h = c.array(x, path, 0, L.hiddenLayers);
      if (h && h.every((n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= L.width)) return { value: h };
      if (h) c.error(path, `Must be at most ${L.hiddenLayers} layer widths, whole numbers from 1 to ${L.width}; got ${show(x)}.`);
      return undefined;
    },
    flag: 'hidden',
    label: "the MLP's hidden widths",
    common: 'model',
  },
  /** per-class caps on the data (null = all), for quick runs */
  trainPerClass: {
    kind: 'int',
    min: 1,
    max: L.perClass,
    orNull: 'all',
    default: null,
    flag: 'train-per-class',
    flagBounds: 'min',
    defaultText: 'all',
    label: 'Train images per class',
    common: 'data',
    says: whole('Train images per class', L.perClass, ', or unset (all)'),
  },
  testPerClass: {
    kind: 'int',
    min: 1,
    max: L.perClass,
    orNull: 'all',
    default: null,
    flag: 'test-per-class',
    flagBounds: 'min',
    defaultText: 'all',
    label: 'Test images per class',
    common: 'data',
    says: whole('Test images per class', L.perClass, ', or unset (all)'),
  },
  seed: {
    kind: 'int',
    min: 0,
    max: UINT32_MAX,
    default: 0,
    checkIn: seedIn(false),
    flag: 'seed',
    flagBounds: 'both',
    // several training seeds are `--seeds a-b` (the CLI's range); with an RS class order --seeds is that order's seed,
    // so there the line names the first seed only and the page's link (--link) carries the rest
    args: (x: number, s: { seeds?: number; orderSeed: number | null }) => {
      const n = s.seeds ?? 1;
      return n > 1 && s.orderSeed === null ? ['--seeds', `${x}-${x + n - 1}`] : ['--seed', String(x)];
    },
    label: 'Seed',
    common: 'seeds',
    says: (x) => `The seed must be a whole number from 0 to ${UINT32_MAX}; got ${String(x)}.`,
  },
  detectors: {
    kind: 'list',
    options: DETECTOR_IDS,
    item: 'detector',
    default: ['msp', 'energy', 'ber'],
    checkIn: namesIn(L.detectors),
    flag: 'detectors',
    label: 'the detectors',
  },
  /** OOD sets: "fashion-mnist:6-9" (held-out classes: near) or "digits" (another dataset: far) */
  oodSets: {
    kind: 'value',
    default: ['fashion-mnist:6-9', 'digits'] as string[],
    check: (x: unknown) => (Array.isArray(x) ? { value: x as string[] } : { error: 'Must be a list of OOD sets.' }),
    checkIn: namesIn(L.oodSets),
    flag: 'ood',
    value: 'digits,fashion-mnist:6-9',
    defaultText: 'fashion-mnist:6-9,digits',
    label: 'the OOD sets: held-out classes of the ID dataset (near) or another dataset (far)',
  },
  /** the fine-tuned heads' epochs and BER's margins */
  headEpochs: {
    kind: 'int',
    min: 1,
    max: L.epochs,
    default: HEAD_DEFAULTS.epochs,
    flag: 'head-epochs',
    flagBounds: 'min',
    label: 'Head epochs',
    says: whole('Head epochs', L.epochs),
  },
  marginIn: { kind: 'number', min: -L.margin, max: L.margin, default: HEAD_DEFAULTS.marginIn, flag: 'margin-in', label: 'BER m_in' },
  marginOut: { kind: 'number', min: -L.margin, max: L.margin, default: HEAD_DEFAULTS.marginOut, flag: 'margin-out', label: 'BER m_out' },
  /**
   * Seeds the lab runs: `seed`, `seed` + 1, … (mean ± sd over them; docs/verdicts.md §Open world). Absent = 1, and
   * not part of a run's key (each seed's run is stored under its own `seed`), so every earlier link and stored run
   * reads as before.
   */
  seeds: {
    kind: 'int',
    min: 1,
    max: L.labSeeds,
    default: 1,
    absent: 1,
    label: 'how many seeds',
    common: 'seeds',
    says: (x) => `Seeds must be a whole number from 1 to ${L.labSeeds}; got ${String(x)}.`,
  },
});

export type OpenWorldSettings = SettingsOf<typeof OPEN_WORLD_SETTINGS>;

/** The settings the common sections hold (field → section). */
export const OPEN_WORLD_COMMON = commonFields(OPEN_WORLD_SETTINGS);
export type OpenWorldCommonKey = CommonKeyOf<typeof OPEN_WORLD_SETTINGS>;

/** The Open-world section when the lab's ID experiment is the experiment's common sections: its own fields. */
export type OpenWorldOwn = { from: 'experiment' } & Omit<OpenWorldSettings, OpenWorldCommonKey>;
export const OPEN_WORLD_OWN_KEYS: readonly string[] = ['from', ...Object.keys(OPEN_WORLD_SETTINGS).filter((k) => !(k in OPEN_WORLD_COMMON))];

/** The issue's headline setting: Fashion-MNIST 0–5 in 3 tasks, replay, near = 6–9 and far = digits (the v1 fill-in). */
export const OPEN_WORLD_DEFAULTS: OpenWorldSettings = settingsDefaults(OPEN_WORLD_SETTINGS);

/**
 * Named presets: a quick one (teaching mode, the end-to-end test), BER's ablation (Table 2), and `near-far`: a quick
 * run where the near-OOD set is the nearer one (docs/science.md §5 "Presets, measured"): Fashion-MNIST 0–5 with 500
 * training / 200 test images per class, near = its classes 6–9, far = digits, 3 seeds. On `quick` (digits as ID) the
 * detectors separate the held-out digits from ID better than Fashion-MNIST, and the verdict says so.
 */
export const OPEN_WORLD_PRESETS: Record<'quick' | 'default' | 'ablation' | 'near-far', OpenWorldSettings> = {
  quick: {
    ...OPEN_WORLD_DEFAULTS,
    dataset: 'digits',
    classes: [0, 1, 2, 3, 4, 5],
    oodSets: ['digits:6-9', 'fashion-mnist'],
    epochs: 6,
    hidden: [128],
    trainPerClass: null,
    testPerClass: null,
    headEpochs: 3,
    detectors: ['msp', 'energy', 'ber'],
  },
  default: OPEN_WORLD_DEFAULTS,
  ablation: { ...OPEN_WORLD_DEFAULTS, detectors: ['energy', 'ber-ce', 'ber-nter', 'ber-oter', 'ber'] },
  'near-far': { ...OPEN_WORLD_DEFAULTS, hidden: [128], trainPerClass: 500, testPerClass: 200, headEpochs: 3, seeds: 3 },
};

const OOD_SPEC = /^([a-z0-9-]+)(?::([\d,-]+))?$/;

/**
 * An OOD spec read: its dataset and classes (null: the whole dataset), or what is wrong with it. The class ranges
 * are bounded before they are expanded (src/core/config/index-ranges.ts), so a spec like "digits:6-99999999999"
 * is refused in a moment with the bound in its message.
 */
export function readOodSet(s: string): { ok: true; dataset: string; classes: number[] | null } | { ok: false; error: string } {
  const notASet = `"${s.length > 40 ? `${s.slice(0, 37)}…` : s}" is not an OOD set: use a dataset (${OPEN_WORLD_DATASETS.join(', ')}), optionally with classes, e.g. fashion-mnist:6-9.`;
  if (s.length > CONFIG_LIMITS.settingNameLength) return { ok: false, error: notASet };
  const m = OOD_SPEC.exec(s.trim());
  if (!m) return { ok: false, error: notASet };
  if (m[2] === undefined) return { ok: true, dataset: m[1], classes: null };
  const r = parseIndexRanges(m[2]);
  if (!r.ok) return { ok: false, error: `OOD set "${s}": ${r.error}` };
  if (r.indices.length === 0) return { ok: false, error: notASet };
  return { ok: true, dataset: m[1], classes: r.indices };
}

/** The dataset and classes of an OOD spec, or null when it is not one (readOodSet says why). */
export function parseOodSetName(s: string): { dataset: string; classes: number[] | null } | null {
  const r = readOodSet(s);
  return r.ok ? { dataset: r.dataset, classes: r.classes } : null;
}

/**
 * The Open-world lab's class field ("0-5", "0,1,2", "0 1 2") as class indices of `dataset`: the same bounded
 * parser as the CLI's --classes (src/core/config/index-ranges.ts), so a huge range is a message, not a frozen tab.
 */
export function parseOpenWorldClasses(text: string, dataset: string): { classes: number[]; error?: string } {
  const n = (OPEN_WORLD_DATASETS as readonly string[]).includes(dataset) ? getClassList(dataset === 'digits' ? 'mnist' : dataset).classes.length : undefined;
  const r = parseIndexRanges(text, { spaces: true, count: n, of: n === undefined ? undefined : dataset });
  return r.ok ? { classes: r.indices } : { classes: [], error: `ID classes: ${r.error}` };
}

/** Whether an OOD set is near (held-out classes of the ID dataset) or far (another dataset). */
export function oodKind(settings: Pick<OpenWorldSettings, 'dataset'>, set: string): 'near' | 'far' {
  return parseOodSetName(set)?.dataset === settings.dataset ? 'near' : 'far';
}

/** A problem with one setting of the Open-world lab (the margins' problems are filed under marginIn). */
export interface OpenWorldIssue {
  field: keyof OpenWorldSettings;
  message: string;
}

type Add = (field: keyof OpenWorldSettings, message: string) => void;

const classCountOf = (dataset: string): number =>
  (OPEN_WORLD_DATASETS as readonly string[]).includes(dataset) ? getClassList(dataset === 'digits' ? 'mnist' : dataset).classes.length : 0;
const classesOk = (s: OpenWorldSettings): boolean => Array.isArray(s.classes) && s.classes.length >= 2 && s.classes.length <= L.classes;

/**
 * The lab's checks that are more than a field's bounds (each replaces its field's check in `openWorldIssues`): lists
 * with a message per problem, and the rules between fields (the classes in the dataset, tasks of equal size, the
 * model's weights, near OOD sets held out, m_in < m_out).
 */
const RULES: Partial<Record<keyof OpenWorldSettings, (s: OpenWorldSettings, add: Add) => void>> = {
  classes(s, add) {
    const nClasses = classCountOf(s.dataset);
    if (!Array.isArray(s.classes) || s.classes.length < 2) add('classes', 'Choose at least two ID classes.');
    else if (!classesOk(s)) add('classes', `At most ${grouped(L.classes)} ID classes; got ${grouped(s.classes.length)}.`);
    else {
      if (new Set(s.classes).size !== s.classes.length) add('classes', 'An ID class is listed twice.');
      const bad = s.classes.find((c) => !Number.isInteger(c) || c < 0 || c >= nClasses);
      if (bad !== undefined) add('classes', `ID class ${bad} does not exist (the dataset has classes 0..${nClasses - 1}).`);
    }
  },
  tasks(s, add) {
    const problem = fieldProblem(OPEN_WORLD_SETTINGS.tasks, s.tasks);
    if (problem) add('tasks', problem);
    else if (classesOk(s) && s.classes.length % s.tasks !== 0) add('tasks', `${s.classes.length} classes do not split into ${s.tasks} equal tasks.`);
  },
  hidden(s, add) {
    const hiddenOk = Array.isArray(s.hidden) && s.hidden.length <= L.hiddenLayers && s.hidden.every((h) => Number.isInteger(h) && h >= 1 && h <= L.width);
    if (!hiddenOk)
      add(
        'hidden',
        `Hidden widths: at most ${L.hiddenLayers} layers, each a whole number from 1 to ${grouped(L.width)}; got ${JSON.stringify(s.hidden)?.slice(0, 40)}.`,
      );
    else if (classesOk(s) && classCountOf(s.dataset) > 0) {
      const shape = datasetImageShape(s.dataset) as [number, number, number];
      const { parameters } = modelSize({ kind: 'mlp', hidden: s.hidden }, shape, s.classes.length);
      if (parameters > L.openWorldParameters)
        add(
          'hidden',
          `The Open-world lab's model can have at most ${grouped(L.openWorldParameters)} weights (the tab also keeps a checkpoint per step and fits the detectors on its features); ` +
            `this MLP on ${shape.join('×')} images with ${s.classes.length} outputs has ${grouped(parameters)}: use fewer or narrower hidden layers.`,
        );
    }
  },
  detectors(s, add) {
    if (!Array.isArray(s.detectors) || s.detectors.length === 0) add('detectors', 'Choose at least one detector.');
    else if (s.detectors.length > L.detectors) add('detectors', `At most ${L.detectors} detectors; got ${s.detectors.length}.`);
    else {
      for (const d of s.detectors) if (!(DETECTOR_IDS as readonly string[]).includes(d)) add('detectors', `Unknown detector "${String(d).slice(0, 40)}".`);
      if (new Set(s.detectors).size !== s.detectors.length) add('detectors', 'A detector is listed twice.');
    }
  },
  oodSets(s, add) {
    if (!Array.isArray(s.oodSets) || s.oodSets.length === 0) return add('oodSets', 'Choose at least one OOD set.');
    if (s.oodSets.length > L.oodSets) return add('oodSets', `At most ${L.oodSets} OOD sets; got ${s.oodSets.length}.`);
    if (new Set(s.oodSets).size !== s.oodSets.length) add('oodSets', 'An OOD set is listed twice.');
    for (const name of s.oodSets) {
      const p =
        typeof name === 'string' ? readOodSet(name) : ({ ok: false, error: `An OOD set is a name like fashion-mnist:6-9; got ${String(name)}.` } as const);
      if (!p.ok) {
        add('oodSets', p.error);
        continue;
      }
      if (!(OPEN_WORLD_DATASETS as readonly string[]).includes(p.dataset)) {
        add(
          'oodSets',
          `"${name}" is not an OOD set: ${p.dataset} is not a built-in dataset (use ${OPEN_WORLD_DATASETS.join(', ')}, optionally with classes, e.g. fashion-mnist:6-9).`,
        );
        continue;
      }
      if (p.dataset === s.dataset) {
        if (!p.classes) add('oodSets', `"${name}" is the ID dataset itself: give held-out classes, e.g. ${s.dataset}:6-9.`);
        else if (classesOk(s) && p.classes.some((c) => s.classes.includes(c)))
          add(
            'oodSets',
            `"${name}" shares classes ${p.classes.filter((c) => s.classes.includes(c)).join(', ')} with the ID classes; a near-OOD set must be held-out classes.`,
          );
      }
      const n = getClassList(p.dataset === 'digits' ? 'mnist' : p.dataset).classes.length;
      if (p.classes && p.classes.some((c) => c >= n)) add('oodSets', `"${name}": ${p.dataset} has classes 0..${n - 1}.`);
    }
  },
  // the margins as a pair, filed under marginIn
  marginIn(s, add) {
    const ok = (m: unknown) => fieldProblem(OPEN_WORLD_SETTINGS.marginIn, m) === undefined;
    if (!ok(s.marginIn) || !ok(s.marginOut))
      add(
        'marginIn',
        `The margins must be numbers from −${grouped(L.margin)} to ${grouped(L.margin)}; got m_in ${String(s.marginIn)}, m_out ${String(s.marginOut)}.`,
      );
    else if (!(s.marginIn < s.marginOut)) add('marginIn', 'BER needs m_in < m_out (ID energies are pushed below m_in, pseudo-OOD above m_out).');
  },
  marginOut() {},
};

/** The order the lab's checks speak in: the table's, the class order's seed after the training seed (as they always have). */
const CHECK_ORDER = (Object.keys(OPEN_WORLD_SETTINGS) as (keyof OpenWorldSettings)[])
  .filter((k) => k !== 'orderSeed')
  .flatMap((k) => (k === 'seed' ? (['seed', 'orderSeed'] as const) : [k]));

/**
 * Every problem with `s` (empty = valid): each field's bounds (the table's, in the lab's words) and the rules above,
 * each message naming its bound (src/core/config/limits.ts). The share link's section, the lab's form and
 * `cil-lab ood` (which names the flag of `field`) all check with this.
 */
export function openWorldIssues(s: OpenWorldSettings): OpenWorldIssue[] {
  const issues: OpenWorldIssue[] = [];
  const add: Add = (field, message) => void issues.push({ field, message });
  const all = s as Record<string, unknown>;
  for (const field of CHECK_ORDER) {
    const rule = RULES[field];
    if (rule) rule(s, add);
    else {
      const f = OPEN_WORLD_SETTINGS[field];
      if (all[field] === undefined && 'absent' in f) continue;
      const problem = fieldProblem(f, all[field]);
      if (problem) add(field, problem);
    }
  }
  return issues;
}

/** Every problem with `s`, as sentences (empty = valid): openWorldIssues' messages. */
export function validateOpenWorldSettings(s: OpenWorldSettings): string[] {
  return openWorldIssues(s).map((i) => i.message);
}

/** The settings with anything missing filled from the defaults (for links and stored runs of older versions). */
export function withOpenWorldDefaults(partial: Partial<OpenWorldSettings>): OpenWorldSettings {
  return { ...OPEN_WORLD_DEFAULTS, ...partial };
}

/** A canonical JSON key of the settings (sorted detectors and sets do not change numbers, so they stay in order). */
export function openWorldKey(s: OpenWorldSettings): string {
  // the keys of the defaults, and an optional field's where it is set to other than its absent value; never `seeds`
  // (how many runs, not what one run is)
  const all = s as Record<string, unknown>;
  const set = (k: string, f: SettingField): boolean => all[k] !== undefined && !('absent' in f && JSON.stringify(all[k]) === JSON.stringify(f.absent));
  const keys = Object.entries(OPEN_WORLD_SETTINGS)
    .filter(([k, f]) => k in OPEN_WORLD_DEFAULTS || (k !== 'seeds' && set(k, f)))
    .map(([k]) => k)
    .sort();
  return JSON.stringify(keys.map((k) => [k, all[k]]));
}
