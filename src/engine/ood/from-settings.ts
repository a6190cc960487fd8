/**
 * The Open-world lab's settings (src/core/ood/config.ts) as `runOpenWorld`'s input: the CIL run's config (through
 * ../run-config.ts, the one place its rules live) and the OOD sets built from already loaded datasets. Used by the
 * lab's job (./job.ts) and `cil-lab ood` with a link or the lab's full command.
 */
import { MEMORY_STRATEGY_IDS } from '../../core/config/defaults';
import { HEAD_DEFAULTS, type HeadSettings } from '../../core/ood/detectors';
import type { OpenWorldSettings } from '../../core/ood/config';
import { splitIntoTasks } from '../../core/orderings/key';
import { resolveTaskSizes } from '../../core/orderings/task-sizes';
import { rsClassOrder } from '../../core/protocols/rs';
import { subsetPerClass } from '../dataset';
import { augmentsByDefault, runConfigOf } from '../run-config';
import type { ImageDataset } from '../types';
import { buildOodSet, parseOodSpec, type OodSet } from './ood-data';
import type { OpenWorldConfig } from './run';

/** The datasets the settings need: the ID dataset and every OOD set's source. */
export function datasetsNeeded(s: OpenWorldSettings): string[] {
  return [...new Set([s.dataset, ...s.oodSets.map((n) => parseOodSpec(n).dataset)])];
}

/** The ID dataset (with the per-class caps) and runOpenWorld's config. `load(id)` gives a full built-in dataset. */
export function openWorldInput(s: OpenWorldSettings, load: (id: string) => ImageDataset): { dataset: ImageDataset; config: OpenWorldConfig } {
  const full = load(s.dataset);
  const capped = s.trainPerClass !== null || s.testPerClass !== null;
  const dataset = capped ? subsetPerClass(full, { trainPerClass: s.trainPerClass ?? undefined, testPerClass: s.testPerClass ?? undefined }) : full;
  const order = s.orderSeed === null ? s.classes.slice() : rsClassOrder(s.orderSeed, s.classes.length).map((i) => s.classes[i]);
  const sizes = resolveTaskSizes(s.classes.length, { tasks: s.tasks });
  const withMemory = (MEMORY_STRATEGY_IDS as readonly string[]).includes(s.strategy);
  // the lab sets the model, epochs and memory; the rest is the engine's defaults, through the one run config
  const train = runConfigOf(
    {
      model: { kind: 'mlp', hidden: s.hidden.slice() },
      epochs: s.epochs,
      augment: augmentsByDefault(s.dataset),
      ...(withMemory ? { strategyOptions: { [s.strategy]: { memory: s.memory } } } : {}),
    },
    { tasks: splitIntoTasks(order, sizes), strategy: s.strategy, seed: s.seed },
  );
  const oodSets: OodSet[] = s.oodSets.map((name) => {
    const spec = parseOodSpec(name);
    return buildOodSet(spec, load(spec.dataset), dataset, spec.dataset === s.dataset, s.classes);
  });
  const head: Partial<HeadSettings> = { ...HEAD_DEFAULTS, epochs: s.headEpochs, marginIn: s.marginIn, marginOut: s.marginOut };
  return { dataset, config: { train, oodSets, detectors: s.detectors.slice(), head } };
}
