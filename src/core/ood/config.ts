/**
 * The Open-world lab's settings (docs/science.md §5): what the lab's form edits, what a share link and a stored run
 * carry, and what the worker turns into `runOpenWorld`'s config. Pure: defaults, presets, validation and a
 * canonical key (runs are stored under the settings that determine their numbers).
 *
 * The experiment config's `openWorld` section is someone else's (src/core/config); this module is what that section
 * should hold: `OpenWorldSettings` as plain JSON.
 */
import { datasetImageShape, STRATEGY_IDS } from '../config/defaults'; // not ../config/schema: its open-world section imports this module
import { isUint32, UINT32_MAX } from '../config/checker';
import { parseIndexRanges } from '../config/index-ranges';
import { CONFIG_LIMITS, grouped, modelSize } from '../config/limits';
import { getClassList } from '../classes/builtin';
import { DETECTOR_IDS, HEAD_DEFAULTS } from './detectors';
import { OPEN_WORLD_DATASETS, type OpenWorldSettings } from './settings';

export { OPEN_WORLD_DATASETS, type OpenWorldSettings } from './settings';

/** The issue's headline setting: Fashion-MNIST 0–5 in 3 tasks, replay, near = 6–9 and far = digits. */
export const OPEN_WORLD_DEFAULTS: OpenWorldSettings = {
  dataset: 'fashion-mnist',
  classes: [0, 1, 2, 3, 4, 5],
  tasks: 3,
  orderSeed: null,
  strategy: 'replay',
  memory: 200,
  epochs: 3,
  hidden: [256, 128],
  trainPerClass: null,
  testPerClass: null,
  seed: 0,
  detectors: ['msp', 'energy', 'ber'],
  oodSets: ['fashion-mnist:6-9', 'digits'],
  headEpochs: HEAD_DEFAULTS.epochs,
  marginIn: HEAD_DEFAULTS.marginIn,
  marginOut: HEAD_DEFAULTS.marginOut,
};

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

const L = CONFIG_LIMITS;
const wholeIn = (x: unknown, min: number, max: number): boolean => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;

/** A problem with one setting of the Open-world lab (the margins' problems are filed under marginIn). */
export interface OpenWorldIssue {
  field: keyof OpenWorldSettings;
  message: string;
}

/**
 * Every problem with `s` (empty = valid): the lab's rules and the bounds of src/core/config/limits.ts, each message
 * naming its bound. The share link's section, the lab's form and `cil-lab ood` (which names the flag of `field`) all
 * check with this.
 */
export function openWorldIssues(s: OpenWorldSettings): OpenWorldIssue[] {
  const issues: OpenWorldIssue[] = [];
  const add = (field: keyof OpenWorldSettings, message: string): void => void issues.push({ field, message });
  if (!(OPEN_WORLD_DATASETS as readonly string[]).includes(s.dataset)) add('dataset', `Unknown dataset "${s.dataset}": use ${OPEN_WORLD_DATASETS.join(', ')}.`);
  const nClasses = (OPEN_WORLD_DATASETS as readonly string[]).includes(s.dataset)
    ? getClassList(s.dataset === 'digits' ? 'mnist' : s.dataset).classes.length
    : 0;
  const classesOk = Array.isArray(s.classes) && s.classes.length >= 2 && s.classes.length <= L.classes;
  if (!Array.isArray(s.classes) || s.classes.length < 2) add('classes', 'Choose at least two ID classes.');
  else if (!classesOk) add('classes', `At most ${grouped(L.classes)} ID classes; got ${grouped(s.classes.length)}.`);
  else {
    if (new Set(s.classes).size !== s.classes.length) add('classes', 'An ID class is listed twice.');
    const bad = s.classes.find((c) => !Number.isInteger(c) || c < 0 || c >= nClasses);
    if (bad !== undefined) add('classes', `ID class ${bad} does not exist (the dataset has classes 0..${nClasses - 1}).`);
  }
  if (!wholeIn(s.tasks, 1, L.classes)) add('tasks', `The number of tasks must be a whole number from 1 to ${grouped(L.classes)}; got ${String(s.tasks)}.`);
  else if (classesOk && s.classes.length % s.tasks !== 0) add('tasks', `${s.classes.length} classes do not split into ${s.tasks} equal tasks.`);
  if (!(STRATEGY_IDS as readonly string[]).includes(s.strategy))
    add('strategy', `Unknown strategy "${String(s.strategy).slice(0, 40)}": use ${STRATEGY_IDS.join(', ')}.`);
  if (!wholeIn(s.memory, 1, L.strategyExamples))
    add('memory', `The memory must be a whole number from 1 to ${grouped(L.strategyExamples)} exemplars; got ${String(s.memory)}.`);
  if (!wholeIn(s.epochs, 1, L.epochs)) add('epochs', `Epochs must be a whole number from 1 to ${grouped(L.epochs)}; got ${String(s.epochs)}.`);
  const hiddenOk = Array.isArray(s.hidden) && s.hidden.length <= L.hiddenLayers && s.hidden.every((h) => Number.isInteger(h) && h >= 1 && h <= L.width);
  if (!hiddenOk)
    add(
      'hidden',
      `Hidden widths: at most ${L.hiddenLayers} layers, each a whole number from 1 to ${grouped(L.width)}; got ${JSON.stringify(s.hidden)?.slice(0, 40)}.`,
    );
  else if (classesOk && nClasses > 0) {
    const shape = datasetImageShape(s.dataset) as [number, number, number];
    const { parameters } = modelSize({ kind: 'mlp', hidden: s.hidden }, shape, s.classes.length);
    if (parameters > L.openWorldParameters)
      add(
        'hidden',
        `The Open-world lab's model can have at most ${grouped(L.openWorldParameters)} weights (the tab also keeps a checkpoint per step and fits the detectors on its features); ` +
          `this MLP on ${shape.join('×')} images with ${s.classes.length} outputs has ${grouped(parameters)}: use fewer or narrower hidden layers.`,
      );
  }
  for (const [field, k, v] of [
    ['trainPerClass', 'Train images per class', s.trainPerClass],
    ['testPerClass', 'Test images per class', s.testPerClass],
  ] as const) {
    if (v !== null && !wholeIn(v, 1, L.perClass)) add(field, `${k} must be a whole number from 1 to ${grouped(L.perClass)}, or unset (all); got ${String(v)}.`);
  }
  if (!isUint32(s.seed)) add('seed', `The seed must be a whole number from 0 to ${UINT32_MAX}; got ${String(s.seed)}.`);
  if (s.orderSeed !== null && !isUint32(s.orderSeed))
    add('orderSeed', `The order seed must be a whole number from 0 to ${UINT32_MAX}, or unset (ascending); got ${String(s.orderSeed)}.`);
  if (!Array.isArray(s.detectors) || s.detectors.length === 0) add('detectors', 'Choose at least one detector.');
  else if (s.detectors.length > L.detectors) add('detectors', `At most ${L.detectors} detectors; got ${s.detectors.length}.`);
  else {
    for (const d of s.detectors) if (!(DETECTOR_IDS as readonly string[]).includes(d)) add('detectors', `Unknown detector "${String(d).slice(0, 40)}".`);
    if (new Set(s.detectors).size !== s.detectors.length) add('detectors', 'A detector is listed twice.');
  }
  if (!Array.isArray(s.oodSets) || s.oodSets.length === 0) add('oodSets', 'Choose at least one OOD set.');
  else if (s.oodSets.length > L.oodSets) add('oodSets', `At most ${L.oodSets} OOD sets; got ${s.oodSets.length}.`);
  else {
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
        else if (classesOk && p.classes.some((c) => s.classes.includes(c)))
          add(
            'oodSets',
            `"${name}" shares classes ${p.classes.filter((c) => s.classes.includes(c)).join(', ')} with the ID classes; a near-OOD set must be held-out classes.`,
          );
      }
      const n = getClassList(p.dataset === 'digits' ? 'mnist' : p.dataset).classes.length;
      if (p.classes && p.classes.some((c) => c >= n)) add('oodSets', `"${name}": ${p.dataset} has classes 0..${n - 1}.`);
    }
  }
  if (!wholeIn(s.headEpochs, 1, L.epochs)) add('headEpochs', `Head epochs must be a whole number from 1 to ${grouped(L.epochs)}; got ${String(s.headEpochs)}.`);
  const marginOk = (m: unknown) => typeof m === 'number' && Number.isFinite(m) && Math.abs(m) <= L.margin;
  if (!marginOk(s.marginIn) || !marginOk(s.marginOut))
    add(
      'marginIn',
      `The margins must be numbers from −${grouped(L.margin)} to ${grouped(L.margin)}; got m_in ${String(s.marginIn)}, m_out ${String(s.marginOut)}.`,
    );
  else if (!(s.marginIn < s.marginOut)) add('marginIn', 'BER needs m_in < m_out (ID energies are pushed below m_in, pseudo-OOD above m_out).');
  if (s.seeds !== undefined && !wholeIn(s.seeds, 1, CONFIG_LIMITS.labSeeds))
    add('seeds', `Seeds must be a whole number from 1 to ${CONFIG_LIMITS.labSeeds}; got ${String(s.seeds)}.`);
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
  // the keys of the defaults: `seeds` (how many runs, not what one run is) is not among them
  const keys = Object.keys(OPEN_WORLD_DEFAULTS).sort() as (keyof OpenWorldSettings)[];
  return JSON.stringify(keys.map((k) => [k, s[k]]));
}
