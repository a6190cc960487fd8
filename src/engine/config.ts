/**
 * A run's config with every default filled in and every value checked (defaults.ts lists them). The resolved
 * config is recorded in the result, and its JSON keys a checkpoint to the run it belongs to.
 */
import { resolveAugmentOptions } from './augment';
import { CALIBRATION_DEFAULTS, INIT_SCHEMES, MODEL_DEFAULTS, TRAINER_DEFAULTS } from './defaults';
import { resolveStrategyOptions } from './strategies/index';
import type { ResolvedTrainConfig, TrainRunConfig } from './types';

export class TrainConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrainConfigError';
  }
}

function positiveInt(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) throw new TrainConfigError(`${name} must be a positive whole number; got ${v}.`);
  return v;
}

function nonNegativeInt(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 0) throw new TrainConfigError(`${name} must be a whole number ≥ 0; got ${v}.`);
  return v;
}

function positive(name: string, v: number): number {
  if (!(Number.isFinite(v) && v > 0)) throw new TrainConfigError(`${name} must be a positive number; got ${v}.`);
  return v;
}

function outputUnitsOf(units: number, classes: number, head: 'seen' | 'all'): number {
  positiveInt('outputUnits', units);
  if (units < classes) throw new TrainConfigError(`outputUnits is ${units}, fewer than the run's ${classes} classes.`);
  if (head !== 'seen' && units > classes) throw new TrainConfigError('Output units beyond the classes need the "seen" head (they belong to no class).');
  return units;
}

export function resolveTrainConfig(config: TrainRunConfig): ResolvedTrainConfig {
  const tasks = config.tasks;
  if (!Array.isArray(tasks) || tasks.length === 0) throw new TrainConfigError('The ordering has no tasks.');
  const seen = new Set<number>();
  tasks.forEach((task, t) => {
    if (!Array.isArray(task) || task.length === 0) throw new TrainConfigError(`Task ${t} has no classes.`);
    for (const c of task) {
      if (!Number.isInteger(c) || c < 0) throw new TrainConfigError(`Task ${t} lists "${c}", which is not a class index.`);
      if (seen.has(c)) throw new TrainConfigError(`Class ${c} appears in more than one task.`);
      seen.add(c);
    }
  });
  if (!Number.isSafeInteger(config.seed)) throw new TrainConfigError(`The seed must be a whole number; got ${config.seed}.`);
  const m = config.model ?? { kind: 'mlp' };
  let model: ResolvedTrainConfig['model'];
  if (m.kind === 'mlp') {
    const hidden = m.hidden ?? MODEL_DEFAULTS.mlp.hidden;
    hidden.forEach((h, i) => positiveInt(`Hidden width ${i + 1}`, h));
    model = { kind: 'mlp', hidden: hidden.slice() };
  } else if (m.kind === 'cnn') {
    const filters = m.filters ?? MODEL_DEFAULTS.cnn.filters;
    if (filters.length !== 2) throw new TrainConfigError(`The CNN has two conv blocks: give 2 filter counts, got ${filters.length}.`);
    filters.forEach((f, i) => positiveInt(`Conv filters ${i + 1}`, f));
    model = { kind: 'cnn', filters: filters.slice(), dense: positiveInt('Dense width', m.dense ?? MODEL_DEFAULTS.cnn.dense) };
  } else if (m.kind === 'head') {
    const hidden = m.hidden ?? MODEL_DEFAULTS.head.hidden;
    if (hidden.length > 1)
      throw new TrainConfigError(`The head is linear or has one hidden layer; got ${hidden.length} hidden layers (use an MLP on pixels for more).`);
    hidden.forEach((h) => positiveInt("The head's hidden width", h));
    model = { kind: 'head', hidden: hidden.slice() };
  } else {
    throw new TrainConfigError(`Unknown model "${(m as { kind: string }).kind}": use mlp, cnn or head.`);
  }
  const epochs = nonNegativeInt('Epochs', config.epochs ?? TRAINER_DEFAULTS.epochs);
  const optimizer = config.optimizer ?? TRAINER_DEFAULTS.optimizer;
  if (optimizer !== 'adam' && optimizer !== 'sgd') throw new TrainConfigError(`optimizer must be "adam" or "sgd"; got ${String(optimizer)}.`);
  const head = config.head ?? TRAINER_DEFAULTS.head;
  if (head !== 'seen' && head !== 'all') throw new TrainConfigError(`head must be "seen" or "all"; got ${String(head)}.`);
  const init = config.init ?? TRAINER_DEFAULTS.init;
  if (!INIT_SCHEMES.includes(init)) throw new TrainConfigError(`init must be ${INIT_SCHEMES.map((s) => `"${s}"`).join(' or ')}; got ${String(init)}.`);
  let probs: ResolvedTrainConfig['probs'] = null;
  if (config.probs) {
    const ratio = config.probs.calibrationRatio ?? CALIBRATION_DEFAULTS.ratio;
    if (!(ratio >= 0 && ratio < 1)) throw new TrainConfigError(`The calibration ratio must be in [0, 1); got ${ratio}.`);
    const softmax = config.probs.softmax ?? CALIBRATION_DEFAULTS.softmax;
    if (softmax !== 'seen' && softmax !== 'all') throw new TrainConfigError(`probs.softmax must be "seen" or "all"; got ${String(softmax)}.`);
    probs = { calibrationRatio: ratio, softmax };
  }
  let augment: ResolvedTrainConfig['augment'];
  try {
    augment = resolveAugmentOptions(config.augment ?? TRAINER_DEFAULTS.augment);
  } catch (e) {
    throw new TrainConfigError((e as Error).message);
  }
  if (augment && model.kind === 'head')
    throw new TrainConfigError('Augmentation transforms pixels; a head trains on feature vectors, which cannot be augmented.');
  let strategyOptions: Record<string, number | string>;
  try {
    strategyOptions = resolveStrategyOptions(config.strategy, config.strategyOptions as never) as Record<string, number | string>;
  } catch (e) {
    throw new TrainConfigError((e as Error).message);
  }
  return {
    tasks: tasks.map((t) => t.slice().sort((a, b) => a - b)),
    seed: config.seed,
    strategy: config.strategy,
    strategyOptions,
    model,
    optimizer,
    lr: positive('The learning rate', config.lr ?? TRAINER_DEFAULTS.lr),
    beta1: config.beta1 ?? TRAINER_DEFAULTS.beta1,
    beta2: config.beta2 ?? TRAINER_DEFAULTS.beta2,
    epsilon: positive('Adam epsilon', config.epsilon ?? TRAINER_DEFAULTS.epsilon),
    batchSize: positiveInt('The batch size', config.batchSize ?? TRAINER_DEFAULTS.batchSize),
    epochs,
    firstTaskEpochs: nonNegativeInt('First-task epochs', config.firstTaskEpochs ?? epochs),
    evalBatchSize: positiveInt('The evaluation batch size', config.evalBatchSize ?? TRAINER_DEFAULTS.evalBatchSize),
    head,
    ...(config.outputUnits !== undefined ? { outputUnits: outputUnitsOf(config.outputUnits, seen.size, head) } : {}),
    // the default is left out: a run without the option resolves (and keys its checkpoints) as before it existed
    ...(init === 'pytorch' ? { init } : {}),
    probs,
    augment,
    progressEvery: positiveInt('progressEvery', config.progressEvery ?? TRAINER_DEFAULTS.progressEvery),
    yieldEveryMs: config.yieldEveryMs ?? TRAINER_DEFAULTS.yieldEveryMs,
  };
}
