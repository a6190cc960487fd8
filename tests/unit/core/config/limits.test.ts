/**
 * Every size a config can ask for has a bound this machine can serve, checked before work starts, with a message
 * that says the bound (the bounds and how they were measured: src/core/config/limits.ts).
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS, distributionSampleLimit, grouped, modelSize, sampledOrderingBytes } from '../../../../src/core/config/limits';
import {
  BUILTIN_DATASET_REFS,
  datasetHasImages,
  datasetImageShape,
  validateConfig,
  type ConfigIssue,
  type ModelConfig,
} from '../../../../src/core/config/schema';
import { decodeConfigFromHash } from '../../../../src/core/config/url-codec';
import { BUILTIN_DATASETS } from '../../../../src/data/registry';
import { paramInfo } from '../../../../src/engine/models';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const at = (errors: ConfigIssue[], path: string) => errors.filter((e) => e.path === path).map((e) => e.message);

/** CIFAR-100, classes 0–29 in 30 tasks of one class, a distribution sample of `sampleSize` orderings. */
const cifar30 = (sampleSize: number) => ({
  dataset: { id: 'cifar100' },
  classes: range(30),
  taskSizes: Array(30).fill(1),
  protocols: { distribution: { sampleSize } },
});

/** A custom list of 1000 class names in 1000 tasks of one class: the most memory per sampled ordering. */
const thousand = (sampleSize?: number) => ({
  dataset: { id: 'custom', classNames: range(1000).map((i) => `class ${i}`), images: null },
  classes: range(1000),
  taskSizes: Array(1000).fill(1),
  ...(sampleSize === undefined ? {} : { protocols: { distribution: { sampleSize } } }),
});

describe('the distribution sample is bounded (a valid link once crashed the tab)', () => {
  // The link of the issue, made by the build before the bound (sampleSize 10^7 was accepted up to 10^7): CIFAR-100,
  // 30 classes in 30 tasks. Its orderings worker grew past 5 GB and Chromium showed "Page crashed".
  const CRASHING_LINK =
    '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4cttdsDtjsztK2GtnrYm2Vnix5ceAnmJ4yeSnhp56eJnmYBdTCAAmUAC6x4JlKACWhlOGsAzKACds6dCAC-BgA4uAexMAsACIJGRQQ2sYExdrACMAVxNrAIA7KxAYKABbXwh4AGVrAC94FHcPavQvHxAzGABrEvKI1E4cLs6e7r7egf6hgd0vIA';

  it('the crashing link is refused, with the bound in its message', () => {
    const r = decodeConfigFromHash(CRASHING_LINK);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain(
      'protocols.distribution.sampleSize: At most 200 000 orderings can be sampled: each drawn ordering is kept in memory until the histogram of S is made ' +
        '(about 2.4 KB each for 30 classes in 30 tasks, so 10 000 000 would need 24 GB)',
    );
    expect(r.error).toMatch(/got 10000000\.$/);
  });

  it('the same experiment at the bound is accepted, one above it is not', () => {
    expect(validateConfig(cifar30(200_000)).errors).toEqual([]);
    expect(at(validateConfig(cifar30(200_001)).errors, 'protocols.distribution.sampleSize')).toEqual([
      expect.stringMatching(/^At most 200 000 orderings can be sampled: .* got 200001\.$/),
    ]);
  });

  it('with many classes and tasks the memory the sample keeps sets a lower bound, said in the message', () => {
    const limit = distributionSampleLimit(1000, 1000);
    expect(limit).toBe(Math.floor(CONFIG_LIMITS.distributionSampleBytes / sampledOrderingBytes(1000, 1000)));
    expect(limit).toBeLessThan(CONFIG_LIMITS.distributionSample);
    // the v1 fill-in (20 000) stays valid for every experiment a config can describe (≤ 1000 classes)
    expect(limit).toBeGreaterThanOrEqual(20_000);
    expect(validateConfig(thousand()).errors).toEqual([]);
    expect(validateConfig(thousand(limit)).errors).toEqual([]);
    expect(at(validateConfig(thousand(limit + 1)).errors, 'protocols.distribution.sampleSize')).toEqual([
      `At most ${grouped(limit)} orderings can be sampled for 1000 classes in 1000 tasks: each drawn ordering is kept in memory until the histogram of S is made ` +
        `(about 72 KB each), and the sample must stay within 1.5 GB of the tab; got ${limit + 1}.`,
    ]);
  });

  it('the estimate per ordering is at or above what was measured (limits.ts header)', () => {
    const measured: [number, number, number][] = [
      [30, 30, 2087],
      [30, 3, 578],
      [100, 10, 1481],
      [100, 100, 6783],
      [1000, 10, 8759],
      [1000, 1000, 66_457],
    ];
    for (const [n, k, bytes] of measured) {
      expect(sampledOrderingBytes(n, k)).toBeGreaterThanOrEqual(bytes);
      expect(sampledOrderingBytes(n, k)).toBeLessThan(1.25 * bytes); // and not so far above that it refuses what runs
    }
  });
});

describe('the other sizes', () => {
  const errorsAt = (input: unknown, path: string) => at(validateConfig(input).errors, path);

  it('protocols: MS draws and the exact limit', () => {
    expect(errorsAt({ protocols: { msSamples: CONFIG_LIMITS.msSamples } }, 'protocols.msSamples')).toEqual([]);
    expect(errorsAt({ protocols: { msSamples: CONFIG_LIMITS.msSamples + 1 } }, 'protocols.msSamples')).toEqual([
      'Must be a whole number from 1 to 1000000; got 1000001.',
    ]);
    expect(errorsAt({ protocols: { exactLimit: CONFIG_LIMITS.exactLimit + 1 } }, 'protocols.exactLimit')).toEqual([
      'Must be a whole number from 1 to 100000000; got 100000001.',
    ]);
  });

  it('the Ground-truth budget, and the runs it trains (orderings × strategies × seeds)', () => {
    const gt = (budget: number, strategies: number, seeds: number) => ({
      lab: 'ground-truth',
      dataset: { id: 'fashion-mnist' },
      classes: range(10),
      taskSizes: Array(10).fill(1), // |Ω| = 10! = 3 628 800
      groundTruth: { budget },
      strategies: [{ id: 'finetune' }, { id: 'ewc' }, { id: 'lwf' }].slice(0, strategies),
      seeds: range(seeds),
    });
    expect(validateConfig(gt(100_000, 2, 1)).errors).toEqual([]);
    expect(errorsAt(gt(100_001, 1, 1), 'groundTruth.budget')).toEqual(['Must be a whole number from 1 to 100000; got 100001.']);
    expect(errorsAt(gt(100_000, 3, 1), 'groundTruth.budget')).toEqual([
      'A ground truth trains at most 200 000 runs (orderings × strategies × seeds), each kept as a run record in the tab; ' +
        '100 000 orderings × 3 strategies × 1 seed asks for 300 000: lower the budget, or use fewer strategies or seeds.',
    ]);
    // when Ω is smaller than the budget, Ω is what is trained: 6 classes in 3 tasks have 90 orderings
    expect(validateConfig({ ...gt(100_000, 3, 100), classes: range(6), taskSizes: [2, 2, 2] }).errors).toEqual([]);
    // the Orderings lab trains nothing: the same settings are not its concern
    expect(validateConfig({ ...gt(100_000, 3, 1), lab: 'orderings' }).errors).toEqual([]);
  });

  it('the model must fit: weights', () => {
    const big = { lab: 'ground-truth', dataset: { id: 'emoji' }, classes: range(6), model: { kind: 'cnn', filters: [4096, 4096], dense: 4096 } };
    const { parameters } = modelSize({ kind: 'cnn', filters: [4096, 4096], dense: 4096 }, [32, 32, 3], 6);
    expect(parameters).toBeGreaterThan(1e9);
    expect(errorsAt(big, 'model')).toEqual([
      `A model can have at most 25 000 000 weights to train in the tab (training keeps the weights, their gradients, Adam's two moments and a strategy's copies); ` +
        `this CNN on 32×32×3 images with 6 outputs has ${grouped(parameters)}: use fewer or narrower layers.`,
    ]);
    // the defaults, and a wide MLP within the bound, are fine
    expect(validateConfig({ lab: 'ground-truth' }).errors).toEqual([]);
    expect(errorsAt({ lab: 'ground-truth', model: { kind: 'mlp', hidden: [2048, 2048, 2048, 2048] } }, 'model')).toEqual([]);
    expect(errorsAt({ lab: 'ground-truth', model: { kind: 'mlp', hidden: [4096, 4096] } }, 'model')).toEqual([]);
    expect(errorsAt({ lab: 'ground-truth', model: { kind: 'mlp', hidden: [4096, 4096, 4096] } }, 'model')).toHaveLength(1);
  });

  it('the model must fit: a training batch', () => {
    const cnn: ModelConfig = { kind: 'cnn', filters: [16, 32], dense: 128 };
    const { activations } = modelSize(cnn, [32, 32, 3], 6);
    const most = Math.floor(CONFIG_LIMITS.batchActivations / activations);
    const emoji = (batchSize: number) => ({ lab: 'forgetting', dataset: { id: 'emoji' }, classes: range(6), model: cnn, training: { batchSize } });
    expect(errorsAt(emoji(most), 'training.batchSize')).toEqual([]);
    expect(errorsAt(emoji(most + 1), 'training.batchSize')).toEqual([
      `A training batch can make at most 50 000 000 values on its way through the model (they and their gradients are kept for the backward pass); ` +
        `this model makes ${grouped(activations)} per 32×32×3 image, so the batch can have at most ${grouped(most)} images; got ${most + 1}.`,
    ]);
    expect(errorsAt(emoji(CONFIG_LIMITS.batchSize + 1), 'training.batchSize')).toEqual(['Must be a whole number from 1 to 65536; got 65537.']);
  });

  it('data and strategy sizes', () => {
    expect(errorsAt({ data: { trainPerClass: CONFIG_LIMITS.perClass + 1 } }, 'data.trainPerClass')).toEqual([
      'Must be a whole number from 1 to 1000000, or null (all); got 1000001.',
    ]);
    expect(errorsAt({ strategies: [{ id: 'replay', options: { memory: CONFIG_LIMITS.strategyExamples + 1 } }] }, 'strategies[0].options.memory')).toEqual([
      'Must be a whole number from 1 to 1000000; got 1000001.',
    ]);
  });
});

describe('the sizes mirror the code they bound', () => {
  it('image shapes: src/data/registry.ts', () => {
    for (const ds of BUILTIN_DATASETS) expect(datasetImageShape(ds.id)).toEqual(ds.shape);
    for (const id of BUILTIN_DATASET_REFS) expect(datasetImageShape(id) !== null).toBe(datasetHasImages(id));
  });

  it('model weights: src/engine/models.ts paramInfo', () => {
    const models: ModelConfig[] = [
      { kind: 'mlp', hidden: [256, 128] },
      { kind: 'mlp', hidden: [] },
      { kind: 'mlp', hidden: [4096, 7, 300] },
      { kind: 'cnn', filters: [16, 32], dense: 128 },
      { kind: 'cnn', filters: [5, 3], dense: 9 },
    ];
    for (const model of models)
      for (const ds of BUILTIN_DATASETS) {
        const spec = { ...model, inputShape: ds.shape, outputs: 7 } as Parameters<typeof paramInfo>[0];
        const engine = paramInfo(spec).reduce((sum, p) => sum + p.shape.reduce((a, b) => a * b, 1), 0);
        expect(modelSize(model, ds.shape, 7).parameters, `${JSON.stringify(model)} on ${ds.id}`).toBe(engine);
      }
  });
});
