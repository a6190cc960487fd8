import { describe, expect, it } from 'vitest';
import { V1_FILL, canonicalJson, defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { configHash } from '../../../src/core/config/url-codec';
import { parseTaskSizes, resolveTaskSizes } from '../../../src/core/orderings/task-sizes';
import { CONFIG_STRATEGY_IDS, STRATEGY_IDS } from '../../../src/core/config/schema';
import {
  applyGroundTruthState,
  foldGroundTruthState,
  groundTruthRunHash,
  groundTruthRunKeys,
  groundTruthStrategyHash,
  inputsFromConfig,
  inputsKey,
  orderingProgress,
  wordnetPinsFor,
  wordnetPinsOf,
  type GroundTruthInputs,
  type GroundTruthState,
} from '../../../src/ui/ground-truth/page-config';
import { parseTrainingSeeds, parseWidths } from '../../../src/ui/ground-truth/page-inputs';
import { parseSeeds } from '../../../src/ui/orderings/page-inputs';

/** What the Ground-truth page resolves from its controls (mirrors GroundTruthPage.svelte's derived inputs). */
function stateOf(i: GroundTruthInputs, extra: Partial<GroundTruthState> = {}): GroundTruthState {
  const classes = [...i.selected].sort((a, b) => a - b);
  return {
    datasetId: i.foreignDataset ? null : i.datasetId,
    classes,
    taskSizes: resolveTaskSizes(classes.length, { tasks: i.tasks, taskSizes: i.sizesText ? parseTaskSizes(i.sizesText) : undefined }),
    strategies: CONFIG_STRATEGY_IDS.filter((id) => i.chosen[id]),
    features: i.features,
    firstSession: i.firstSession,
    budget: i.budget,
    sampleSeed: i.sampleSeed,
    seeds: parseTrainingSeeds(i.seedsText),
    rsSeeds: parseSeeds(i.rsSeedsText),
    hidden: i.hiddenText === null ? null : parseWidths(i.hiddenText),
    epochs: i.epochs,
    lr: i.lr,
    batchSize: i.batchSize,
    trainPerClass: i.trainPerClass,
    testPerClass: i.testPerClass,
    backend: i.backend,
    accuracy: i.accuracy,
    selectedOrdering: i.selectedOrdering,
    ...extra,
  };
}

const same = (a: ExperimentConfig, b: ExperimentConfig) => expect(canonicalJson(a)).toBe(canonicalJson(b));
const valid = (c: unknown) => {
  const r = validateConfig(c);
  expect(r.errors).toEqual([]);
  return r.config;
};

/** A Ground-truth experiment edited in every control the page has. */
function edited(): ExperimentConfig {
  return valid({
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
}

describe('Ground-truth page ⇄ config', () => {
  it('the default config gives the embedded default, and the page writes back exactly the default config', () => {
    const c = defaultConfig();
    const i = inputsFromConfig(c);
    expect(i).toMatchObject({
      datasetId: 'fashion-mnist',
      foreignDataset: null,
      selected: [0, 1, 2, 3, 4, 5],
      tasks: 3,
      sizesText: '',
      budget: 500,
      sampleSeed: 0,
    });
    expect(i).toMatchObject({
      seedsText: '0',
      rsSeedsText: '0, 42, 1993',
      hiddenText: '256, 128',
      epochs: 3,
      lr: 0.001,
      batchSize: 64,
      trainPerClass: 300,
      testPerClass: 100,
    });
    expect(i).toMatchObject({ backend: 'auto', accuracy: 'final', selectedOrdering: null });
    expect(STRATEGY_IDS.filter((id) => i.chosen[id])).toEqual(['finetune']);
    same(foldGroundTruthState(c, stateOf(i)), c);
    same(applyGroundTruthState(c, stateOf(i)), c);
  });

  it('round-trips an edited experiment: every control, strategy options and the chosen ordering', () => {
    const c = edited();
    const i = inputsFromConfig(c);
    expect(i).toMatchObject({
      datasetId: 'digits',
      selected: [0, 1, 2, 4],
      tasks: 2,
      sizesText: '',
      seedsText: '0, 1',
      rsSeedsText: '7, 11',
      hiddenText: '64',
    });
    expect(i).toMatchObject({
      epochs: 2,
      lr: 0.01,
      batchSize: 32,
      trainPerClass: 80,
      testPerClass: 30,
      backend: 'wasm',
      accuracy: 'aia',
      selectedOrdering: '0,4|1,2',
    });
    same(foldGroundTruthState(c, stateOf(i)), c);
    // onto another experiment (the default): everything the page shows moves over; a new strategy gets its defaults
    const onto = foldGroundTruthState(defaultConfig(), stateOf(i));
    same({ ...onto, lab: c.lab, strategies: c.strategies }, c);
    expect(onto.strategies).toEqual([
      { id: 'finetune', options: {} },
      { id: 'replay', options: { memory: 200, selection: 'reservoir' } },
    ]);
    expect(onto.lab).toBe('orderings'); // the tab decides the lab, not the page's inputs
  });

  it('unequal task sizes show as text; a strategy set in another order is kept as it is', () => {
    const c = valid({ ...edited(), classes: [0, 1, 2, 3, 4, 5], taskSizes: [3, 2, 1], ui: V1_FILL.ui });
    const i = inputsFromConfig(c);
    expect(i.sizesText).toBe('3,2,1');
    same(foldGroundTruthState(c, stateOf(i)), c);
    const reversed = valid({ ...c, strategies: [...c.strategies].reverse() });
    same(foldGroundTruthState(reversed, stateOf(inputsFromConfig(reversed))), reversed);
  });

  it('an invalid input leaves its part as it was; the valid parts are still written', () => {
    const c = defaultConfig();
    const s = stateOf(inputsFromConfig(c), { epochs: 2.5, seeds: null, hidden: null, taskSizes: null, classes: [0, 1], budget: 40 });
    const next = foldGroundTruthState(c, s);
    expect(next.training).toEqual(c.training);
    expect(next.seeds).toEqual(c.seeds);
    expect(next.model).toEqual(c.model);
    expect(next.classes).toEqual(c.classes);
    expect(next.groundTruth.budget).toBe(40);
    // the unvalidated application shows the error at the control's path
    expect(validateConfig(applyGroundTruthState(c, s)).errors.map((e) => e.path)).toContain('training.epochs');
  });

  it('a dataset without images (chosen in the Orderings lab) stays until the user picks one here', () => {
    const c = valid({ ...defaultConfig(), dataset: { id: 'cifar100' }, classes: [3, 7, 11, 20], taskSizes: [2, 2] });
    const i = inputsFromConfig(c);
    expect(i).toMatchObject({ foreignDataset: 'cifar100', datasetId: 'fashion-mnist', selected: [0, 1, 2, 3, 4, 5], selectedOrdering: null });
    const kept = foldGroundTruthState(c, stateOf(i, { epochs: 5 }));
    expect([kept.dataset, kept.classes, kept.taskSizes]).toEqual([c.dataset, c.classes, c.taskSizes]);
    expect(kept.training.epochs).toBe(5);
    // picking a dataset here writes it (and its classes and tasks)
    const picked = foldGroundTruthState(c, stateOf({ ...i, foreignDataset: null, datasetId: 'emoji' }));
    expect([picked.dataset, picked.classes, picked.taskSizes]).toEqual([{ id: 'emoji' }, [0, 1, 2, 3, 4, 5], [2, 2, 2]]);
    // custom class names without images are foreign too
    const custom = valid({
      ...defaultConfig(),
      dataset: { id: 'custom', classNames: ['a', 'b', 'c', 'd'], images: null },
      classes: [0, 1, 2, 3],
      taskSizes: [2, 2],
    });
    expect(inputsFromConfig(custom).foreignDataset).toBe('custom');
  });

  it('first-session adaptation: one width for SimpleCIL and RanPAC, absent when 0 (every earlier config keeps its key)', () => {
    const c = valid({
      ...defaultConfig(),
      features: { source: 'backbone', seed: 0 },
      model: { kind: 'head', hidden: [] },
      strategies: [{ id: 'finetune' }, { id: 'simplecil' }, { id: 'ranpac' }],
    });
    const i = inputsFromConfig(c);
    expect(i.firstSession).toBe(0);
    expect(c.strategies.find((x) => x.id === 'simplecil')!.options).toEqual({ metric: 'cosine' });
    const on = foldGroundTruthState(c, stateOf(i, { firstSession: 128 }));
    expect(on.strategies.map((x) => x.options)).toEqual([
      {},
      { metric: 'cosine', firstSession: 128 },
      { projection: 2000, lambdaFrom: 'task', firstSession: 128 },
    ]);
    expect(inputsFromConfig(on).firstSession).toBe(128);
    expect(groundTruthRunHash(on)).not.toBe(groundTruthRunHash(c));
    const off = foldGroundTruthState(on, stateOf(inputsFromConfig(on), { firstSession: 0 }));
    expect(off.strategies).toEqual(c.strategies);
    expect(groundTruthRunHash(off)).toBe(groundTruthRunHash(c));
    // a width above the bound is refused at the control's path, and the config keeps its value
    expect(validateConfig(applyGroundTruthState(on, stateOf(inputsFromConfig(on), { firstSession: 5000 }))).errors.map((e) => e.path)).toContain(
      'strategies[1].options.firstSession',
    );
  });

  it("a list of names trains on cached features: an encoder's (the Data tab's images) or an upload's", () => {
    const encoder = { source: 'encoder', model: 'Xenova/clip-vit-base-patch16', revision: 'main', precision: 'q8', weights: { kind: 'hub' } };
    const upload = { source: 'upload', file: { name: 'c100.npz', contentHash: 'fnv1a64:0000000000000001' } };
    for (const features of [encoder, upload]) {
      const c = valid({
        ...defaultConfig(),
        dataset: { id: 'cifar100' },
        classes: [3, 7, 11, 20],
        taskSizes: [2, 2],
        features,
        model: { kind: 'head', hidden: [] },
      });
      const i = inputsFromConfig(c);
      expect(i).toMatchObject({ foreignDataset: null, datasetId: 'cifar100', selected: [3, 7, 11, 20], tasks: 2 });
      const next = foldGroundTruthState(c, stateOf(i, { epochs: 4 }));
      expect([next.dataset, next.classes, next.taskSizes, next.features]).toEqual([c.dataset, c.classes, c.taskSizes, c.features]);
      expect(next.training.epochs).toBe(4);
    }
    // on the embedded backbone it needs images again: foreign, as on pixels
    const onBackbone = {
      ...defaultConfig(),
      dataset: { id: 'cifar100' },
      classes: [3, 7],
      taskSizes: [1, 1],
      features: { source: 'backbone', seed: 0 },
    } as never;
    expect(inputsFromConfig(onBackbone).foreignDataset).toBe('cifar100');
  });

  it('one "epochs per task" control: the first task follows it only while the config had them equal', () => {
    const linked = defaultConfig();
    expect(foldGroundTruthState(linked, stateOf(inputsFromConfig(linked), { epochs: 5 })).training).toMatchObject({ epochs: 5, firstTaskEpochs: 5 });
    const apart = valid({ ...defaultConfig(), training: { ...V1_FILL.training, epochs: 3, firstTaskEpochs: 8 } });
    expect(foldGroundTruthState(apart, stateOf(inputsFromConfig(apart), { epochs: 2 })).training).toMatchObject({ epochs: 2, firstTaskEpochs: 8 });
  });

  it('a CNN from a config file stays a CNN (the page has MLP widths only)', () => {
    const c = valid({ ...defaultConfig(), model: { kind: 'cnn', filters: [8, 16], dense: 32 } });
    const i = inputsFromConfig(c);
    expect(i.hiddenText).toBeNull();
    same(foldGroundTruthState(c, stateOf(i)), c);
  });

  it('the chosen ordering is written, and dropped when the classes or tasks change', () => {
    const c = defaultConfig();
    const chosen = foldGroundTruthState(c, stateOf(inputsFromConfig(c), { selectedOrdering: '0,1|2,3|4,5' }));
    expect(chosen.ui.selectedOrdering).toBe('0,1|2,3|4,5');
    const fewer = foldGroundTruthState(chosen, stateOf(inputsFromConfig(chosen), { classes: [0, 1, 2, 3], taskSizes: [2, 2] }));
    expect(fewer.classes).toEqual([0, 1, 2, 3]);
    expect(fewer.ui.selectedOrdering).toBeNull();
  });

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
    // what GroundTruthPage.svelte built on its own before (runs stored then are found now)
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

  it('the feature source: backbone brings the head and offers the pre-trained methods; pixels take them away', () => {
    const c = valid({ ...defaultConfig(), lab: 'ground-truth' });
    const i = inputsFromConfig(c);
    expect(i.features).toEqual({ source: 'pixels' });
    const onBackbone = foldGroundTruthState(
      c,
      stateOf(i, { features: { source: 'backbone', seed: 0 }, hidden: [], strategies: ['finetune', 'simplecil', 'fecam'] }),
    );
    expect(onBackbone.features).toEqual({ source: 'backbone', seed: 0 });
    expect(onBackbone.model).toEqual({ kind: 'head', hidden: [] });
    expect(onBackbone.strategies.map((s) => s.id)).toEqual(['finetune', 'simplecil', 'fecam']);
    // the link keeps them: the page reads them back
    const back = inputsFromConfig(onBackbone);
    expect(back.features).toEqual({ source: 'backbone', seed: 0 });
    expect(CONFIG_STRATEGY_IDS.filter((id) => back.chosen[id])).toEqual(['finetune', 'simplecil', 'fecam']);
    expect(back.hiddenText).toBe('');
    // back to pixels: the MLP again, the pre-trained methods leave (they need features)
    const onPixels = foldGroundTruthState(onBackbone, stateOf(back, { features: { source: 'pixels' }, hidden: [256, 128] }));
    expect(onPixels.features).toBeUndefined();
    expect(onPixels.model).toEqual({ kind: 'mlp', hidden: [256, 128] });
    expect(onPixels.strategies.map((s) => s.id)).toEqual(['finetune']);
  });

  it('a pre-trained method on pixels, or in a lab that trains networks only, is refused with the reason', () => {
    const r = validateConfig({ lab: 'ground-truth', strategies: [{ id: 'simplecil' }] });
    expect(r.errors.map((e) => e.path)).toEqual(['strategies']);
    expect(r.errors[0].message).toMatch(/"simplecil" is a pre-trained method: it classifies frozen feature vectors.*pixels are none/);
    const f = validateConfig({ lab: 'forgetting', strategies: [{ id: 'ranpac' }], features: { source: 'backbone' }, model: { kind: 'head', hidden: [] } });
    expect(f.errors.find((e) => e.path === 'strategies')?.message).toMatch(/only the Ground-truth lab runs/);
    // the Orderings lab (no training) keeps them in its link as they are
    expect(validateConfig({ strategies: [{ id: 'simplecil' }] }).errors).toEqual([]);
  });

  it('re-reads only when what the page shows changed', () => {
    const c = defaultConfig();
    const k = inputsKey(c);
    expect(inputsKey({ ...c, protocols: { ...c.protocols, enabled: ['rs'] } })).toBe(k);
    expect(inputsKey({ ...c, ui: { ...c.ui, teaching: true } })).toBe(k);
    expect(inputsKey({ ...c, classes: [0, 1, 2, 3], taskSizes: [2, 2] })).not.toBe(k);
    expect(inputsKey({ ...c, protocols: { ...c.protocols, rsSeeds: [1] } })).not.toBe(k);
  });

  it('WordNet pins: the config pins a class by name, else the class list’s synset', () => {
    const c = valid({ ...defaultConfig(), similarity: { kind: 'wordnet', pins: { Bag: 'n02773037' } } });
    expect(wordnetPinsFor(wordnetPinsOf(c), ['Trouser', 'Bag'], ['n1', 'n2'])).toEqual(['n1', 'n02773037']);
    const clip = valid({
      ...defaultConfig(),
      similarity: { kind: 'clip', model: 'Xenova/clip-vit-base-patch32', dtype: 'q8', prompt: { kind: 'bare' }, weights: { kind: 'hub' } },
    });
    expect(wordnetPinsOf(clip)).toEqual({});
  });
});

describe('teaching mode: ordering n of N', () => {
  const jobs = ['a', 'b', 'c'].flatMap((k) => ['finetune', 'replay'].map((strategy) => ({ orderingKey: k, strategy, seed: 0 })));
  const run = (k: string, strategy: string) => ({ orderingKey: k, strategy, seed: 0 });
  it('counts orderings with every run stored, and says which is next and how many runs it needs', () => {
    expect(orderingProgress(jobs, [])).toEqual({ done: 0, total: 3, next: 'a', runsOfNext: 2 });
    expect(orderingProgress(jobs, [run('a', 'finetune')])).toEqual({ done: 0, total: 3, next: 'a', runsOfNext: 1 });
    expect(orderingProgress(jobs, [run('a', 'finetune'), run('a', 'replay')])).toEqual({ done: 1, total: 3, next: 'b', runsOfNext: 2 });
    // runs stored out of order (an earlier session) and runs of other experiments do not confuse it
    expect(orderingProgress(jobs, [run('c', 'finetune'), run('c', 'replay'), run('z', 'finetune')])).toEqual({ done: 1, total: 3, next: 'a', runsOfNext: 2 });
    const all = jobs.map((j) => run(j.orderingKey, j.strategy));
    expect(orderingProgress(jobs, all)).toEqual({ done: 3, total: 3, next: null, runsOfNext: 0 });
  });
});
