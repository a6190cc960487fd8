/**
 * The Ground-truth lab keys each stored run by what determines it (ordering, strategy and its
 * options, seed, training), not by the whole experiment, so adding a strategy keeps the stored runs of the others.
 * src/core/ground-truth/run-keys.ts groundTruthRunKeys and src/ui/ground-truth/run-store.ts.
 */
import { describe, expect, it } from 'vitest';
import { V1_FILL, defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { createMemoryResultsStore, type StoredRun } from '../../../src/services/results-store';
import { groundTruthRunHash, groundTruthRunKeys, groundTruthStrategyHash } from '../../../src/core/ground-truth/run-keys';
import { keyedRunStore } from '../../../src/ui/ground-truth/run-store';

function config(extra: Record<string, unknown> = {}): ExperimentConfig {
  const r = validateConfig({
    ...defaultConfig(),
    lab: 'ground-truth',
    dataset: { id: 'digits' },
    classes: [0, 1, 2, 3],
    taskSizes: [2, 2],
    strategies: [{ id: 'finetune', options: {} }],
    training: { ...V1_FILL.training, epochs: 1, firstTaskEpochs: 1 },
    ...extra,
  });
  expect(r.errors).toEqual([]);
  return r.config;
}

const both = (extra: Record<string, unknown> = {}) =>
  config({
    strategies: [
      { id: 'finetune', options: {} },
      { id: 'replay', options: { memory: 50 } },
    ],
    ...extra,
  });

function run(configHash: string, orderingKey: string, strategy: string, seed = 0, extra: Partial<StoredRun> = {}): StoredRun {
  return {
    configHash,
    orderingKey,
    tasks: [],
    strategy,
    seed,
    matrix: [[0.5]],
    untrained: [0],
    testCounts: [1],
    finalAccuracy: 0.5,
    aia: 0.5,
    backend: 'wasm',
    seconds: 1,
    createdAt: 1,
    ...extra,
  };
}

describe('groundTruthStrategyHash: what determines a run', () => {
  it('does not change with the other strategies, the budget, the sample seed, the RS seeds or the training seeds', () => {
    const h = groundTruthStrategyHash(config(), 'finetune');
    expect(groundTruthStrategyHash(both(), 'finetune')).toBe(h);
    expect(groundTruthStrategyHash(config({ groundTruth: { budget: 7, sampleSeed: 3 } }), 'finetune')).toBe(h);
    expect(groundTruthStrategyHash(config({ protocols: { ...V1_FILL.protocols, rsSeeds: [4, 5] } }), 'finetune')).toBe(h);
    expect(groundTruthStrategyHash(config({ seeds: [0, 1, 2] }), 'finetune')).toBe(h);
    // …while the experiment's key (the page's handle) does change with the strategy list
    expect(groundTruthRunHash(both())).not.toBe(groundTruthRunHash(config()));
  });

  it('changes with the strategy’s options, the training, the model, the data and the classes', () => {
    const h = groundTruthStrategyHash(both(), 'replay');
    expect(
      groundTruthStrategyHash(
        both({
          strategies: [
            { id: 'finetune', options: {} },
            { id: 'replay', options: { memory: 60 } },
          ],
        }),
        'replay',
      ),
    ).not.toBe(h);
    expect(groundTruthStrategyHash(both({ training: { ...V1_FILL.training, epochs: 2, firstTaskEpochs: 2 } }), 'replay')).not.toBe(h);
    expect(groundTruthStrategyHash(both({ model: { kind: 'mlp', hidden: [8] } }), 'replay')).not.toBe(h);
    expect(groundTruthStrategyHash(both({ data: { trainPerClass: 10, testPerClass: 5 } }), 'replay')).not.toBe(h);
    expect(groundTruthStrategyHash(both({ classes: [0, 1, 2, 4] }), 'replay')).not.toBe(h);
    expect(groundTruthStrategyHash(both(), 'finetune')).not.toBe(h);
  });
});

describe('keyedRunStore', () => {
  it('writes each run under its strategy’s key and reads them back under the experiment’s key after a strategy is added', async () => {
    const raw = createMemoryResultsStore();
    const store = keyedRunStore(raw);
    // (a budget off its default: else this one-strategy experiment's key happens to equal finetune's run key)
    const one = groundTruthRunKeys(config({ groundTruth: { budget: 20, sampleSeed: 0 } }));
    expect(one.experiment).not.toBe(one.strategies.finetune);
    store.register(one);
    await store.put(run(one.experiment, '0,1|2,3', 'finetune'));
    expect(await raw.getAll(one.experiment)).toEqual([]);
    expect((await raw.getAll(one.strategies.finetune)).map((r) => r.orderingKey)).toEqual(['0,1|2,3']);

    // replay added: a new experiment key, the finetune run still found (and handed out under the new key)
    const two = groundTruthRunKeys(both({ groundTruth: { budget: 20, sampleSeed: 0 } }));
    store.register(two);
    const runs = await store.getAll(two.experiment);
    expect(runs.map((r) => [r.orderingKey, r.strategy, r.configHash])).toEqual([['0,1|2,3', 'finetune', two.experiment]]);
    expect(await store.has(two.experiment, '0,1|2,3', 'finetune', 0)).toBe(true);
    expect(await store.has(two.experiment, '0,1|2,3', 'replay', 0)).toBe(false);
    await store.put(run(two.experiment, '0,1|2,3', 'replay'));
    expect(await store.count(two.experiment)).toBe(2);
    expect(await store.count(one.experiment)).toBe(1);
  });

  it('still reads runs stored under the experiment’s key before runs were keyed per run, the per-run key winning a tie', async () => {
    const raw = createMemoryResultsStore();
    const keys = groundTruthRunKeys(both());
    await raw.put(run(keys.experiment, '0,1|2,3', 'finetune', 0, { finalAccuracy: 0.1 }));
    await raw.put(run(keys.experiment, '0,2|1,3', 'replay', 0));
    const store = keyedRunStore(raw);
    store.register(keys);
    expect((await store.getAll(keys.experiment)).length).toBe(2);
    await store.put(run(keys.experiment, '0,1|2,3', 'finetune', 0, { finalAccuracy: 0.9 }));
    const runs = await store.getAll(keys.experiment);
    expect(runs.map((r) => [r.orderingKey, r.strategy, r.finalAccuracy])).toEqual([
      ['0,1|2,3', 'finetune', 0.9],
      ['0,2|1,3', 'replay', 0.5],
    ]);
    // delete: every key of the experiment
    await store.delete(keys.experiment);
    expect(await store.getAll(keys.experiment)).toEqual([]);
    expect(await raw.count(keys.strategies.finetune)).toBe(0);
  });

  it('keeps imported methods that are none of the strategies, and passes unregistered keys through', async () => {
    const raw = createMemoryResultsStore();
    const store = keyedRunStore(raw);
    const keys = groundTruthRunKeys(config());
    store.register(keys);
    await store.put(run(keys.experiment, '0,1|2,3', 'der', 0, { imported: true }));
    expect(await raw.count(keys.imported)).toBe(1);
    // the same training with another strategy list still shows the imported method
    const other = groundTruthRunKeys(both());
    store.register(other);
    expect((await store.getAll(other.experiment)).map((r) => r.strategy)).toEqual(['der']);
    await store.put(run('elsewhere', 'x', 'finetune'));
    expect(await raw.count('elsewhere')).toBe(1);
    expect(store.persistent).toBe(false);
  });
});
