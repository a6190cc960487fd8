/**
 * The Forgetting lab trains from the experiment config ("labs train from the experiment config, so every
 * lab's link, CLI and UI agree"; docs/science.md §3). Pure; tested in tests/unit/core/forgetting/from-config.test.ts.
 *
 * - `forgettingJobsOf(config)`: the runs a config stands for. With `forgetting.preset` set, the preset's runs on the
 *   config's dataset, images per class, seed and learning rate (setup.ts `presetJobs`); else one run with the
 *   config's ordering (`ui.selectedOrdering`, or the classes split by `taskSizes`), strategy, epochs, head and
 *   calibration ratio, at each of `forgetting.seeds` seeds (seeds[0], seeds[0] + 1, …; one when absent).
 * - `jobConfig(config, job)`: the config of one job (a preset's run changes a few settings: its calibration ratio,
 *   strategy, learning rate, ordering), so the engine's run config is `trainRunConfigOf(jobConfig(config, job), job)`
 *   (src/engine/run-config.ts), the same function the other labs and the CLI use.
 */
import { STRATEGY_OPTION_FILL, formatIssues, validateConfig, type ExperimentConfig } from '../config/schema';
import { forgettingLab } from '../labs/forgetting';
import type { ForgettingChange } from '../labs/forgetting/binding';
import { orderingKey } from '../orderings/key';
import { FORGETTING_CLASSES, configTasks, isForgettingDataset } from './lab-classes';
import { baseJob, presetDatasetOf, presetInfo, presetJobs, type ForgettingDataset, type ForgettingJob, type PresetId } from './setup';

/** The dataset a preset's runs are on (the paper presets fix it; the others use the chosen one). */
export function presetDataset(preset: PresetId, chosen: ForgettingDataset): ForgettingDataset {
  return presetDatasetOf(preset, chosen);
}

/**
 * The experiment a run of the tab's change trains (the lab entry's `apply`, every part in at once, the ordering
 * known), checked, or why there is none: a run is never trained on a setting other than the one shown.
 */
export function forgettingExperimentOf(
  config: ExperimentConfig,
  change: ForgettingChange,
): { config: ExperimentConfig; error: null } | { config: null; error: string } {
  if (!change.setup?.tasks) return { config: null, error: 'The ordering is not ready.' };
  const r = validateConfig(forgettingLab.apply(config, change));
  return r.errors.length === 0 ? { config: r.config, error: null } : { config: null, error: formatIssues(r.errors) };
}

/** What a config cannot train in this lab, or null (a dataset without images here, or not the lab's 10 classes). */
export function forgettingProblem(config: ExperimentConfig): string | null {
  if (config.dataset.id === 'custom' || !isForgettingDataset(config.dataset.id))
    return `The Forgetting lab trains digits, Fashion-MNIST or emoji; this experiment is on ${config.dataset.id === 'custom' ? 'custom classes' : config.dataset.id}.`;
  const classes = [...config.classes].sort((a, b) => a - b);
  if (classes.join(',') !== FORGETTING_CLASSES.join(',')) return 'The Forgetting lab trains the first 10 classes of its dataset.';
  if (config.model.kind !== 'mlp') return "The Forgetting lab trains the paper's MLP.";
  return null;
}

/**
 * The runs of a config. `edgeOrderings` (the EDGE preset's hard / easy / RS orderings, computed by the orderings
 * worker) are needed for that preset only; `orderingLabel` names a single run's ordering ("RS seed 0", …).
 */
export function forgettingJobsOf(
  config: ExperimentConfig,
  o: { edgeOrderings?: { label: string; tasks: number[][] }[]; orderingLabel?: string; label?: string } = {},
): ForgettingJob[] {
  const problem = forgettingProblem(config);
  if (problem) throw new RangeError(problem);
  const dataset = config.dataset.id as ForgettingDataset;
  const t = config.training;
  const seed = config.seeds[0] ?? 0;
  const data = { trainPerClass: config.data.trainPerClass, testPerClass: config.data.testPerClass };
  const preset = config.forgetting.preset;
  if (preset) {
    // a paper preset fixes its data, epochs and seeds (its regime); the others take the config's images per class
    const fixed = presetInfo(preset).regime !== undefined;
    return presetJobs(preset, { dataset: presetDataset(preset, dataset), lr: t.lr, seed, edgeOrderings: o.edgeOrderings, ...(fixed ? {} : data) });
  }
  const s = config.strategies.find((x) => x.id === 'finetune' || x.id === 'ewc') ?? { id: 'finetune' as const, options: {} };
  const ewc = s.id === 'ewc' ? (s.options as { mode: 'single' | 'multi'; lambda: number }) : null;
  const count = config.forgetting.seeds ?? 1;
  return Array.from({ length: count }, (_, k) =>
    baseJob(dataset, {
      ...(o.label ? { label: count > 1 ? `${o.label} · seed ${seed + k}` : o.label } : {}),
      tasks: configTasks(config),
      ...(o.orderingLabel ? { orderingLabel: o.orderingLabel } : {}),
      strategy: s.id,
      ...(ewc ? { ewcMode: ewc.mode, ewcLambda: ewc.lambda } : {}),
      lr: t.lr,
      firstTaskEpochs: t.firstTaskEpochs,
      epochs: t.epochs,
      calibrationRatio: config.conformal.calibrationRatio,
      head: t.head,
      hidden: config.model.kind === 'mlp' ? config.model.hidden.slice() : [256, 128],
      batchSize: t.batchSize,
      ...data,
      seed: seed + k,
    }),
  );
}

/** What determines a run's numbers (not its labels): two jobs with the same key train the same run. */
export function jobKey(j: ForgettingJob): string {
  return JSON.stringify({
    dataset: j.dataset,
    tasks: orderingKey(j.tasks),
    strategy: j.strategy,
    ewc: j.strategy === 'ewc' ? [j.ewcMode, j.ewcLambda] : null,
    lr: j.lr,
    epochs: [j.firstTaskEpochs, j.epochs],
    calibrationRatio: j.calibrationRatio,
    head: j.head,
    hidden: j.hidden,
    batchSize: j.batchSize,
    data: [j.trainPerClass, j.testPerClass],
    seed: j.seed,
  });
}

/**
 * The group the runs of a config are stored under: the preset (or "single") and a hash of the jobs' keys, so the
 * same setup finds its runs again (and trains only the missing ones), whatever α or score is shown.
 */
export function groupOf(preset: PresetId | null, jobs: readonly ForgettingJob[]): string {
  let h = 0x811c9dc5;
  const text = jobs.map(jobKey).join('\n');
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${preset ?? 'single'}-${h.toString(36)}`;
}

/** The config of one job: what the engine's run config is made from (src/engine/run-config.ts). */
export function jobConfig(config: ExperimentConfig, job: ForgettingJob): ExperimentConfig {
  const c = structuredClone(config);
  c.lab = 'forgetting';
  c.dataset = { id: job.dataset };
  c.classes = [...FORGETTING_CLASSES];
  c.taskSizes = job.tasks.map((x) => x.length);
  c.ui = { ...c.ui, selectedOrdering: orderingKey(job.tasks) };
  c.model = { kind: 'mlp', hidden: job.hidden.slice() };
  const prev = config.strategies.find((x) => x.id === 'ewc');
  const fisherSamples = prev?.id === 'ewc' ? prev.options.fisherSamples : STRATEGY_OPTION_FILL.ewc.fisherSamples;
  c.strategies =
    job.strategy === 'ewc' ? [{ id: 'ewc', options: { lambda: job.ewcLambda, mode: job.ewcMode, fisherSamples } }] : [{ id: 'finetune', options: {} }];
  c.training = { ...c.training, lr: job.lr, epochs: job.epochs, firstTaskEpochs: job.firstTaskEpochs, head: job.head, batchSize: job.batchSize };
  c.data = { trainPerClass: job.trainPerClass, testPerClass: job.testPerClass };
  c.seeds = [job.seed];
  c.conformal = { ...c.conformal, calibrationRatio: job.calibrationRatio, softmax: job.head };
  return c;
}
