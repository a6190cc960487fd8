/**
 * The strategy registry: id → factory, with the options of defaults.ts filled in and checked.
 *
 * Masking of the single head, per strategy (with the default `head: 'seen'`; `head: 'all'` unmasks training and
 * the default prediction for every strategy):
 * - finetune, joint, EWC, SI, replay, A-GEM, GDumb: cross-entropy and arg-max over the classes seen so far
 *   (EWC's Fisher and A-GEM's reference gradient use the same width);
 * - LwF, iCaRL: the same, and the distillation term only over the old classes (units 0..seenBefore−1);
 * - iCaRL, NCM: predict by nearest class mean over the classes seen so far (no logits at test time);
 *   NCM trains (cross-entropy over task 0's classes) on the first task only.
 */
import { STRATEGY_DEFAULTS, STRATEGY_IDS, type StrategyId, type StrategyOptionsMap } from '../defaults';
import { createAgem } from './agem';
import { createEwc } from './ewc';
import { createFinetune } from './finetune';
import { createGdumb } from './gdumb';
import { createIcarl } from './icarl';
import { createJoint } from './joint';
import { createLwf } from './lwf';
import { createNcm } from './ncm';
import { createReplay } from './replay';
import { createSi } from './si';
import type { Strategy } from './types';

export type { Strategy, TaskContext, LossBatch } from './types';

export class StrategyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategyConfigError';
  }
}

const CHOICES: Record<string, readonly string[]> = {
  mode: ['single', 'multi'],
  selection: ['reservoir', 'herding'],
};
const POSITIVE_INTEGER = new Set(['memory', 'fisherSamples', 'sampleSize']);

/** The strategy's options with defaults filled in; unknown names and bad values are errors. */
export function resolveStrategyOptions<S extends StrategyId>(id: S, given: Partial<StrategyOptionsMap[S]> = {}): StrategyOptionsMap[S] {
  if (!STRATEGY_IDS.includes(id)) throw new StrategyConfigError(`Unknown strategy "${String(id)}": use ${STRATEGY_IDS.join(', ')}.`);
  const defaults = STRATEGY_DEFAULTS[id] as Record<string, number | string>;
  const out: Record<string, number | string> = { ...defaults };
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (!(key in defaults)) {
      const known = Object.keys(defaults);
      throw new StrategyConfigError(`Strategy ${id} has no option "${key}"${known.length ? ` (it has ${known.join(', ')})` : ''}.`);
    }
    if (typeof defaults[key] === 'string') {
      if (typeof value !== 'string' || !CHOICES[key]?.includes(value)) {
        throw new StrategyConfigError(`${id}.${key} must be one of ${(CHOICES[key] ?? []).join(', ')}; got ${JSON.stringify(value)}.`);
      }
    } else if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (POSITIVE_INTEGER.has(key) && !(Number.isInteger(value) && value >= 1))) {
      throw new StrategyConfigError(
        `${id}.${key} must be a ${POSITIVE_INTEGER.has(key) ? 'positive whole' : 'non-negative'} number; got ${JSON.stringify(value)}.`,
      );
    }
    out[key] = value as number | string;
  }
  return out as StrategyOptionsMap[S];
}

/** Each strategy's factory, by id. */
const FACTORIES: { [S in StrategyId]: (options: StrategyOptionsMap[S]) => Strategy } = {
  finetune: () => createFinetune(),
  joint: () => createJoint(),
  ewc: createEwc,
  lwf: createLwf,
  si: createSi,
  replay: createReplay,
  icarl: createIcarl,
  agem: createAgem,
  gdumb: createGdumb,
  ncm: () => createNcm(),
};

/** A fresh strategy instance (no state: a run starts it, or restores it with setState). */
export function createStrategy<S extends StrategyId>(id: S, options: StrategyOptionsMap[S]): Strategy {
  if (!Object.hasOwn(FACTORIES, id)) throw new StrategyConfigError(`Unknown strategy "${String(id)}".`);
  return (FACTORIES[id] as (options: StrategyOptionsMap[S]) => Strategy)(options);
}
