/**
 * The Open-world lab's settings (src/core/labs/open-world/settings.ts) as `runOpenWorld`'s input: the CIL run's config and the OOD
 * sets built from already loaded datasets. Used by the lab's job (./job.ts) and `cil-lab ood` with a link or the
 * lab's full command.
 *
 * The run config is not built here: the settings are folded into an experiment (the lab's entry's fold,
 * src/core/ood/experiment.ts, on the default experiment) and that experiment is trained through
 * ../run-config.ts `trainRunConfigOf`, the one function every lab trains with. So the lab's model, epochs, strategy
 * options and augmentation follow the same rules as the Ground-truth lab's run of the same experiment.
 */
import { defaultConfig } from '../../core/config/validate';
import { HEAD_DEFAULTS, type HeadSettings } from '../../core/ood/detectors';
import type { OpenWorldSettings } from '../../core/labs/open-world/settings';
import { foldOpenWorld } from '../../core/ood/experiment';
import { splitIntoTasks } from '../../core/orderings/key';
import { resolveTaskSizes } from '../../core/orderings/task-sizes';
import { rsClassOrder } from '../../core/protocols/rs';
import { subsetPerClass } from '../dataset';
import { trainRunConfigOf } from '../run-config';
import type { ImageDataset, TrainRunConfig } from '../types';
import { buildOodSet, parseOodSpec, type OodSet } from './ood-data';
import type { OpenWorldConfig } from './run';

/** The datasets the settings need: the ID dataset and every OOD set's source. */
export function datasetsNeeded(s: OpenWorldSettings): string[] {
  return [...new Set([s.dataset, ...s.oodSets.map((n) => parseOodSpec(n).dataset)])];
}

/** The CIL run of the settings: the lab's experiment (its fold) through the one run config, in the lab's class order. */
export function openWorldTrainConfig(s: OpenWorldSettings): TrainRunConfig {
  const order = s.orderSeed === null ? s.classes.slice() : rsClassOrder(s.orderSeed, s.classes.length).map((i) => s.classes[i]);
  const sizes = resolveTaskSizes(s.classes.length, { tasks: s.tasks });
  return trainRunConfigOf(foldOpenWorld(defaultConfig(), s), { tasks: splitIntoTasks(order, sizes), strategy: s.strategy, seed: s.seed });
}

/** The ID dataset (with the per-class caps) and runOpenWorld's config. `load(id)` gives a full built-in dataset. */
export function openWorldInput(s: OpenWorldSettings, load: (id: string) => ImageDataset): { dataset: ImageDataset; config: OpenWorldConfig } {
  const full = load(s.dataset);
  const capped = s.trainPerClass !== null || s.testPerClass !== null;
  const dataset = capped ? subsetPerClass(full, { trainPerClass: s.trainPerClass ?? undefined, testPerClass: s.testPerClass ?? undefined }) : full;
  const train = openWorldTrainConfig(s);
  const oodSets: OodSet[] = s.oodSets.map((name) => {
    const spec = parseOodSpec(name);
    return buildOodSet(spec, load(spec.dataset), dataset, spec.dataset === s.dataset, s.classes);
  });
  const head: Partial<HeadSettings> = { ...HEAD_DEFAULTS, epochs: s.headEpochs, marginIn: s.marginIn, marginOut: s.marginOut };
  return { dataset, config: { train, oodSets, detectors: s.detectors.slice(), head } };
}
