/**
 * The Open-world lab on the experiment's common sections (docs/science.md §5 "Settings and the share link"): the
 * ID dataset, classes, tasks, strategy, model, epochs, images per class and seeds are the experiment's `dataset`,
 * `classes`, `taskSizes`, `strategies[0]`, `model`, `training`, `data` and `seeds`; the lab's own section keeps only
 * what is its own (`OpenWorldOwn`: the class order's seed, detectors, OOD sets and the fine-tuned heads).
 *
 * `foldOpenWorld` writes the lab's settings into a config and `openWorldFromExperiment` reads them back (the same
 * settings for all settings the lab accepts: tests/unit/core/ood/experiment.test.ts). What the common sections can
 * say but the lab cannot train (another dataset, a CNN, a learning rate of its own, …) is listed in `unused`, with
 * what the lab takes instead; the CLI refuses such a link, the page says so.
 *
 * Pure: imports only src/core.
 */
import { STRATEGY_OPTION_FILL } from '../config/defaults';
import type { ExperimentConfig, StrategySetting } from '../config/types';
import { OPEN_WORLD_DATASETS, OPEN_WORLD_DEFAULTS, type OpenWorldSettings } from './config';
import type { DetectorId } from './detectors';

/** Something a config's common sections say that the lab cannot train, and what it trains instead. */
export interface Unused {
  said: string;
  instead: string;
}

/** The Open-world section when the lab's ID experiment is the experiment's common sections. */
export interface OpenWorldOwn {
  from: 'experiment';
  /** the class order: null = the experiment's (ascending, or `ui.selectedOrdering`), a number = RS with that seed */
  orderSeed: number | null;
  detectors: DetectorId[];
  oodSets: string[];
  headEpochs: number;
  marginIn: number;
  marginOut: number;
}

export const OPEN_WORLD_OWN_KEYS = ['from', 'orderSeed', 'detectors', 'oodSets', 'headEpochs', 'marginIn', 'marginOut'] as const;

/** What the lab trains with besides epochs: the engine's optimiser settings (the legacy section never set them). */
const LAB_TRAINING = { lr: 1e-3, batchSize: 64, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, head: 'seen', init: 'he-glorot' } as const;

const MEMORY_STRATEGIES = ['replay', 'icarl', 'agem', 'gdumb'];

export function isOpenWorldOwn(x: unknown): x is OpenWorldOwn {
  return typeof x === 'object' && x !== null && (x as { from?: unknown }).from === 'experiment';
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The tasks of the experiment's ordering: `ui.selectedOrdering` when it fits, else its classes in ascending order. */
function experimentOrder(config: ExperimentConfig): number[] {
  const key = config.ui.selectedOrdering;
  if (key) {
    const flat = key.split(/[|,]/).map(Number);
    if (
      flat.length === config.classes.length &&
      same(
        [...flat].sort((a, b) => a - b),
        [...config.classes].sort((a, b) => a - b),
      )
    )
      return flat;
  }
  return config.classes.slice();
}

/**
 * The lab's settings of a config whose `openWorld` section is `own`, and what of the common sections the lab could
 * not take (each entry: what the config says, then what the lab trains instead).
 */
export function openWorldFromExperiment(config: ExperimentConfig, own: OpenWorldOwn): { settings: OpenWorldSettings; unused: Unused[] } {
  const d = OPEN_WORLD_DEFAULTS;
  const unused: Unused[] = [];
  const add = (said: string, instead: string): void => void unused.push({ said, instead });
  const s: OpenWorldSettings = { ...structuredClone(d), ...structuredClone({ ...own, from: undefined }) };
  delete (s as { from?: unknown }).from;
  const id = config.dataset.id;
  if ((OPEN_WORLD_DATASETS as readonly string[]).includes(id)) {
    s.dataset = id as OpenWorldSettings['dataset'];
    s.classes = experimentOrder(config);
    s.tasks = config.taskSizes.length;
    if (!config.taskSizes.every((m) => m === config.taskSizes[0]))
      add(`task sizes ${config.taskSizes.join(', ')} (the lab splits its classes into equal tasks)`, `${s.tasks} equal tasks`);
  } else {
    add(`the dataset ${id} (the lab trains on ${OPEN_WORLD_DATASETS.join(', ')})`, `${d.dataset}, classes ${d.classes.join(',')}`);
  }
  const source = config.features?.source ?? 'pixels';
  if (source !== 'pixels') add(`features from ${source === 'encoder' ? 'an image encoder' : `the ${source}`} (the lab trains on pixels)`, 'pixels');
  const first = config.strategies[0];
  if (first && !['simplecil', 'ranpac', 'fecam'].includes(first.id)) {
    s.strategy = first.id;
    const fill = STRATEGY_OPTION_FILL[first.id] as Record<string, unknown>;
    const options = first.options as Record<string, unknown>;
    if ('memory' in fill) s.memory = options.memory as number;
    const others = Object.keys(fill).filter((k) => k !== 'memory' && !same(options[k], fill[k]));
    if (others.length)
      add(`${first.id}'s ${others.map((k) => `${k} ${String(options[k])}`).join(', ')}`, `${others.map((k) => `${k} ${String(fill[k])}`).join(', ')}`);
    if (config.strategies.length > 1) add(`the strategies after ${first.id} (the lab trains one strategy)`, `${first.id} only`);
  } else if (first) add(`${first.id} (a method on pre-trained features; the lab trains a CIL strategy)`, d.strategy);
  if (config.model.kind === 'mlp') s.hidden = config.model.hidden.slice();
  else add(`the ${config.model.kind} model (the lab trains an MLP)`, `an MLP with hidden layers ${d.hidden.join(', ')}`);
  const t = config.training;
  s.epochs = t.epochs;
  const trained = { lr: t.lr, batchSize: t.batchSize, ...t.optimiser, head: t.head, init: t.init };
  const off = (Object.keys(LAB_TRAINING) as (keyof typeof LAB_TRAINING)[]).filter((k) => trained[k] !== LAB_TRAINING[k]);
  if (off.length) add(off.map((k) => `${k} ${String(trained[k])}`).join(', '), off.map((k) => `${k} ${LAB_TRAINING[k]}`).join(', '));
  if (t.firstTaskEpochs !== t.epochs) add(`${t.firstTaskEpochs} epochs on the first task`, `${t.epochs}, as every task`);
  s.trainPerClass = config.data.trainPerClass;
  s.testPerClass = config.data.testPerClass;
  const seeds = config.seeds;
  s.seed = seeds[0] ?? d.seed;
  if (seeds.length > 1) s.seeds = seeds.length;
  if (!seeds.every((x, i) => x === s.seed + i))
    add(`seeds ${seeds.join(', ')} (the lab runs consecutive seeds)`, `seeds ${seeds.map((_, i) => s.seed + i).join(', ')}`);
  return { settings: s, unused };
}

/** The lab's settings in their own section's form. */
export function openWorldOwnOf(s: OpenWorldSettings): OpenWorldOwn {
  return {
    from: 'experiment',
    orderSeed: s.orderSeed,
    detectors: s.detectors.slice(),
    oodSets: s.oodSets.slice(),
    headEpochs: s.headEpochs,
    marginIn: s.marginIn,
    marginOut: s.marginOut,
  };
}

/**
 * `config` with the lab's settings `s` (valid: validateOpenWorldSettings) as its experiment: the common sections
 * say the ID experiment, `openWorld` the lab's own part, `lab` the Open-world lab. Classes given in an order of their
 * own go to `ui.selectedOrdering` (tasks as sets: the engine trains each task's classes in ascending order).
 */
export function foldOpenWorld(config: ExperimentConfig, s: OpenWorldSettings): ExperimentConfig {
  const c = structuredClone(config);
  const size = s.classes.length / s.tasks;
  const ascending = [...s.classes].sort((a, b) => a - b);
  c.lab = 'open-world';
  c.dataset = { id: s.dataset };
  c.classes = ascending;
  c.taskSizes = Array.from({ length: s.tasks }, () => size);
  const own = s.orderSeed === null && !same(s.classes, ascending);
  c.ui = {
    ...c.ui,
    selectedOrdering: own
      ? Array.from({ length: s.tasks }, (_, k) =>
          s.classes
            .slice(k * size, (k + 1) * size)
            .sort((a, b) => a - b)
            .join(','),
        ).join('|')
      : null,
  };
  const fill = STRATEGY_OPTION_FILL[s.strategy as keyof typeof STRATEGY_OPTION_FILL] as Record<string, unknown>;
  const options = MEMORY_STRATEGIES.includes(s.strategy) ? { ...fill, memory: s.memory } : { ...fill };
  c.strategies = [{ id: s.strategy, options } as StrategySetting];
  c.model = { kind: 'mlp', hidden: s.hidden.slice() };
  const { lr, batchSize, beta1, beta2, epsilon, head, init } = LAB_TRAINING;
  c.training = { epochs: s.epochs, firstTaskEpochs: s.epochs, lr, batchSize, optimiser: { kind: 'adam', beta1, beta2, epsilon }, head, init };
  c.data = { trainPerClass: s.trainPerClass, testPerClass: s.testPerClass };
  c.seeds = Array.from({ length: s.seeds ?? 1 }, (_, i) => s.seed + i);
  delete c.features;
  c.openWorld = openWorldOwnOf(s);
  return c;
}
