/**
 * The sections of the labs that train (Ground-truth, Forgetting): the model, the strategies with their
 * hyper-parameters, the training loop, how much data, and the training seeds (docs/science.md appendix A).
 */
import { Checker, isPlainObject, join, list, show, suggestion } from '../checker';
import { CONFIG_STRATEGY_IDS, STRATEGY_OPTION_FILL, V1_FILL, datasetImageShape } from '../defaults';
import { CONFIG_LIMITS, grouped, modelSize } from '../limits';
import { isPtmStrategyId, PTM_LIMITS, PTM_OPTIONAL } from '../../ptm/defaults';
import type { DataConfig, ExperimentConfig, ModelConfig, ConfigStrategyId, StrategySetting, TrainingConfig } from '../types';
import type { Checked } from './section';
import type { ConfigSection } from './section';

/** How each strategy option is checked (the engine's rules in strategies/index.ts, plus T > 0). */
const OPTION_RULES: Record<string, { int?: boolean; min: number; max: number; exclusiveMin?: boolean; choices?: readonly string[] }> = {
  lambda: { min: 0, max: 1e12 },
  mode: { min: 0, max: 0, choices: ['single', 'multi'] },
  fisherSamples: { int: true, min: 1, max: CONFIG_LIMITS.strategyExamples },
  alpha: { min: 0, max: 1e6 },
  temperature: { min: 0, max: 1e6, exclusiveMin: true },
  c: { min: 0, max: 1e12 },
  xi: { min: 0, max: 1e6 },
  memory: { int: true, min: 1, max: CONFIG_LIMITS.strategyExamples },
  selection: { min: 0, max: 0, choices: ['reservoir', 'herding'] },
  distillWeight: { min: 0, max: 1e6 },
  sampleSize: { int: true, min: 1, max: CONFIG_LIMITS.strategyExamples },
  // the pre-trained methods on frozen features (src/core/ptm/defaults.ts)
  metric: { min: 0, max: 0, choices: ['cosine', 'euclidean'] },
  projection: { int: true, min: 0, max: PTM_LIMITS.projection },
  lambdaFrom: { min: 0, max: 0, choices: ['task', 'seen'] },
  shrinkage: { min: 0, max: PTM_LIMITS.shrinkage },
  firstSession: { int: true, min: 0, max: PTM_LIMITS.firstSession },
};

function modelOf(c: Checker, v: unknown): ModelConfig {
  const fill = (): ModelConfig => ({ kind: 'mlp', hidden: [256, 128] });
  if (v === undefined) return fill();
  if (!isPlainObject(v)) {
    c.error('model', `Must be a model ({"kind": "mlp", "hidden": […]}, {"kind": "cnn", …} or {"kind": "head", "hidden": […]}); got ${show(v)}.`);
    return fill();
  }
  const kind = c.choice(v.kind, 'model.kind', ['mlp', 'cnn', 'head'] as const, 'mlp');
  const widths = (x: unknown, path: string, min: number, max: number, fillW: readonly number[]): number[] => {
    if (x === undefined) return fillW.slice();
    const arr = c.array(x, path, min, max);
    if (!arr) return fillW.slice();
    const before = c.errors.length;
    arr.forEach((w, i) => c.int(w, join(path, i), 1, CONFIG_LIMITS.width, 1));
    return c.errors.length === before ? (arr as number[]).slice() : fillW.slice();
  };
  if (kind === 'mlp') {
    c.object(v, 'model', ['kind', 'hidden']);
    return { kind, hidden: widths(v.hidden, 'model.hidden', 0, CONFIG_LIMITS.hiddenLayers, [256, 128]) };
  }
  if (kind === 'head') {
    // over feature vectors (sections/features.ts): linear, or one hidden layer; fill-in linear
    c.object(v, 'model', ['kind', 'hidden']);
    const before = c.errors.length;
    const hidden = widths(v.hidden, 'model.hidden', 0, 1, []);
    if (c.errors.length === before && hidden.length === 1 && hidden[0] > CONFIG_LIMITS.headWidth)
      c.error('model.hidden[0]', `The head's hidden layer can have at most ${CONFIG_LIMITS.headWidth} units; got ${hidden[0]}.`);
    return { kind, hidden: c.errors.length === before ? hidden : [] };
  }
  c.object(v, 'model', ['kind', 'filters', 'dense']);
  const filters = widths(v.filters, 'model.filters', 2, 2, V1_FILL.cnn.filters) as [number, number];
  return { kind, filters, dense: c.int(v.dense, 'model.dense', 1, CONFIG_LIMITS.width, V1_FILL.cnn.dense) };
}

function strategiesOf(c: Checker, v: unknown): StrategySetting[] {
  const fill = (): StrategySetting[] => V1_FILL.strategies.map((s) => ({ id: s.id, options: { ...s.options } }) as StrategySetting);
  if (v === undefined) return fill();
  const arr = c.array(v, 'strategies', 1, CONFIG_STRATEGY_IDS.length);
  if (!arr) return fill();
  const before = c.errors.length;
  const seen = new Set<string>();
  const out: StrategySetting[] = [];
  arr.forEach((s, i) => {
    const path = `strategies[${i}]`;
    if (!isPlainObject(s)) {
      c.error(path, `Must be a strategy ({"id": "ewc", "options": {…}}); got ${show(s)}.`);
      return;
    }
    c.object(s, path, ['id', 'options']);
    if (typeof s.id !== 'string' || !(CONFIG_STRATEGY_IDS as string[]).includes(s.id)) {
      c.error(
        join(path, 'id'),
        s.id === undefined
          ? `Missing: which strategy (${list(CONFIG_STRATEGY_IDS)}).`
          : `Must be one of ${list(CONFIG_STRATEGY_IDS)}; got ${show(s.id)}.${typeof s.id === 'string' ? suggestion(s.id, CONFIG_STRATEGY_IDS) : ''}`,
      );
      return;
    }
    const id = s.id as ConfigStrategyId;
    if (seen.has(id)) {
      c.error(join(path, 'id'), `Strategy "${id}" is listed twice; each strategy appears once (results are stored per strategy).`);
      return;
    }
    seen.add(id);
    const defaults = STRATEGY_OPTION_FILL[id] as Record<string, number | string>;
    // options absent by default (core/ptm PTM_OPTIONAL): kept only when given and not at their "off" value
    const optional = (isPtmStrategyId(id) ? PTM_OPTIONAL[id] : {}) as Record<string, number>;
    const known = [...Object.keys(defaults), ...Object.keys(optional)];
    const opath = join(path, 'options');
    const given = s.options === undefined ? {} : s.options;
    if (!isPlainObject(given)) {
      c.error(opath, `Must be an object of ${id}'s hyper-parameters; got ${show(given)}.`);
      return;
    }
    const options: Record<string, number | string> = {};
    for (const key of Object.keys(given)) {
      if (!known.includes(key)) {
        c.error(
          join(opath, key),
          known.length ? `Strategy ${id} has no option "${key}"; it has ${list(known)}.${suggestion(key, known)}` : `Strategy ${id} has no options.`,
        );
      }
    }
    for (const key of known) {
      const rule = OPTION_RULES[key];
      const x = given[key];
      const p = join(opath, key);
      if (key in optional) {
        const value = c.int(x, p, rule.min, rule.max, optional[key]);
        if (value !== optional[key]) options[key] = value;
      } else if (rule.choices) options[key] = c.choice(x, p, rule.choices, defaults[key] as string);
      else if (rule.int) options[key] = c.int(x, p, rule.min, rule.max, defaults[key] as number);
      else options[key] = c.num(x, p, rule, defaults[key] as number);
    }
    out.push({ id, options } as StrategySetting);
  });
  return c.errors.length === before ? out : fill();
}

function trainingOf(c: Checker, v: unknown): TrainingConfig {
  const f = V1_FILL.training;
  const o = c.object(v, 'training', ['epochs', 'firstTaskEpochs', 'lr', 'batchSize', 'optimiser', 'head', 'init']);
  const epochs = c.int(o.epochs, 'training.epochs', 0, CONFIG_LIMITS.epochs, f.epochs);
  let optimiser: TrainingConfig['optimiser'] = { ...f.optimiser };
  if (o.optimiser !== undefined) {
    if (!isPlainObject(o.optimiser)) c.error('training.optimiser', `Must be an optimiser ({"kind": "adam", …}); got ${show(o.optimiser)}.`);
    else {
      const p = o.optimiser;
      c.object(p, 'training.optimiser', ['kind', 'beta1', 'beta2', 'epsilon']);
      optimiser = {
        kind: c.choice(p.kind, 'training.optimiser.kind', ['adam'] as const, 'adam'),
        beta1: c.num(p.beta1, 'training.optimiser.beta1', { min: 0, max: 1, exclusiveMax: true }, f.optimiser.beta1),
        beta2: c.num(p.beta2, 'training.optimiser.beta2', { min: 0, max: 1, exclusiveMax: true }, f.optimiser.beta2),
        epsilon: c.num(p.epsilon, 'training.optimiser.epsilon', { min: 0, max: 1, exclusiveMin: true }, f.optimiser.epsilon),
      };
    }
  }
  return {
    epochs,
    firstTaskEpochs: c.int(o.firstTaskEpochs, 'training.firstTaskEpochs', 0, CONFIG_LIMITS.epochs, epochs),
    lr: c.num(o.lr, 'training.lr', { min: 0, max: 10, exclusiveMin: true }, f.lr),
    batchSize: c.int(o.batchSize, 'training.batchSize', 1, CONFIG_LIMITS.batchSize, f.batchSize),
    optimiser,
    head: c.choice(o.head, 'training.head', ['seen', 'all'] as const, f.head),
    init: c.choice(o.init, 'training.init', ['he-glorot', 'pytorch'] as const, f.init),
  };
}

/**
 * The model's weights and a training batch's activations must fit in the tab (limits.ts). Checked in the labs that
 * train, on built-in image datasets (an uploaded dataset's image size is known only once it is loaded).
 */
function checkModelFits(c: Checker, { lab, dataset, classes, model, training, data }: ExperimentConfig, checked: Checked): void {
  // a head's size depends on the feature vectors' width, known once they are computed (the head's bound: headWidth)
  if (!checked.labs.training.includes(lab) || dataset.id === 'custom' || model.kind === 'head') return;
  const shape = datasetImageShape(dataset.id);
  if (!shape || !(['dataset', 'classes', 'model', 'training', 'data'] as const).every((k) => checked.clean(k))) return;
  const { parameters, activations } = modelSize(model, shape, classes.length);
  const image = `${shape[0]}×${shape[1]}×${shape[2]}`;
  if (parameters > CONFIG_LIMITS.parameters) {
    c.error(
      'model',
      `A model can have at most ${grouped(CONFIG_LIMITS.parameters)} weights to train in the tab (training keeps the weights, their gradients, Adam's two moments and a strategy's copies); ` +
        `this ${model.kind === 'mlp' ? 'MLP' : 'CNN'} on ${image} images with ${classes.length} outputs has ${grouped(parameters)}: use fewer or narrower layers.`,
    );
  }
  // A batch never holds more images than the experiment trains on (every class's, at most: joint training, replay).
  const images = data.trainPerClass === null ? training.batchSize : Math.min(training.batchSize, data.trainPerClass * classes.length);
  const values = images * activations;
  if (values > CONFIG_LIMITS.batchActivations) {
    c.error(
      'training.batchSize',
      `A training batch can make at most ${grouped(CONFIG_LIMITS.batchActivations)} values on its way through the model (they and their gradients are kept for the backward pass); ` +
        `this model makes ${grouped(activations)} per ${image} image, so the batch can have at most ${grouped(Math.floor(CONFIG_LIMITS.batchActivations / activations))} images; got ${training.batchSize}.`,
    );
  }
}

export const modelSection: ConfigSection<'model'> = { check: modelOf };
export const strategiesSection: ConfigSection<'strategies'> = { check: strategiesOf };
export const trainingSection: ConfigSection<'training'> = { check: trainingOf, crossCheck: checkModelFits };

export const dataSection: ConfigSection<'data'> = {
  check(c, v): DataConfig {
    const d = c.object(v, 'data', ['trainPerClass', 'testPerClass']);
    return {
      trainPerClass: c.intOrNull(d.trainPerClass, 'data.trainPerClass', 1, CONFIG_LIMITS.perClass, V1_FILL.data.trainPerClass),
      testPerClass: c.intOrNull(d.testPerClass, 'data.testPerClass', 1, CONFIG_LIMITS.perClass, V1_FILL.data.testPerClass),
    };
  },
};

export const seedsSection: ConfigSection<'seeds'> = {
  check: (c, v) => c.seeds(v, 'seeds', 1, CONFIG_LIMITS.seeds, V1_FILL.seeds),
};
