/**
 * One function from the experiment config to the engine's run config ("one run path for every lab"):
 * `trainRunConfigOf(config, job)` is what the Ground-truth lab, the Forgetting lab (through
 * src/core/forgetting/from-config.ts) and every later lab train, and `cil-lab run` / `cil-lab cpcf` build their runs
 * with its second half, `runConfigOf(settings, job)`, from the settings their flags give (a `--config`/`--link`
 * config becomes those flags in src/cli/config-args.ts). tests/unit/engine/run-config.test.ts checks that the three
 * give the same resolved run for the same config.
 *
 * The rules that used to be written three times live here once:
 * - augmentation of the training batches is on by default for emoji only (`augmentsByDefault`: its test images are
 *   renderings by artists the model never trains on; docs/science.md, engine augment.ts);
 * - softmax outputs are recorded (`probs`, docs/science.md §3) when the config is the Forgetting lab's, with its
 *   calibration ratio and softmax.
 *
 * Types only from the engine (no tfjs): the UI may import this module without pulling the engine into its bundle.
 */
import { augmentsByDefault, trainingOptionsOf } from '../core/config/derived';
import type { ExperimentConfig } from '../core/config/schema';
import type { StrategyId } from './defaults';
import type { TrainRunConfig } from './types';

/** What varies from run to run of one experiment: the ordering, the strategy and the seed. */
export interface RunJob {
  tasks: readonly (readonly number[])[];
  strategy: string;
  seed: number;
}

/** The settings every run of an experiment shares: a TrainRunConfig without its job, strategy options per strategy. */
export type RunSettings = Omit<TrainRunConfig, 'tasks' | 'seed' | 'strategy' | 'strategyOptions'> & {
  strategyOptions?: Partial<Record<string, Record<string, number | string>>>;
};

/** The one augmentation rule lives with the config (core/config/derived.ts). */
export { augmentsByDefault };

/** The run settings of an experiment config (model, optimiser, epochs, head, augmentation, recorded outputs). */
export function runSettingsOf(config: ExperimentConfig): RunSettings {
  const t = trainingOptionsOf(config);
  return {
    model: t.model,
    lr: t.lr,
    beta1: t.beta1,
    beta2: t.beta2,
    epsilon: t.epsilon,
    batchSize: t.batchSize,
    epochs: t.epochs,
    firstTaskEpochs: t.firstTaskEpochs,
    head: t.head,
    ...(t.init ? { init: t.init } : {}),
    augment: t.augment,
    ...(t.probs ? { probs: t.probs } : {}),
    strategyOptions: Object.fromEntries(config.strategies.map((s) => [s.id, { ...(s.options as Record<string, number | string>) }])),
  };
}

/** One run: the shared settings and a job (fields left undefined in the settings take the engine's defaults). */
export function runConfigOf(settings: RunSettings, job: RunJob): TrainRunConfig {
  const { strategyOptions, ...rest } = settings;
  const options = strategyOptions?.[job.strategy];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) out[k] = structuredClone(v);
  return {
    ...out,
    strategy: job.strategy as StrategyId,
    ...(options ? { strategyOptions: { ...options } } : {}),
    tasks: job.tasks.map((t) => [...t]),
    seed: job.seed,
  } as TrainRunConfig;
}

/** The engine's run config for one job of an experiment: the function every lab trains with. */
export function trainRunConfigOf(config: ExperimentConfig, job: RunJob): TrainRunConfig {
  return runConfigOf(runSettingsOf(config), job);
}
