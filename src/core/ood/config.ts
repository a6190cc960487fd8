/**
 * The Open-world lab's settings (docs/science.md §5): what the lab's form edits, what a share link and a stored run
 * carry, and what the worker turns into `runOpenWorld`'s config. Pure: defaults, presets, validation and a
 * canonical key (runs are stored under the settings that determine their numbers).
 *
 * The experiment config's `openWorld` section is someone else's (src/core/config); this module is what that section
 * should hold: `OpenWorldSettings` as plain JSON.
 */
import { STRATEGY_IDS } from '../config/defaults';
import { CONFIG_LIMITS } from '../config/limits'; // not ../config/schema: its open-world section imports this module
import { getClassList } from '../classes/builtin';
import { DETECTOR_IDS, HEAD_DEFAULTS, type DetectorId } from './detectors';

/** The built-in datasets with images (those the lab can train on and draw OOD sets from). */
export const OPEN_WORLD_DATASETS = ['fashion-mnist', 'digits', 'emoji'] as const;
export type OpenWorldDataset = (typeof OPEN_WORLD_DATASETS)[number];

export interface OpenWorldSettings {
  /** the ID dataset */
  dataset: OpenWorldDataset;
  /** its classes that arrive (dataset labels) */
  classes: number[];
  /** number of tasks K (equal sizes) */
  tasks: number;
  /** the class order: null = ascending, a number = RS with that seed */
  orderSeed: number | null;
  strategy: string;
  /** exemplar memory (strategies with one) */
  memory: number;
  epochs: number;
  hidden: number[];
  /** per-class caps on the data (null = all), for quick runs */
  trainPerClass: number | null;
  testPerClass: number | null;
  seed: number;
  detectors: DetectorId[];
  /** OOD sets: "fashion-mnist:6-9" (held-out classes: near) or "digits" (another dataset: far) */
  oodSets: string[];
  /** the fine-tuned heads' epochs and BER's margins */
  headEpochs: number;
  marginIn: number;
  marginOut: number;
  /**
   * Seeds the lab runs: `seed`, `seed` + 1, … (mean ± sd over them; docs/verdicts.md §Open world). Optional, absent =
   * 1, and not part of a run's key (each seed's run is stored under its own `seed`), so every earlier link and stored
   * run reads as before.
   */
  seeds?: number;
}

/** The headline setting: Fashion-MNIST 0–5 in 3 tasks, replay, near = 6–9 and far = digits. */
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

const OOD_SPEC = /^([a-z0-9-]+)(?::(\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*))?$/;

/** The dataset and classes of an OOD spec, or null when it is not one. */
export function parseOodSetName(s: string): { dataset: string; classes: number[] | null } | null {
  const m = OOD_SPEC.exec(s.trim());
  if (!m) return null;
  if (m[2] === undefined) return { dataset: m[1], classes: null };
  const classes: number[] = [];
  for (const part of m[2].split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let c = a; c <= (b ?? a); c++) classes.push(c);
  }
  return { dataset: m[1], classes };
}

/** Whether an OOD set is near (held-out classes of the ID dataset) or far (another dataset). */
export function oodKind(settings: Pick<OpenWorldSettings, 'dataset'>, set: string): 'near' | 'far' {
  return parseOodSetName(set)?.dataset === settings.dataset ? 'near' : 'far';
}

/** Every problem with `s`, as sentences (empty = valid). */
export function validateOpenWorldSettings(s: OpenWorldSettings): string[] {
  const errors: string[] = [];
  if (!(OPEN_WORLD_DATASETS as readonly string[]).includes(s.dataset)) errors.push(`Unknown dataset "${s.dataset}": use ${OPEN_WORLD_DATASETS.join(', ')}.`);
  const nClasses = (OPEN_WORLD_DATASETS as readonly string[]).includes(s.dataset)
    ? getClassList(s.dataset === 'digits' ? 'mnist' : s.dataset).classes.length
    : 0;
  if (!Array.isArray(s.classes) || s.classes.length < 2) errors.push('Choose at least two ID classes.');
  else {
    if (new Set(s.classes).size !== s.classes.length) errors.push('An ID class is listed twice.');
    const bad = s.classes.find((c) => !Number.isInteger(c) || c < 0 || c >= nClasses);
    if (bad !== undefined) errors.push(`ID class ${bad} does not exist (the dataset has classes 0..${nClasses - 1}).`);
  }
  if (!Number.isInteger(s.tasks) || s.tasks < 1) errors.push('The number of tasks must be a whole number ≥ 1.');
  else if (Array.isArray(s.classes) && s.classes.length % s.tasks !== 0) errors.push(`${s.classes.length} classes do not split into ${s.tasks} equal tasks.`);
  if (!(STRATEGY_IDS as readonly string[]).includes(s.strategy)) errors.push(`Unknown strategy "${s.strategy}".`);
  if (!Number.isInteger(s.memory) || s.memory < 1) errors.push('The memory must be a whole number ≥ 1.');
  if (!Number.isInteger(s.epochs) || s.epochs < 1) errors.push('Epochs must be a whole number ≥ 1.');
  if (!Array.isArray(s.hidden) || s.hidden.some((h) => !Number.isInteger(h) || h < 1)) errors.push('Hidden widths must be whole numbers ≥ 1.');
  for (const [k, v] of [
    ['trainPerClass', s.trainPerClass],
    ['testPerClass', s.testPerClass],
  ] as const) {
    if (v !== null && (!Number.isInteger(v) || v < 1)) errors.push(`${k} must be a whole number ≥ 1 or unset.`);
  }
  if (!Number.isInteger(s.seed)) errors.push('The seed must be a whole number.');
  if (s.orderSeed !== null && !Number.isInteger(s.orderSeed)) errors.push('The order seed must be a whole number or unset.');
  if (!Array.isArray(s.detectors) || s.detectors.length === 0) errors.push('Choose at least one detector.');
  else for (const d of s.detectors) if (!(DETECTOR_IDS as readonly string[]).includes(d)) errors.push(`Unknown detector "${d}".`);
  if (!Array.isArray(s.oodSets) || s.oodSets.length === 0) errors.push('Choose at least one OOD set.');
  else {
    if (new Set(s.oodSets).size !== s.oodSets.length) errors.push('An OOD set is listed twice.');
    for (const name of s.oodSets) {
      const p = parseOodSetName(name);
      if (!p || !(OPEN_WORLD_DATASETS as readonly string[]).includes(p.dataset)) {
        errors.push(`"${name}" is not an OOD set: use a dataset (${OPEN_WORLD_DATASETS.join(', ')}), optionally with classes, e.g. fashion-mnist:6-9.`);
        continue;
      }
      if (p.dataset === s.dataset) {
        if (!p.classes) errors.push(`"${name}" is the ID dataset itself: give held-out classes, e.g. ${s.dataset}:6-9.`);
        else if (Array.isArray(s.classes) && p.classes.some((c) => s.classes.includes(c)))
          errors.push(`"${name}" overlaps the ID classes; a near-OOD set must be held-out classes.`);
      }
      const n = getClassList(p.dataset === 'digits' ? 'mnist' : p.dataset).classes.length;
      if (p.classes && p.classes.some((c) => c >= n)) errors.push(`"${name}": ${p.dataset} has classes 0..${n - 1}.`);
    }
  }
  if (!Number.isInteger(s.headEpochs) || s.headEpochs < 1) errors.push('Head epochs must be a whole number ≥ 1.');
  if (s.seeds !== undefined && (!Number.isInteger(s.seeds) || s.seeds < 1 || s.seeds > CONFIG_LIMITS.labSeeds))
    errors.push(`Seeds must be a whole number from 1 to ${CONFIG_LIMITS.labSeeds}.`);
  if (!Number.isFinite(s.marginIn) || !Number.isFinite(s.marginOut)) errors.push('The margins must be numbers.');
  else if (!(s.marginIn < s.marginOut)) errors.push('BER needs m_in < m_out (ID energies are pushed below m_in, pseudo-OOD above m_out).');
  return errors;
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
