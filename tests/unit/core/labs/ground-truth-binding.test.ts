/**
 * The Ground-truth lab's binding (its entry's `view` and `apply`, src/core/labs/ground-truth/binding.ts, and the fold
 * that writes only the valid parts into the link): what the controls show for a config, and the config with what they
 * hand back (their inputs resolved, null for what is invalid right now). A round trip (view → the change the controls
 * hand back unchanged → apply, or the fold) gives the same config back, and frozen v1 links (made by the build before
 * the binding moved into the lab entry) open to the same controls and write back the same link.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_STRATEGY_IDS,
  STRATEGY_IDS,
  V1_FILL,
  canonicalJson,
  defaultConfig,
  validateConfig,
  type ExperimentConfig,
} from '../../../../src/core/config/schema';
import { foldValidSteps } from '../../../../src/core/config/fold-valid';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { groundTruthRunHash } from '../../../../src/core/ground-truth/run-keys';
import { editedGroundTruth as edited } from '../ground-truth/edited-experiment';
import { groundTruthLab } from '../../../../src/core/labs/ground-truth';
import { groundTruthSteps, type GroundTruthInputs, type GroundTruthState } from '../../../../src/core/labs/ground-truth/binding';
import { parseTaskSizes, resolveTaskSizes } from '../../../../src/core/orderings/task-sizes';
import { parseTrainingSeeds, parseWidths } from '../../../../src/ui/ground-truth/page-inputs';
import { parseSeeds } from '../../../../src/ui/orderings/page-inputs';

const view = (c: ExperimentConfig) => groundTruthLab.view(c);
const apply = (c: ExperimentConfig, s: GroundTruthState) => groundTruthLab.apply(c, s);
/** what the lab writes into the link (lab-inputs.svelte.ts `pushToLink`): each part only where the config stays valid */
const fold = (c: ExperimentConfig, s: GroundTruthState) => foldValidSteps(c, groundTruthSteps(s));
/** what the lab re-reads its controls by when the experiment changes elsewhere */
const inputsKey = (c: ExperimentConfig) => JSON.stringify(view(c));

/** What the Ground-truth lab resolves from its controls (mirrors `gtState` of src/ui/ground-truth/lab-inputs.svelte.ts). */
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

describe('Ground-truth lab ⇄ config (view, apply, the fold of the valid parts)', () => {
  it('the default config gives the embedded default, and the page writes back exactly the default config', () => {
    const c = defaultConfig();
    const i = view(c);
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
    same(fold(c, stateOf(i)), c);
    same(apply(c, stateOf(i)), c);
  });

  it('round-trips an edited experiment: every control, strategy options and the chosen ordering', () => {
    const c = edited();
    const i = view(c);
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
    same(fold(c, stateOf(i)), c);
    // onto another experiment (the default): everything the page shows moves over; a new strategy gets its defaults
    const onto = fold(defaultConfig(), stateOf(i));
    same({ ...onto, lab: c.lab, strategies: c.strategies }, c);
    expect(onto.strategies).toEqual([
      { id: 'finetune', options: {} },
      { id: 'replay', options: { memory: 200, selection: 'reservoir' } },
    ]);
    expect(onto.lab).toBe('orderings'); // the tab decides the lab, not the page's inputs
  });

  it('unequal task sizes show as text; a strategy set in another order is kept as it is', () => {
    const c = valid({ ...edited(), classes: [0, 1, 2, 3, 4, 5], taskSizes: [3, 2, 1], ui: V1_FILL.ui });
    const i = view(c);
    expect(i.sizesText).toBe('3,2,1');
    same(fold(c, stateOf(i)), c);
    const reversed = valid({ ...c, strategies: [...c.strategies].reverse() });
    same(fold(reversed, stateOf(view(reversed))), reversed);
  });

  it('an invalid input leaves its part as it was; the valid parts are still written', () => {
    const c = defaultConfig();
    const s = stateOf(view(c), { epochs: 2.5, seeds: null, hidden: null, taskSizes: null, classes: [0, 1], budget: 40 });
    const next = fold(c, s);
    expect(next.training).toEqual(c.training);
    expect(next.seeds).toEqual(c.seeds);
    expect(next.model).toEqual(c.model);
    expect(next.classes).toEqual(c.classes);
    expect(next.groundTruth.budget).toBe(40);
    // the unvalidated application shows the error at the control's path
    expect(validateConfig(apply(c, s)).errors.map((e) => e.path)).toContain('training.epochs');
  });

  it('a dataset without images (chosen in the Orderings lab) stays until the user picks one here', () => {
    const c = valid({ ...defaultConfig(), dataset: { id: 'cifar100' }, classes: [3, 7, 11, 20], taskSizes: [2, 2] });
    const i = view(c);
    expect(i).toMatchObject({ foreignDataset: 'cifar100', datasetId: 'fashion-mnist', selected: [0, 1, 2, 3, 4, 5], selectedOrdering: null });
    const kept = fold(c, stateOf(i, { epochs: 5 }));
    expect([kept.dataset, kept.classes, kept.taskSizes]).toEqual([c.dataset, c.classes, c.taskSizes]);
    expect(kept.training.epochs).toBe(5);
    // picking a dataset here writes it (and its classes and tasks)
    const picked = fold(c, stateOf({ ...i, foreignDataset: null, datasetId: 'emoji' }));
    expect([picked.dataset, picked.classes, picked.taskSizes]).toEqual([{ id: 'emoji' }, [0, 1, 2, 3, 4, 5], [2, 2, 2]]);
    // custom class names without images are foreign too
    const custom = valid({
      ...defaultConfig(),
      dataset: { id: 'custom', classNames: ['a', 'b', 'c', 'd'], images: null },
      classes: [0, 1, 2, 3],
      taskSizes: [2, 2],
    });
    expect(view(custom).foreignDataset).toBe('custom');
  });

  it('first-session adaptation: one width for SimpleCIL and RanPAC, absent when 0 (every earlier config keeps its key)', () => {
    const c = valid({
      ...defaultConfig(),
      features: { source: 'backbone', seed: 0 },
      model: { kind: 'head', hidden: [] },
      strategies: [{ id: 'finetune' }, { id: 'simplecil' }, { id: 'ranpac' }],
    });
    const i = view(c);
    expect(i.firstSession).toBe(0);
    expect(c.strategies.find((x) => x.id === 'simplecil')!.options).toEqual({ metric: 'cosine' });
    const on = fold(c, stateOf(i, { firstSession: 128 }));
    expect(on.strategies.map((x) => x.options)).toEqual([
      {},
      { metric: 'cosine', firstSession: 128 },
      { projection: 2000, lambdaFrom: 'task', firstSession: 128 },
    ]);
    expect(view(on).firstSession).toBe(128);
    expect(groundTruthRunHash(on)).not.toBe(groundTruthRunHash(c));
    const off = fold(on, stateOf(view(on), { firstSession: 0 }));
    expect(off.strategies).toEqual(c.strategies);
    expect(groundTruthRunHash(off)).toBe(groundTruthRunHash(c));
    // a width above the bound is refused at the control's path, and the config keeps its value
    expect(validateConfig(apply(on, stateOf(view(on), { firstSession: 5000 }))).errors.map((e) => e.path)).toContain('strategies[1].options.firstSession');
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
      const i = view(c);
      expect(i).toMatchObject({ foreignDataset: null, datasetId: 'cifar100', selected: [3, 7, 11, 20], tasks: 2 });
      const next = fold(c, stateOf(i, { epochs: 4 }));
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
    expect(view(onBackbone).foreignDataset).toBe('cifar100');
  });

  it('one "epochs per task" control: the first task follows it only while the config had them equal', () => {
    const linked = defaultConfig();
    expect(fold(linked, stateOf(view(linked), { epochs: 5 })).training).toMatchObject({ epochs: 5, firstTaskEpochs: 5 });
    const apart = valid({ ...defaultConfig(), training: { ...V1_FILL.training, epochs: 3, firstTaskEpochs: 8 } });
    expect(fold(apart, stateOf(view(apart), { epochs: 2 })).training).toMatchObject({ epochs: 2, firstTaskEpochs: 8 });
  });

  it('a CNN from a config file stays a CNN (the page has MLP widths only)', () => {
    const c = valid({ ...defaultConfig(), model: { kind: 'cnn', filters: [8, 16], dense: 32 } });
    const i = view(c);
    expect(i.hiddenText).toBeNull();
    same(fold(c, stateOf(i)), c);
  });

  it('the chosen ordering is written, and dropped when the classes or tasks change', () => {
    const c = defaultConfig();
    const chosen = fold(c, stateOf(view(c), { selectedOrdering: '0,1|2,3|4,5' }));
    expect(chosen.ui.selectedOrdering).toBe('0,1|2,3|4,5');
    const fewer = fold(chosen, stateOf(view(chosen), { classes: [0, 1, 2, 3], taskSizes: [2, 2] }));
    expect(fewer.classes).toEqual([0, 1, 2, 3]);
    expect(fewer.ui.selectedOrdering).toBeNull();
  });

  it('the feature source: backbone brings the head and offers the pre-trained methods; pixels take them away', () => {
    const c = valid({ ...defaultConfig(), lab: 'ground-truth' });
    const i = view(c);
    expect(i.features).toEqual({ source: 'pixels' });
    const onBackbone = fold(c, stateOf(i, { features: { source: 'backbone', seed: 0 }, hidden: [], strategies: ['finetune', 'simplecil', 'fecam'] }));
    expect(onBackbone.features).toEqual({ source: 'backbone', seed: 0 });
    expect(onBackbone.model).toEqual({ kind: 'head', hidden: [] });
    expect(onBackbone.strategies.map((s) => s.id)).toEqual(['finetune', 'simplecil', 'fecam']);
    // the link keeps them: the page reads them back
    const back = view(onBackbone);
    expect(back.features).toEqual({ source: 'backbone', seed: 0 });
    expect(CONFIG_STRATEGY_IDS.filter((id) => back.chosen[id])).toEqual(['finetune', 'simplecil', 'fecam']);
    expect(back.hiddenText).toBe('');
    // back to pixels: the MLP again, the pre-trained methods leave (they need features)
    const onPixels = fold(onBackbone, stateOf(back, { features: { source: 'pixels' }, hidden: [256, 128] }));
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
});

/** Frozen v1 links and the controls they opened to before the binding moved into the lab entry (see the file's note). */
const FROZEN = (
  JSON.parse(readFileSync(join(__dirname, '../../../fixtures/lab-binding-links.json'), 'utf8')) as {
    links: Record<string, { link: string; groundTruth: GroundTruthInputs }>;
  }
).links;

function open(link: string): ExperimentConfig {
  const r = decodeConfigFromHash(link);
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

describe('Ground-truth lab: round trip and old links', () => {
  it('view, then the change the controls hand back unchanged, applied (or folded): the same config', () => {
    const configs = [...Object.values(FROZEN).map((f) => open(f.link)), edited()];
    // the representative configs: trainable and foreign datasets, every feature source but an upload's, a CNN
    expect(new Set(configs.map((c) => view(c).foreignDataset))).toEqual(new Set([null, 'cifar100', 'custom']));
    expect(new Set(configs.map((c) => view(c).features.source))).toEqual(new Set(['pixels', 'backbone', 'encoder']));
    expect(configs.some((c) => view(c).hiddenText === null)).toBe(true);
    for (const c of configs) {
      same(valid(apply(c, stateOf(view(c)))), c);
      same(fold(c, stateOf(view(c))), c);
    }
  });

  it('old links open unchanged: the same controls as before, and writing them back gives the same link', () => {
    expect(Object.keys(FROZEN).length).toBeGreaterThanOrEqual(10);
    for (const [name, f] of Object.entries(FROZEN)) {
      const c = open(f.link);
      expect(view(c), name).toEqual(f.groundTruth);
      expect(encodeConfigToHash(valid(apply(c, stateOf(view(c))))), name).toBe(f.link);
      expect(encodeConfigToHash(fold(c, stateOf(view(c)))), name).toBe(f.link);
    }
    // the first task's own epochs and the first-session width of a link stay as they were
    expect(FROZEN['g-backbone'].groundTruth).toMatchObject({ epochs: 4, firstSession: 128, hiddenText: '' });
    expect(open(FROZEN['g-backbone'].link).training.firstTaskEpochs).toBe(9);
  });
});
