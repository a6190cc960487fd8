/**
 * The Open-world lab's section (docs/science.md §5): ID data, class order, strategy, detectors, OOD sets and the
 * fine-tuned heads' settings. The settings type, defaults and their meaning live with the lab's science in
 * src/core/ood/config.ts; this section checks their types and bounds, then the lab's own rules
 * (validateOpenWorldSettings), and carries them in the experiment config (so in the share link and the CLI's file).
 *
 * Compatibility (schema.ts rule 2): the field is optional. Builds before the lab had no Open-world settings, so a
 * config without it means "the lab's defaults", and settings equal to the defaults are checked to `undefined`:
 * compactConfig and configHash of every config that does not use the lab stay as they were. Read it with
 * `openWorldOf(config)`.
 */
import { OPEN_WORLD_DEFAULTS, openWorldKey, validateOpenWorldSettings, withOpenWorldDefaults, type OpenWorldSettings } from '../../ood/config';
import { show } from '../checker';
import { CONFIG_LIMITS } from '../limits';
import type { ConfigSection } from './section';

export type { OpenWorldSettings };

/** The Open-world lab's settings of a config: its own, or the lab's defaults. */
export function openWorldOf(config: { openWorld?: OpenWorldSettings }): OpenWorldSettings {
  return structuredClone(config.openWorld ?? OPEN_WORLD_DEFAULTS);
}

const KEYS = [...Object.keys(OPEN_WORLD_DEFAULTS), 'seeds'] as (keyof OpenWorldSettings)[];

export const openWorldSection: ConfigSection<'openWorld'> = {
  check(c, v): OpenWorldSettings | undefined {
    if (v === undefined) return undefined;
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
    const strings = (x: unknown, path: string, max: number): string[] | undefined => {
      const a = c.array(x, path, 1, max);
      if (!a) return undefined;
      if (a.every((s) => typeof s === 'string' && s.length <= 80)) return a as string[];
      c.error(path, `Must be a list of names; got ${show(x)}.`);
      return undefined;
    };
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
