/**
 * The keys the Ground-truth lab stores its runs under (IndexedDB, src/services/results-store.ts): the experiment's
 * key (`groundTruthRunHash`), and each run's by what determines it (`groundTruthStrategyHash`: dataset, classes and
 * tasks, feature source, model, training and the run's own strategy with its options), so a strategy added to a
 * finished ground truth finds the stored runs of the others. Pure (tested in tests/unit/core/ground-truth/run-keys.test.ts).
 */
import { CONFIG_STRATEGY_IDS, V1_FILL } from '../config/defaults';
import type { ExperimentConfig, StrategySetting } from '../config/types';
import { configHash } from '../config/url-codec';
import { defaultConfig } from '../config/validate';

/** What every store key of the lab starts from: the v1 fill-ins, the lab, and the experiment's data, classes and tasks. */
function keyBase(c: ExperimentConfig): ExperimentConfig {
  return { ...defaultConfig(), lab: 'ground-truth', dataset: c.dataset, classes: c.classes, taskSizes: c.taskSizes };
}

/**
 * The config the lab trains and stores its runs under: only what it uses, the rest at the v1 fill-ins (so the lab
 * shown, the protocols the Orderings lab lists and its S-histogram sample, the Forgetting lab's settings, and any
 * field added later do not change it; the strategies in one fixed order). The RS seeds and EDGE's median seed stay:
 * they choose orderings that are trained.
 */
function groundTruthRunConfig(config: ExperimentConfig): ExperimentConfig {
  const c = structuredClone(config);
  return {
    ...keyBase(c),
    similarity: c.similarity,
    protocols: { ...structuredClone(V1_FILL.protocols), rsSeeds: c.protocols.rsSeeds, medianSeed: c.protocols.medianSeed } as ExperimentConfig['protocols'],
    groundTruth: c.groundTruth,
    model: c.model,
    strategies: CONFIG_STRATEGY_IDS.flatMap((id) => c.strategies.filter((s) => s.id === id)),
    training: c.training,
    data: c.data,
    seeds: c.seeds,
    // absent for pixels, so the keys of every experiment before the features section stay as they were
    ...(c.features ? { features: c.features } : {}),
  };
}

/** The key of the lab's stored runs for a config (IndexedDB, src/services/results-store.ts). */
export function groundTruthRunHash(config: ExperimentConfig): string {
  return configHash(groundTruthRunConfig(config));
}

/**
 * What determines one run's result: the dataset and its subsets, the classes and tasks (the run's ordering covers
 * them), the feature source, the model, the training and the run's own strategy with its options; the ordering and
 * the seed are the rest of the run's store key. Not the other strategies chosen, the budget, the sample seed, the
 * similarity, the RS seeds nor the training seeds: they choose which runs are trained, not what a run gives. So a
 * strategy added to a finished ground truth (or a larger budget) finds the stored runs of the others.
 */
function runDeterminingConfig(config: ExperimentConfig, strategies: StrategySetting[]): ExperimentConfig {
  const c = structuredClone(config);
  return {
    ...keyBase(c),
    model: c.model,
    training: c.training,
    data: c.data,
    strategies: structuredClone(strategies),
    // what the run trains on: two feature sources never share a run's key (absent for pixels: the keys stay)
    ...(c.features ? { features: c.features } : {}),
  };
}

/** The store key of the runs of one strategy (with its options, as the config sets them) of an experiment. */
export function groundTruthStrategyHash(config: ExperimentConfig, strategy: string): string {
  const setting = config.strategies.find((s) => s.id === strategy);
  if (!setting) throw new Error(`The experiment has no strategy "${strategy}".`);
  return configHash(runDeterminingConfig(config, [setting]));
}

/** The keys of an experiment's stored runs (services/results-store.ts; src/ui/ground-truth/run-store.ts reads and writes by them). */
export interface GroundTruthRunKeys {
  /**
   * The experiment's key (`groundTruthRunHash`): the runner's and the page's handle on its runs. Runs were stored
   * under it by older builds (so it changed with the list of strategies); they are still read.
   */
  experiment: string;
  /** each strategy's key (`groundTruthStrategyHash`) */
  strategies: Record<string, string>;
  /** imported runs of a method that is none of the experiment's strategies ("der", "memo"): the training part only */
  imported: string;
}

export function groundTruthRunKeys(config: ExperimentConfig): GroundTruthRunKeys {
  return {
    experiment: groundTruthRunHash(config),
    strategies: Object.fromEntries(config.strategies.map((s) => [s.id, groundTruthStrategyHash(config, s.id)])),
    imported: `${configHash(runDeterminingConfig(config, defaultConfig().strategies))}:imported`,
  };
}
