/** A Ground-truth experiment edited in every control the lab has, checked: the binding's and the run keys' tests share it. */
import { expect } from 'vitest';
import { V1_FILL, defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';

export function editedGroundTruth(): ExperimentConfig {
  const r = validateConfig({
    ...defaultConfig(),
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 4],
    taskSizes: [2, 2],
    strategies: [
      { id: 'finetune', options: {} },
      { id: 'replay', options: { memory: 50, selection: 'herding' } },
    ],
    seeds: [0, 1],
    groundTruth: { budget: 20, sampleSeed: 3 },
    model: { kind: 'mlp', hidden: [64] },
    training: { ...V1_FILL.training, epochs: 2, firstTaskEpochs: 2, lr: 0.01, batchSize: 32 },
    data: { trainPerClass: 80, testPerClass: 30 },
    protocols: { ...V1_FILL.protocols, rsSeeds: [7, 11] },
    backend: { train: 'wasm', embed: 'auto' },
    ui: { ...V1_FILL.ui, accuracy: 'aia', selectedOrdering: '0,4|1,2' },
  });
  expect(r.errors).toEqual([]);
  return r.config;
}
