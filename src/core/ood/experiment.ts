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
import { MEMORY_STRATEGY_IDS, STRATEGY_OPTION_FILL } from '../config/defaults';
import { readLabTraining, sameSetting as same, strategyOptionsUnused, writeLabTraining, type Unused } from '../config/lab-training';
import type { ExperimentConfig, StrategySetting } from '../config/types';
import {
  OPEN_WORLD_COMMON,
  OPEN_WORLD_DATASETS,
  OPEN_WORLD_DEFAULTS,
  OPEN_WORLD_SETTINGS,
  type OpenWorldOwn,
  type OpenWorldSettings,
} from '../labs/open-world/settings';
import { isPtmStrategyId } from '../ptm/defaults';

export { OPEN_WORLD_OWN_KEYS, type OpenWorldOwn } from '../labs/open-world/settings';

export type { Unused };

export function isOpenWorldOwn(x: unknown): x is OpenWorldOwn {
  return typeof x === 'object' && x !== null && (x as { from?: unknown }).from === 'experiment';
}

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
  const first = config.strategies[0];
  if (first && !isPtmStrategyId(first.id)) {
    s.strategy = first.id;
    if ('memory' in STRATEGY_OPTION_FILL[first.id]) s.memory = (first.options as { memory: number }).memory;
    const others = strategyOptionsUnused(first, ['memory']);
    if (others) unused.push(others);
    if (config.strategies.length > 1) add(`the strategies after ${first.id} (the lab trains one strategy)`, `${first.id} only`);
  } else if (first) add(`${first.id} (a method on pre-trained features; the lab trains a CIL strategy)`, d.strategy);
  if (config.model.kind === 'mlp') s.hidden = config.model.hidden.slice();
  else add(`the ${config.model.kind} model (the lab trains an MLP)`, `an MLP with hidden layers ${d.hidden.join(', ')}`);
  s.trainPerClass = config.data.trainPerClass;
  s.testPerClass = config.data.testPerClass;
  // epochs, seed and (when more than one) seeds
  Object.assign(s, readLabTraining(config, unused, d.seed));
  return { settings: s, unused };
}

/** The lab's settings in their own section's form: every field of its table that the common sections do not hold. */
export function openWorldOwnOf(s: OpenWorldSettings): OpenWorldOwn {
  const all = s as Record<string, unknown>;
  const own: Record<string, unknown> = { from: 'experiment' };
  for (const k of Object.keys(OPEN_WORLD_SETTINGS)) if (!(k in OPEN_WORLD_COMMON) && all[k] !== undefined) own[k] = structuredClone(all[k]);
  return own as OpenWorldOwn;
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
  const options = (MEMORY_STRATEGY_IDS as readonly string[]).includes(s.strategy) ? { ...fill, memory: s.memory } : { ...fill };
  c.strategies = [{ id: s.strategy, options } as StrategySetting];
  c.model = { kind: 'mlp', hidden: s.hidden.slice() };
  c.data = { trainPerClass: s.trainPerClass, testPerClass: s.testPerClass };
  writeLabTraining(c, { epochs: s.epochs, seed: s.seed, seeds: s.seeds });
  c.openWorld = openWorldOwnOf(s);
  return c;
}
