import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  compactConfig,
  defaultConfig,
  experimentClassNames,
  protocolOptionsOf,
  validateConfig,
  type ConfigIssue,
  type ExperimentConfig,
} from '../../../../src/core/config/schema';

const paths = (errors: ConfigIssue[]) => errors.map((e) => e.path);

function errorsOf(input: unknown): ConfigIssue[] {
  return validateConfig(input).errors;
}

function expectError(input: unknown, path: string, message: RegExp) {
  const errors = errorsOf(input);
  const hit = errors.find((e) => e.path === path);
  expect(hit, `expected an error at ${path}, got ${JSON.stringify(errors)}`).toBeDefined();
  expect(hit!.message).toMatch(message);
}

/**
 * The frozen v1 fill-ins. Changing anything here changes what every existing v1 link means: do not edit this
 * literal to make a test pass — add fields additively, or make schema v2 (see schema.ts, compatibility rule).
 */
const FROZEN_V1_DEFAULT: ExperimentConfig = {
  version: 1,
  lab: 'orderings',
  dataset: { id: 'fashion-mnist' },
  classes: [0, 1, 2, 3, 4, 5],
  taskSizes: [2, 2, 2],
  similarity: { kind: 'wordnet', pins: {} },
  protocols: {
    enabled: ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'],
    rsSeeds: [0, 42, 1993],
    medianSeed: 0,
    msSamples: 200,
    msSeed: 0,
    exactLimit: 1_000_000,
    distribution: { sampleSize: 20_000, seed: 0 },
  },
  groundTruth: { budget: 500, sampleSeed: 0 },
  model: { kind: 'mlp', hidden: [256, 128] },
  strategies: [{ id: 'finetune', options: {} }],
  training: {
    epochs: 3,
    firstTaskEpochs: 3,
    lr: 1e-3,
    batchSize: 64,
    optimiser: { kind: 'adam', beta1: 0.9, beta2: 0.999, epsilon: 1e-8 },
    head: 'seen',
    init: 'he-glorot',
  },
  data: { trainPerClass: 300, testPerClass: 100 },
  seeds: [0],
  conformal: { alpha: 0.1, calibrationRatio: 0.1, score: 'aps', raps: { lambda: 0.01, kReg: 5 }, softmax: 'seen' },
  // added within v1 (additive): no preset, what every link before it meant
  forgetting: { preset: null },
  backend: { train: 'auto', embed: 'auto' },
  ui: { teaching: false, hiddenControls: [], selectedOrdering: null, accuracy: 'final' },
};

describe('defaultConfig', () => {
  it('is the Orderings page default and equals the frozen v1 fill-ins', () => {
    const d = defaultConfig();
    expect(d).toEqual(FROZEN_V1_DEFAULT);
    expect(experimentClassNames(d)).toEqual(['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal']);
    expect(validateConfig(d)).toEqual({ config: d, errors: [], warnings: [] });
  });

  it('returns a fresh object each time', () => {
    const a = defaultConfig();
    a.seeds.push(7);
    (a.protocols.rsSeeds as number[]).push(9);
    expect(defaultConfig()).toEqual(FROZEN_V1_DEFAULT);
  });

  it('maps to the protocol runner options', () => {
    expect(protocolOptionsOf(defaultConfig())).toEqual({
      protocols: ['rs', 'edge', 'edge+', 'exact', 'as', 'ms'],
      rsSeeds: [0, 42, 1993],
      medianSeed: 0,
      msSamples: 200,
      msSeed: 0,
      exactLimit: 1_000_000,
      distribution: { limit: 1_000_000, sampleSize: 20_000, seed: 0 },
    });
  });
});

describe('missing fields are filled from the v1 fill-ins', () => {
  it('an empty object is the default config', () => {
    expect(validateConfig({})).toEqual({ config: FROZEN_V1_DEFAULT, errors: [], warnings: [] });
  });

  it('fills inside partial sections', () => {
    const { config, errors } = validateConfig({ training: { lr: 0.01 }, protocols: { rsSeeds: [7] }, conformal: { raps: { kReg: 2 } } });
    expect(errors).toEqual([]);
    expect(config.training).toEqual({ ...FROZEN_V1_DEFAULT.training, lr: 0.01 });
    expect(config.protocols).toEqual({ ...FROZEN_V1_DEFAULT.protocols, rsSeeds: [7] });
    expect(config.conformal.raps).toEqual({ lambda: 0.01, kReg: 2 });
  });

  it('first-task epochs follow epochs unless given', () => {
    expect(validateConfig({ training: { epochs: 5 } }).config.training.firstTaskEpochs).toBe(5);
    expect(validateConfig({ training: { epochs: 3, firstTaskEpochs: 8 } }).config.training.firstTaskEpochs).toBe(8);
  });

  it('classes and task sizes follow the dataset', () => {
    const cifar = validateConfig({ dataset: { id: 'cifar100' } });
    expect(cifar.errors).toEqual([]);
    expect(cifar.config.classes).toEqual([0, 1, 2, 3, 4, 5]);
    expect(cifar.config.taskSizes).toEqual([2, 2, 2]);
    const custom = validateConfig({ dataset: { id: 'custom', classNames: ['apple', 'bicycle', 'tiger'] } });
    expect(custom.errors).toEqual([]);
    expect(custom.config.dataset).toEqual({ id: 'custom', classNames: ['apple', 'bicycle', 'tiger'], images: null });
    expect(custom.config.classes).toEqual([0, 1, 2]);
    expect(custom.config.taskSizes).toEqual([1, 1, 1]);
    expect(validateConfig({ classes: [0, 1, 2, 3, 4, 5, 6, 7, 8] }).config.taskSizes).toEqual([3, 3, 3]);
  });

  it('the pre-trained methods on frozen features take their fill-ins (additive within v1)', () => {
    const { config, errors } = validateConfig({ strategies: [{ id: 'simplecil' }, { id: 'ranpac', options: { projection: 500 } }, { id: 'fecam' }] });
    expect(errors).toEqual([]);
    expect(config.strategies).toEqual([
      { id: 'simplecil', options: { metric: 'cosine' } },
      { id: 'ranpac', options: { projection: 500, lambdaFrom: 'task' } },
      { id: 'fecam', options: { shrinkage: 1 } },
    ]);
  });

  it('a missing field inside a strategy takes the strategy default', () => {
    const { config, errors } = validateConfig({ strategies: [{ id: 'ewc', options: { lambda: 5 } }, { id: 'replay' }] });
    expect(errors).toEqual([]);
    expect(config.strategies).toEqual([
      { id: 'ewc', options: { lambda: 5, mode: 'multi', fisherSamples: 200 } },
      { id: 'replay', options: { memory: 200, selection: 'reservoir' } },
    ]);
  });

  it('a CLIP source fills model, precision, prompt and weights', () => {
    const { config, errors } = validateConfig({ similarity: { kind: 'clip' } });
    expect(errors).toEqual([]);
    expect(config.similarity).toEqual({ kind: 'clip', model: 'Xenova/clip-vit-base-patch32', dtype: 'q8', prompt: { kind: 'bare' }, weights: { kind: 'hub' } });
  });
});

describe('validation: every field is checked', () => {
  it('rejects a non-object', () => {
    for (const bad of [null, 3, 'x', [], true]) {
      const r = validateConfig(bad);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0].path).toBe('');
      expect(r.errors[0].message).toMatch(/must be a JSON object/);
      expect(r.config).toEqual(FROZEN_V1_DEFAULT);
    }
  });

  it('reports unknown fields, with a suggestion for typos', () => {
    expectError({ trainig: {} }, 'trainig', /Unknown setting "trainig".*Did you mean "training"\?/);
    expectError({ training: { epoch: 3 } }, 'training.epoch', /Did you mean "epochs"\?/);
    expectError({ ui: { teach: true } }, 'ui.teach', /Unknown setting/);
    expectError({ protocols: { distribution: { limit: 5 } } }, 'protocols.distribution.limit', /Unknown setting "limit"/);
    expectError({ strategies: [{ id: 'ewc', options: { lamda: 1 } }] }, 'strategies[0].options.lamda', /has no option "lamda".*Did you mean "lambda"\?/);
    expectError({ strategies: [{ id: 'finetune', options: { lr: 1 } }] }, 'strategies[0].options.lr', /finetune has no options/);
    expectError({ similarity: { kind: 'wordnet', model: 'x/y' } }, 'similarity.model', /Unknown setting/);
  });

  it('checks the version', () => {
    expectError({ version: 2 }, 'version', /^This config was made by a newer CIL Lab \(v2\); this version reads v1 configs\.$/);
    expectError({ version: '1' }, 'version', /Must be 1/);
    expect(errorsOf({ version: 1 })).toEqual([]);
  });

  it('seeds are distinct 32-bit unsigned integers', () => {
    expect(errorsOf({ seeds: [0, 4294967295] })).toEqual([]);
    expectError({ seeds: [-1] }, 'seeds[0]', /whole number from 0 to 4294967295; got -1/);
    expectError({ seeds: [4294967296] }, 'seeds[0]', /from 0 to 4294967295/);
    expectError({ seeds: [1.5] }, 'seeds[0]', /got 1\.5/);
    expectError({ seeds: ['3'] }, 'seeds[0]', /got "3"/);
    expectError({ seeds: [3, 3] }, 'seeds[1]', /Seed 3 appears twice/);
    expectError({ seeds: [] }, 'seeds', /from 1 to 100 entries; got 0/);
    expectError({ seeds: 0 }, 'seeds', /Must be a list/);
    expectError({ protocols: { rsSeeds: [0, 2 ** 32] } }, 'protocols.rsSeeds[1]', /from 0 to 4294967295/);
    expectError({ protocols: { medianSeed: -3 } }, 'protocols.medianSeed', /seed must be/);
    expectError({ protocols: { msSeed: NaN } }, 'protocols.msSeed', /got NaN/);
    expectError({ protocols: { distribution: { seed: 1e10 } } }, 'protocols.distribution.seed', /seed must be/);
    expectError({ groundTruth: { sampleSeed: 0.5 } }, 'groundTruth.sampleSeed', /seed must be/);
  });

  it('RS needs a seed only when enabled', () => {
    expectError({ protocols: { rsSeeds: [] } }, 'protocols.rsSeeds', /RS is enabled: give at least one RS seed/);
    expect(errorsOf({ protocols: { enabled: ['edge'], rsSeeds: [] } })).toEqual([]);
  });

  it('protocols: known ids, each once, normalised to the canonical order', () => {
    expect(validateConfig({ protocols: { enabled: ['ms', 'rs', 'edge'] } }).config.protocols.enabled).toEqual(['rs', 'edge', 'ms']);
    expectError({ protocols: { enabled: ['rs', 'EDGE'] } }, 'protocols.enabled[1]', /Must be one of/);
    expectError({ protocols: { enabled: ['rs', 'rs'] } }, 'protocols.enabled[1]', /listed twice/);
    expectError({ protocols: { msSamples: 0 } }, 'protocols.msSamples', /from 1 to/);
    expectError({ protocols: { exactLimit: 1e9 } }, 'protocols.exactLimit', /from 1 to 100000000/);
  });

  it('dataset: built-in id or custom with class names', () => {
    expectError({ dataset: { id: 'cifar-100' } }, 'dataset.id', /Did you mean "cifar100"\?/);
    expectError({ dataset: 'fashion-mnist' }, 'dataset', /Must be an object/);
    expectError({ dataset: { id: 'digits', classNames: ['a', 'b'] } }, 'dataset.classNames', /Only a custom dataset/);
    expectError({ dataset: { id: 'custom' } }, 'dataset.classNames', /Missing: a custom dataset lists its class names/);
    expectError({ dataset: { id: 'custom', classNames: ['cat', 'Cat'] } }, 'dataset.classNames', /"Cat" appears twice/);
    expectError({ dataset: { id: 'custom', classNames: ['cat', ' '] } }, 'dataset.classNames', /Class 2 has an empty name/);
    expectError({ dataset: { id: 'custom', classNames: ['cat'] } }, 'dataset.classNames', /from 2 to 1000 entries/);
    expectError({ dataset: { id: 'custom', classNames: ['cat', 3] } }, 'dataset.classNames[1]', /must be text/);
  });

  it('classes: distinct indices into the dataset, at least two; normalised ascending', () => {
    expect(validateConfig({ classes: [5, 0, 3, 1, 4, 2] }).config.classes).toEqual([0, 1, 2, 3, 4, 5]);
    expectError({ classes: [0, 10], taskSizes: [1, 1] }, 'classes[1]', /Class 10 does not exist: the dataset has classes 0\.\.9/);
    expectError({ classes: [0, 0, 1], taskSizes: [3] }, 'classes[1]', /selected twice/);
    expectError({ classes: [0], taskSizes: [1] }, 'classes', /from 2 to 1000 entries/);
    expectError({ classes: [0, -1], taskSizes: [2] }, 'classes[1]', /index in the dataset's class list/);
    expectError({ classes: [0, 'a'], taskSizes: [2] }, 'classes[1]', /index/);
  });

  it('task sizes: positive whole numbers summing to the class count', () => {
    expect(errorsOf({ taskSizes: [3, 1, 2] })).toEqual([]);
    expectError({ taskSizes: [2, 2] }, 'taskSizes', /Task sizes 2,2 sum to 4, but 6 classes are selected: they must sum to 6/);
    expectError({ taskSizes: [0, 6] }, 'taskSizes[0]', /Task 1 has size 0/);
    expectError({ taskSizes: [2.5, 3.5] }, 'taskSizes[0]', /whole number/);
    expectError({ taskSizes: [] }, 'taskSizes', /from 1 to/);
    expectError({ classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }, 'taskSizes', /10 classes do not split into 3 equal tasks, so give the task sizes/);
  });

  it('an invalid dataset does not cascade into class and task errors', () => {
    expect(paths(errorsOf({ dataset: { id: 'nope' }, classes: [0, 50], taskSizes: [2] }))).toEqual(['dataset.id']);
  });

  it('similarity sources', () => {
    expectError({ similarity: { kind: 'glove' } }, 'similarity.kind', /"wordnet", "clip", "upload"/);
    expectError({ similarity: { kind: 'wordnet', pins: { dog: 'dog.n.01' } } }, 'similarity.pins.dog', /synset id/);
    expect(errorsOf({ similarity: { kind: 'wordnet', pins: { 'T-shirt/top': 'n04370456' } } })).toEqual([]);
    expectError({ similarity: { kind: 'clip', model: 'not a model' } }, 'similarity.model', /model id like/);
    expectError({ similarity: { kind: 'clip', dtype: 'fp16' } }, 'similarity.dtype', /"q8", "fp32"/);
    expectError(
      { similarity: { kind: 'clip', prompt: { kind: 'template', template: 'a photo of a' } } },
      'similarity.prompt.template',
      /has no \{\} where the class name goes/,
    );
    expectError({ similarity: { kind: 'clip', prompt: { kind: 'template', template: 'a {} {}' } } }, 'similarity.prompt.template', /has 2 \{\}/);
    expectError({ similarity: { kind: 'clip', prompt: { kind: 'template' } } }, 'similarity.prompt.template', /Missing/);
    expectError(
      { similarity: { kind: 'clip', prompt: { kind: 'descriptions', descriptions: { cat: 3 } } } },
      'similarity.prompt.descriptions.cat',
      /must be text/,
    );
    expectError({ similarity: { kind: 'clip', prompt: { kind: 'bare', underscores: 'drop' } } }, 'similarity.prompt.underscores', /"keep", "space"/);
    expectError({ similarity: { kind: 'clip', weights: { kind: 'mirror', url: 'ftp://x' } } }, 'similarity.weights.url', /http\(s\) URL/);
    expectError({ similarity: { kind: 'clip', weights: { kind: 'self-hosted' } } }, 'similarity.weights.path', /folder/);
    expectError({ similarity: { kind: 'upload' } }, 'similarity.file', /Missing: which uploaded file/);
    expectError({ similarity: { kind: 'upload', file: { name: 'sim.csv', contentHash: 'abc' } } }, 'similarity.file.contentHash', /content hash/);
  });

  it('prompts are normalised: a rule equal to its kind default is dropped', () => {
    const prompt = (p: unknown) => {
      const sim = validateConfig({ similarity: { kind: 'clip', prompt: p } }).config.similarity;
      return sim.kind === 'clip' ? sim.prompt : undefined;
    };
    expect(prompt({ kind: 'bare', underscores: 'keep' })).toEqual({ kind: 'bare' });
    expect(prompt({ kind: 'bare', underscores: 'space' })).toEqual({ kind: 'bare', underscores: 'space' });
    expect(prompt({ kind: 'template', template: '  a photo of a {} ', underscores: 'space' })).toEqual({ kind: 'template', template: 'a photo of a {}' });
    expect(prompt({ kind: 'descriptions', descriptions: { cat: 'a cat' }, underscores: 'keep' })).toEqual({
      kind: 'descriptions',
      descriptions: { cat: 'a cat' },
    });
    expect(prompt({ kind: 'descriptions', descriptions: {}, template: 'a {}', underscores: 'keep' })).toEqual({
      kind: 'descriptions',
      descriptions: {},
      template: 'a {}',
      underscores: 'keep',
    });
  });

  it('an uploaded file is referenced by name and hash, and must be uploaded again', () => {
    const file = { name: 'sim.csv', contentHash: 'fnv1a64:0123456789abcdef' };
    const r = validateConfig({ similarity: { kind: 'upload', file } });
    expect(r.errors).toEqual([]);
    expect(r.config.similarity).toEqual({ kind: 'upload', file });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0].path).toBe('similarity.file');
    expect(r.warnings[0].message).toMatch(/"sim\.csv".*never carries a file's contents: provide that file again/);
    expectError({ similarity: { kind: 'upload', file: { ...file, bytes: [1, 2] } } }, 'similarity.file.bytes', /Unknown setting/);
  });

  it('model: MLP widths or the two-block CNN', () => {
    expect(validateConfig({ model: { kind: 'mlp', hidden: [] } }).config.model).toEqual({ kind: 'mlp', hidden: [] });
    expect(validateConfig({ model: { kind: 'cnn' } }).config.model).toEqual({ kind: 'cnn', filters: [16, 32], dense: 128 });
    expectError({ model: { kind: 'mlp', hidden: [0] } }, 'model.hidden[0]', /from 1 to 4096/);
    expectError({ model: { kind: 'mlp', hidden: [1, 2, 3, 4, 5, 6, 7, 8, 9] } }, 'model.hidden', /at most 8 entries/);
    expectError({ model: { kind: 'cnn', filters: [8, 16, 32] } }, 'model.filters', /exactly 2 entries/);
    expectError({ model: { kind: 'cnn', dense: 0 } }, 'model.dense', /from 1 to 4096/);
    expectError({ model: { kind: 'mlp', dense: 3 } }, 'model.dense', /Unknown setting/);
    expectError({ model: { kind: 'resnet' } }, 'model.kind', /"mlp", "cnn"/);
  });

  it('strategies: known ids, each once, with valid hyper-parameters', () => {
    expectError({ strategies: [] }, 'strategies', /from 1 to 13 entries/);
    expectError({ strategies: [{ id: 'ewcc' }] }, 'strategies[0].id', /Did you mean "ewc"\?/);
    expectError({ strategies: [{}] }, 'strategies[0].id', /Missing: which strategy/);
    expectError({ strategies: [{ id: 'ewc' }, { id: 'ewc' }] }, 'strategies[1].id', /listed twice/);
    expectError({ strategies: [{ id: 'ewc', options: { mode: 'both' } }] }, 'strategies[0].options.mode', /"single", "multi"/);
    expectError({ strategies: [{ id: 'ewc', options: { lambda: -1 } }] }, 'strategies[0].options.lambda', /\[0, 1000000000000\]/);
    expectError({ strategies: [{ id: 'replay', options: { memory: 0 } }] }, 'strategies[0].options.memory', /from 1 to/);
    expectError({ strategies: [{ id: 'replay', options: { memory: 10.5 } }] }, 'strategies[0].options.memory', /whole number/);
    expectError({ strategies: [{ id: 'lwf', options: { temperature: 0 } }] }, 'strategies[0].options.temperature', /\(0, 1000000\]/);
    expectError({ strategies: [{ id: 'agem', options: 3 }] }, 'strategies[0].options', /hyper-parameters/);
    expectError({ strategies: [{ id: 'ranpac', options: { projection: 10001 } }] }, 'strategies[0].options.projection', /from 0 to 10000/);
    expectError({ strategies: [{ id: 'ranpac', options: { lambdaFrom: 'all' } }] }, 'strategies[0].options.lambdaFrom', /"task", "seen"/);
    expectError({ strategies: [{ id: 'simplecil', options: { metric: 'cos' } }] }, 'strategies[0].options.metric', /"cosine", "euclidean"/);
    expectError({ strategies: [{ id: 'fecam', options: { shrinkage: -0.5 } }] }, 'strategies[0].options.shrinkage', /\[0, 1000000\]/);
  });

  it('training hyper-parameters', () => {
    expectError({ training: { epochs: 2.5 } }, 'training.epochs', /whole number from 0 to 1000; got 2\.5/);
    expectError({ training: { firstTaskEpochs: -1 } }, 'training.firstTaskEpochs', /from 0 to 1000/);
    expectError({ training: { lr: 0 } }, 'training.lr', /\(0, 10\]; got 0/);
    expectError({ training: { lr: 'fast' } }, 'training.lr', /got "fast"/);
    expectError({ training: { lr: Infinity } }, 'training.lr', /got Infinity/);
    expectError({ training: { batchSize: 0 } }, 'training.batchSize', /from 1 to 65536/);
    expectError({ training: { optimiser: { kind: 'sgd' } } }, 'training.optimiser.kind', /"adam"/);
    expectError({ training: { optimiser: { beta1: 1 } } }, 'training.optimiser.beta1', /\[0, 1\)/);
    expectError({ training: { optimiser: { epsilon: 0 } } }, 'training.optimiser.epsilon', /\(0, 1\]/);
    expectError({ training: { head: 'some' } }, 'training.head', /"seen", "all"/);
    expectError({ data: { trainPerClass: 0 } }, 'data.trainPerClass', /or null \(all\)/);
    expect(validateConfig({ data: { trainPerClass: null, testPerClass: null } }).config.data).toEqual({ trainPerClass: null, testPerClass: null });
  });

  it('conformal settings', () => {
    expectError({ conformal: { alpha: 0 } }, 'conformal.alpha', /\(0, 1\)/);
    expectError({ conformal: { alpha: 1 } }, 'conformal.alpha', /\(0, 1\)/);
    expectError({ conformal: { calibrationRatio: 1.2 } }, 'conformal.calibrationRatio', /\(0, 1\)/);
    expectError({ conformal: { score: 'thr' } }, 'conformal.score', /"aps", "lac", "raps"/);
    expectError({ conformal: { raps: { kReg: -1 } } }, 'conformal.raps.kReg', /from 0 to/);
  });

  it('the Forgetting preset: one of the presets, or null (one run)', () => {
    expect(validateConfig({ forgetting: { preset: 'ewc-variants' } }).config.forgetting).toEqual({ preset: 'ewc-variants' });
    expect(validateConfig({ forgetting: { preset: null } }).config.forgetting).toEqual({ preset: null });
    expect(validateConfig({ forgetting: {} }).config.forgetting).toEqual({ preset: null });
    expectError(
      { forgetting: { preset: 'grids' } },
      'forgetting.preset',
      /"digits", "fashion", "fashion-paper", "grid", "ewc-variants", "lr", "edge", or null.*Did you mean "grid"\?/,
    );
    expectError({ forgetting: { preset: 3 } }, 'forgetting.preset', /or null/);
    expectError({ forgetting: { presets: 'grid' } }, 'forgetting.presets', /Unknown setting.*Did you mean "preset"\?/);
    expect(compactConfig(validateConfig({ forgetting: { preset: null } }).config)).toEqual({});
    expect(compactConfig(validateConfig({ forgetting: { preset: 'lr' } }).config)).toEqual({ forgetting: { preset: 'lr' } });
  });

  it('backend and UI', () => {
    expectError({ backend: { train: 'gpu' } }, 'backend.train', /"auto", "webgpu", "webgl", "wasm", "cpu"/);
    expectError({ backend: { embed: 'webgl' } }, 'backend.embed', /"auto", "webgpu", "wasm", "cpu"/);
    expectError({ ui: { teaching: 'yes' } }, 'ui.teaching', /true or false/);
    expectError({ ui: { accuracy: 'mean' } }, 'ui.accuracy', /"final", "aia"/);
    expectError({ ui: { hiddenControls: ['Seeds'] } }, 'ui.hiddenControls[0]', /control id/);
    expect(validateConfig({ ui: { hiddenControls: ['seeds', 'dataset'] } }).config.ui.hiddenControls).toEqual(['dataset', 'seeds']);
  });

  it('the selected ordering must fit the classes and task sizes; it is normalised', () => {
    expect(validateConfig({ ui: { selectedOrdering: '3,0|5,1|4,2' } }).config.ui.selectedOrdering).toBe('0,3|1,5|2,4');
    expectError({ ui: { selectedOrdering: '0,1,2|3,4,5' } }, 'ui.selectedOrdering', /tasks of sizes 2,2,2/);
    expectError({ ui: { selectedOrdering: '0,1|2,3|4,9' } }, 'ui.selectedOrdering', /each selected class \(0,1,2,3,4,5\) once/);
    expectError({ ui: { selectedOrdering: '0,1|2,3|4,4' } }, 'ui.selectedOrdering', /once/);
    expectError({ ui: { selectedOrdering: 'a|b' } }, 'ui.selectedOrdering', /ordering key like/);
  });

  it('training labs need images', () => {
    expectError(
      { lab: 'ground-truth', dataset: { id: 'cifar100' } },
      'dataset',
      /"cifar100" has class names only; the Ground-truth lab trains models and needs images/,
    );
    expectError({ lab: 'forgetting', dataset: { id: 'custom', classNames: ['a', 'b'] } }, 'dataset', /Forgetting lab trains models, so it needs images/);
    expect(errorsOf({ lab: 'ground-truth', dataset: { id: 'digits' } })).toEqual([]);
    const withImages = validateConfig({
      lab: 'ground-truth',
      dataset: { id: 'custom', classNames: ['a', 'b'], images: { name: 'my.zip', contentHash: 'fnv1a64:0000000000000001' } },
      taskSizes: [1, 1],
    });
    expect(withImages.errors).toEqual([]);
    expect(withImages.warnings.map((w) => w.path)).toEqual(['dataset.images']);
    expectError({ lab: 'lecture' }, 'lab', /"orderings", "ground-truth", "forgetting"/);
  });

  it('the Forgetting lab must hold out at least one calibration image per class and leave one to train', () => {
    expectError({ lab: 'forgetting', data: { trainPerClass: 4 }, conformal: { calibrationRatio: 0.1 } }, 'conformal.calibrationRatio', /holds out 0/);
    expect(errorsOf({ lab: 'forgetting', data: { trainPerClass: 4 }, conformal: { calibrationRatio: 0.25 } })).toEqual([]);
  });

  it('an invalid field keeps its fill-in in the returned config', () => {
    const r = validateConfig({ training: { lr: -1, epochs: 5 } });
    expect(r.config.training.lr).toBe(1e-3);
    expect(r.config.training.epochs).toBe(5);
  });

  it('never throws on random JSON-like input', () => {
    let s = 12345;
    const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const keys = [
      'version',
      'lab',
      'dataset',
      'classes',
      'taskSizes',
      'similarity',
      'kind',
      'id',
      'seeds',
      'training',
      'epochs',
      'ui',
      'x',
      '__proto__',
      'constructor',
    ];
    const value = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.3) return [null, true, 0, -1, 1.5, 2 ** 40, 'a', '', 'clip', NaN][Math.floor(rnd() * 10)];
      if (r < 0.6) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 5) }, () => [keys[Math.floor(rnd() * keys.length)], value(depth + 1)]));
    };
    for (let i = 0; i < 2000; i++) {
      const v = value(0);
      expect(() => validateConfig(v)).not.toThrow();
    }
  });
});

describe('compactConfig', () => {
  const rich: unknown[] = [
    {},
    {
      lab: 'ground-truth',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      taskSizes: [5, 1, 1, 1, 1, 1],
      strategies: [{ id: 'ewc', options: { lambda: 500 } }, { id: 'replay' }],
    },
    { dataset: { id: 'custom', classNames: ['apple', 'bicycle', 'tiger', 'lion'] }, classes: [0, 2, 3], taskSizes: [1, 2] },
    {
      similarity: {
        kind: 'clip',
        dtype: 'fp32',
        prompt: { kind: 'descriptions', descriptions: { apple: 'a red fruit' }, template: 'a photo of a {}' },
        weights: { kind: 'mirror', url: 'https://hf-mirror.com/' },
      },
    },
    {
      model: { kind: 'cnn', dense: 64 },
      training: { epochs: 5, firstTaskEpochs: 5 },
      seeds: [0, 1, 2],
      ui: { teaching: true, selectedOrdering: '0,1|2,3|4,5' },
    },
  ];
  it('re-validates to the same config, and omits every field equal to its fill-in', () => {
    for (const input of rich) {
      const { config, errors } = validateConfig(input);
      expect(errors).toEqual([]);
      const compact = compactConfig(config);
      expect(validateConfig(compact).config).toEqual(config);
      expect(canonicalJson(compact).length).toBeLessThanOrEqual(canonicalJson(input).length);
    }
    expect(compactConfig(defaultConfig())).toEqual({});
    expect(compactConfig(validateConfig({ training: { epochs: 5, firstTaskEpochs: 5 } }).config)).toEqual({ training: { epochs: 5 } });
  });
});
