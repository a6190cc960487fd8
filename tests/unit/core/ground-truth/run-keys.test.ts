/**
 * The keys the Ground-truth lab stores its runs under (src/core/ground-truth/run-keys.ts): what the lab trains, not
 * what other labs show; the keys of runs stored before stay; two feature sources never share a key.
 */
import { describe, expect, it } from 'vitest';
import { V1_FILL, defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import { configHash } from '../../../../src/core/config/url-codec';
import { groundTruthRunHash, groundTruthRunKeys, groundTruthStrategyHash } from '../../../../src/core/ground-truth/run-keys';
import { editedGroundTruth as edited } from './edited-experiment';

const valid = (c: unknown) => {
  const r = validateConfig(c);
  expect(r.errors).toEqual([]);
  return r.config;
};

describe('Ground-truth run keys', () => {
  it('the stored runs key: what the lab trains, not what other labs show', () => {
    const c = edited();
    const h = groundTruthRunHash(c);
    expect(groundTruthRunHash({ ...c, lab: 'orderings' })).toBe(h);
    expect(groundTruthRunHash({ ...c, protocols: { ...c.protocols, enabled: ['rs'], msSamples: 10 } })).toBe(h);
    expect(groundTruthRunHash({ ...c, conformal: { ...c.conformal, alpha: 0.2 } })).toBe(h);
    // a field this lab does not read (another lab's, or one added later) does not count either
    expect(groundTruthRunHash({ ...c, someOtherLab: { preset: 'x' } } as ExperimentConfig)).toBe(h);
    expect(groundTruthRunHash({ ...c, ui: { ...c.ui, teaching: true, accuracy: 'final' }, backend: { train: 'cpu', embed: 'wasm' } })).toBe(h);
    expect(groundTruthRunHash({ ...c, strategies: [...c.strategies].reverse() })).toBe(h);
    expect(groundTruthRunHash({ ...c, protocols: { ...c.protocols, rsSeeds: [7] } })).not.toBe(h);
    expect(groundTruthRunHash({ ...c, protocols: { ...c.protocols, medianSeed: 1 } })).not.toBe(h);
    expect(groundTruthRunHash({ ...c, similarity: { kind: 'wordnet', pins: { zero: 'n13742358' } } })).not.toBe(h);
    expect(groundTruthRunHash({ ...c, strategies: [c.strategies[0], { id: 'replay', options: { memory: 51, selection: 'herding' } }] })).not.toBe(h);
    expect(groundTruthRunHash({ ...c, training: { ...c.training, epochs: 3 } })).not.toBe(h);
  });

  it('the default experiment keeps the key runs were stored under before the lab read the share link', () => {
    // what the Ground-truth page built on its own before (runs stored then are found now)
    const before = validateConfig({
      version: 1,
      lab: 'ground-truth',
      dataset: { id: 'fashion-mnist' },
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 2, 2],
      similarity: { kind: 'wordnet', pins: {} },
      protocols: { ...V1_FILL.protocols },
      groundTruth: { budget: 500, sampleSeed: 0 },
      model: { kind: 'mlp', hidden: [256, 128] },
      strategies: [{ id: 'finetune' }],
      training: { ...V1_FILL.training, epochs: 3, firstTaskEpochs: 3, lr: 1e-3, batchSize: 64 },
      data: { trainPerClass: 300, testPerClass: 100 },
      seeds: [0],
      backend: { train: 'auto', embed: 'auto' },
      ui: { ...V1_FILL.ui },
    }).config;
    expect(groundTruthRunHash(defaultConfig())).toBe(configHash(before));
  });

  it('runs on two feature sources never share a key; pixels keep the keys stored before the features section', () => {
    const c = defaultConfig();
    const pixels = groundTruthStrategyHash(c, 'finetune');
    // the same experiment with features: pixels spelled out is pixels (the section is absent, the key unchanged)
    expect(groundTruthStrategyHash(valid({ ...c, features: { source: 'pixels' } }), 'finetune')).toBe(pixels);
    const head = { kind: 'head', hidden: [] } as ExperimentConfig['model'];
    const b0 = valid({ ...c, lab: 'ground-truth', features: { source: 'backbone', seed: 0 }, model: head });
    const b1 = valid({ ...c, lab: 'ground-truth', features: { source: 'backbone', seed: 1 }, model: head });
    const keys = [pixels, groundTruthStrategyHash(b0, 'finetune'), groundTruthStrategyHash(b1, 'finetune')];
    expect(new Set(keys).size).toBe(3);
    expect(new Set([groundTruthRunHash(c), groundTruthRunHash(b0), groundTruthRunHash(b1)]).size).toBe(3);
    // the pre-trained methods' keys: per method, and by source
    const ptm = valid({ ...b0, strategies: [{ id: 'finetune' }, { id: 'simplecil' }, { id: 'ranpac' }] });
    const k = groundTruthRunKeys(ptm).strategies;
    expect(k.finetune).toBe(groundTruthStrategyHash(b0, 'finetune'));
    expect(new Set([k.finetune, k.simplecil, k.ranpac]).size).toBe(3);
  });
});
