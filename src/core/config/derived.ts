/**
 * What the rest of the app reads off a checked config: the experiment's class names, the protocol run's options
 * and the training engine's per-run settings (plain data, so core does not import the engine).
 *
 * Layering: pure TS, imports only src/core.
 */
import { getClassList } from '../classes/builtin';
import type { ProtocolOptions } from '../protocols/types';
import { datasetClassListId } from './defaults';
import type { ExperimentConfig } from './types';

/** The class names of the experiment (selected classes of the dataset, in `classes` order). */
export function experimentClassNames(config: ExperimentConfig): string[] {
  const names = config.dataset.id === 'custom' ? config.dataset.classNames : getClassList(datasetClassListId(config.dataset.id)).classes;
  return config.classes.map((i) => names[i]);
}

/** The protocol run's options (src/core/protocols/run.ts) of a config; one limit serves exact extremes and the histogram. */
export function protocolOptionsOf(config: ExperimentConfig): ProtocolOptions {
  const p = config.protocols;
  return {
    protocols: p.enabled.slice(),
    rsSeeds: p.rsSeeds.slice(),
    medianSeed: p.medianSeed,
    msSamples: p.msSamples,
    msSeed: p.msSeed,
    exactLimit: p.exactLimit,
    distribution: { limit: p.exactLimit, sampleSize: p.distribution.sampleSize, seed: p.distribution.seed },
  };
}

/** The one augmentation rule: seeded augmentation of the training batches by default for emoji only (its test
 * styles are never trained on). */
export function augmentsByDefault(datasetId: string): boolean {
  return datasetId === 'emoji';
}

/**
 * The training engine's per-run settings of a config (the fields of src/engine/types.ts TrainRunConfig other
 * than tasks, seed and strategy; plain data, so core does not import the engine). `probs` is set in the
 * Forgetting lab, which records softmax outputs on a held-out calibration split. src/engine/run-config.ts builds
 * every run from these.
 */
export function trainingOptionsOf(config: ExperimentConfig) {
  const t = config.training;
  const m = config.model;
  return {
    model: m.kind === 'cnn' ? { kind: 'cnn' as const, filters: m.filters.slice(), dense: m.dense } : { kind: m.kind, hidden: m.hidden.slice() },
    lr: t.lr,
    beta1: t.optimiser.beta1,
    beta2: t.optimiser.beta2,
    epsilon: t.optimiser.epsilon,
    batchSize: t.batchSize,
    epochs: t.epochs,
    firstTaskEpochs: t.firstTaskEpochs,
    head: t.head,
    // left out at its fill-in: the engine's default, so a run's resolved config is what builds before the field made
    init: t.init === 'he-glorot' ? undefined : t.init,
    // augmentation transforms pixels: never of feature vectors
    augment: (config.features?.source ?? 'pixels') === 'pixels' && augmentsByDefault(config.dataset.id),
    probs: config.lab === 'forgetting' ? { calibrationRatio: config.conformal.calibrationRatio, softmax: config.conformal.softmax } : undefined,
  };
}
