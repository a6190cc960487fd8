/**
 * The Open-world lab's section (docs/science.md §5). Two forms:
 * - `{ from: 'experiment', orderSeed, detectors, oodSets, headEpochs, marginIn, marginOut }` (what the app writes):
 *   the lab's own part; its ID data, strategy and training are the experiment's common sections
 *   (src/core/ood/experiment.ts);
 * - the full settings (src/core/ood/config.ts `OpenWorldSettings`), as links made before the lab moved onto the
 *   common sections carry them: they keep opening to the same numbers.
 *
 * Compatibility (schema.ts rule 2): the field is optional; absent means the lab's defaults, and full settings equal
 * to the defaults are checked to `undefined`, so compactConfig and configHash of a config that does not use the lab
 * stay as they were. Read it with the lab entry's `view(config)` (src/core/labs/open-world.ts).
 */
import { OPEN_WORLD_DEFAULTS, openWorldIssues, openWorldKey, validateOpenWorldSettings, withOpenWorldDefaults, type OpenWorldSettings } from '../../ood/config';
import { OPEN_WORLD_OWN_KEYS, type OpenWorldOwn } from '../../ood/experiment';
import { show, type Checker } from '../checker';
import { readOwnForm, TRAINING_FIELDS } from '../lab-training';
import { CONFIG_LIMITS } from '../limits';
import type { ConfigSection } from './section';

export type { OpenWorldOwn, OpenWorldSettings };

const KEYS = [...Object.keys(OPEN_WORLD_DEFAULTS), 'seeds'] as (keyof OpenWorldSettings)[];

export const openWorldSection: ConfigSection<'openWorld'> = {
  check(c, v): OpenWorldSettings | OpenWorldOwn | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'object' && v !== null && 'from' in v) return checkOwn(c, v);
    const o = c.object(v, 'openWorld', KEYS);
    const d = OPEN_WORLD_DEFAULTS;
    const L = CONFIG_LIMITS;
    const ints = (x: unknown, path: string, max: number): number[] | undefined => {
      const a = c.array(x, path, 1, max);
      if (!a) return undefined;
      if (a.every((n) => Number.isInteger(n) && (n as number) >= 0 && (n as number) < L.classes)) return a as number[];
      c.error(path, `Must be a list of class indices, whole numbers from 0 to ${L.classes - 1}; got ${show(x)}.`);
      return undefined;
    };
    const strings = (x: unknown, path: string, max: number) => names(c, x, path, max);
    const s: OpenWorldSettings = withOpenWorldDefaults({});
    if (o.dataset !== undefined) s.dataset = c.choice(o.dataset, 'openWorld.dataset', ['fashion-mnist', 'digits', 'emoji'] as const, d.dataset);
    if (o.classes !== undefined) s.classes = ints(o.classes, 'openWorld.classes', L.classes) ?? d.classes;
    if (o.tasks !== undefined) s.tasks = c.int(o.tasks, 'openWorld.tasks', 1, L.classes, d.tasks);
    if (o.orderSeed !== undefined) s.orderSeed = o.orderSeed === null ? null : c.seed(o.orderSeed, 'openWorld.orderSeed', 0);
    if (o.strategy !== undefined)
      s.strategy = typeof o.strategy === 'string' ? o.strategy : (c.error('openWorld.strategy', `Must be a strategy id; got ${show(o.strategy)}.`), d.strategy);
    if (o.memory !== undefined) s.memory = c.int(o.memory, 'openWorld.memory', 1, L.strategyExamples, d.memory);
    if (o.epochs !== undefined) s.epochs = c.int(o.epochs, 'openWorld.epochs', 1, L.epochs, d.epochs);
    if (o.hidden !== undefined) {
      const h = c.array(o.hidden, 'openWorld.hidden', 0, L.hiddenLayers);
      if (h && h.every((n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= L.width)) s.hidden = h as number[];
      else if (h) c.error('openWorld.hidden', `Must be at most ${L.hiddenLayers} layer widths, whole numbers from 1 to ${L.width}; got ${show(o.hidden)}.`);
    }
    if (o.trainPerClass !== undefined) s.trainPerClass = c.intOrNull(o.trainPerClass, 'openWorld.trainPerClass', 1, L.perClass, d.trainPerClass);
    if (o.testPerClass !== undefined) s.testPerClass = c.intOrNull(o.testPerClass, 'openWorld.testPerClass', 1, L.perClass, d.testPerClass);
    if (o.seed !== undefined) s.seed = c.seed(o.seed, 'openWorld.seed', d.seed);
    if (o.detectors !== undefined) s.detectors = (strings(o.detectors, 'openWorld.detectors', 32) as OpenWorldSettings['detectors']) ?? d.detectors;
    if (o.oodSets !== undefined) s.oodSets = strings(o.oodSets, 'openWorld.oodSets', 16) ?? d.oodSets;
    if (o.headEpochs !== undefined) s.headEpochs = c.int(o.headEpochs, 'openWorld.headEpochs', 1, L.epochs, d.headEpochs);
    if (o.marginIn !== undefined) s.marginIn = c.num(o.marginIn, 'openWorld.marginIn', { min: -1e4, max: 1e4 }, d.marginIn);
    if (o.marginOut !== undefined) s.marginOut = c.num(o.marginOut, 'openWorld.marginOut', { min: -1e4, max: 1e4 }, d.marginOut);
    // absent = one seed (what every earlier link meant), so 1 is not written
    if (o.seeds !== undefined) {
      const seeds = c.int(o.seeds, 'openWorld.seeds', 1, L.labSeeds, 1);
      if (seeds !== 1) s.seeds = seeds;
    }
    for (const message of validateOpenWorldSettings(s)) c.error('openWorld', message);
    return openWorldKey(s) === openWorldKey(d) && s.seeds === undefined ? undefined : s;
  },
};

/** A list of 1 to `max` names (detectors, OOD sets). */
function names(c: Checker, x: unknown, path: string, max: number): string[] | undefined {
  const a = c.array(x, path, 1, max);
  if (!a) return undefined;
  if (a.every((s) => typeof s === 'string' && s.length <= 80)) return a as string[];
  c.error(path, `Must be a list of names; got ${show(x)}.`);
  return undefined;
}

/** The lab's own part: the settings' checks on the lab's defaults with these fields (the rest is the common sections'). */
function checkOwn(c: Checker, v: object): OpenWorldOwn | undefined {
  const common: Record<string, string> = {
    dataset: 'dataset',
    classes: 'classes',
    tasks: 'taskSizes',
    strategy: 'strategies',
    memory: 'strategies',
    ...TRAINING_FIELDS,
  };
  const o = readOwnForm(c, v, 'openWorld', OPEN_WORLD_OWN_KEYS, common, 'ID data, strategy and training');
  if (!o) return undefined;
  const d = OPEN_WORLD_DEFAULTS;
  const own: OpenWorldOwn = {
    from: 'experiment',
    orderSeed: o.orderSeed === undefined || o.orderSeed === null ? null : c.seed(o.orderSeed, 'openWorld.orderSeed', 0),
    detectors: d.detectors.slice(),
    oodSets: d.oodSets.slice(),
    headEpochs: o.headEpochs === undefined ? d.headEpochs : c.int(o.headEpochs, 'openWorld.headEpochs', 1, CONFIG_LIMITS.epochs, d.headEpochs),
    marginIn: o.marginIn === undefined ? d.marginIn : c.num(o.marginIn, 'openWorld.marginIn', { min: -1e4, max: 1e4 }, d.marginIn),
    marginOut: o.marginOut === undefined ? d.marginOut : c.num(o.marginOut, 'openWorld.marginOut', { min: -1e4, max: 1e4 }, d.marginOut),
  };
  const list = (x: unknown, path: string, max: number) => names(c, x, path, max);
  if (o.detectors !== undefined) own.detectors = (list(o.detectors, 'openWorld.detectors', 32) as OpenWorldOwn['detectors']) ?? own.detectors;
  if (o.oodSets !== undefined) own.oodSets = list(o.oodSets, 'openWorld.oodSets', 16) ?? own.oodSets;
  // the lab's rules on its own fields (those on the ID data are the page's and the CLI's: the common sections may
  // belong to another lab's experiment when the link was made elsewhere)
  const ownFields = new Set(['orderSeed', 'detectors', 'oodSets', 'headEpochs', 'marginIn']);
  const issues = openWorldIssues(withOpenWorldDefaults({ ...own, from: undefined } as Partial<OpenWorldSettings>));
  for (const i of issues)
    if (ownFields.has(i.field) && !(i.field === 'oodSets' && /ID classes|ID dataset/.test(i.message))) c.error(`openWorld.${i.field}`, i.message);
  return own;
}
