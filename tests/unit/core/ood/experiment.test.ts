/**
 * The Open-world lab on the experiment's common sections (src/core/ood/experiment.ts): the lab's settings written into
 * a config and read back are the same settings, what the common sections say that the lab cannot train is named, and a
 * link made before (full settings in its own section) keeps opening to the same settings.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { OPEN_WORLD_PRESETS, type OpenWorldSettings } from '../../../../src/core/labs/open-world/settings';
import { foldOpenWorld, openWorldFromExperiment, type OpenWorldOwn } from '../../../../src/core/ood/experiment';
import { foldRoundTrip } from '../config/fold-round-trip';
import { openWorldLab } from '../../../../src/core/labs/open-world';

/** Folded into the default experiment (or `base`), checked as a link would be, and read back. */
const roundTrip = foldRoundTrip<OpenWorldSettings>(foldOpenWorld, openWorldLab.view);

describe('foldOpenWorld / openWorldFromExperiment', () => {
  it.each(Object.keys(OPEN_WORLD_PRESETS) as (keyof typeof OPEN_WORLD_PRESETS)[])('preset %s: the same settings back, and nothing unused', (name) => {
    const s = OPEN_WORLD_PRESETS[name];
    const { config, back } = roundTrip(s);
    expect(back).toEqual(s);
    expect(openWorldFromExperiment(config, config.openWorld as OpenWorldOwn).unused).toEqual([]);
  });

  it('writes the ID experiment into the common sections and keeps only the lab’s own part in its section', () => {
    const s = OPEN_WORLD_PRESETS['near-far'];
    const { config } = roundTrip(s);
    expect(config.lab).toBe('open-world');
    expect(config.dataset).toEqual({ id: 'fashion-mnist' });
    expect(config.classes).toEqual([0, 1, 2, 3, 4, 5]);
    expect(config.taskSizes).toEqual([2, 2, 2]);
    expect(config.strategies).toEqual([{ id: 'replay', options: { memory: 200, selection: 'reservoir' } }]);
    expect(config.model).toEqual({ kind: 'mlp', hidden: [128] });
    expect(config.training.epochs).toBe(3);
    expect(config.data).toEqual({ trainPerClass: 500, testPerClass: 200 });
    expect(config.seeds).toEqual([0, 1, 2]);
    expect(Object.keys(config.openWorld as object).sort()).toEqual(['detectors', 'from', 'headEpochs', 'marginIn', 'marginOut', 'oodSets', 'orderSeed']);
  });

  it('keeps a class order of the user’s own (as task sets in ui.selectedOrdering) and an RS order seed', () => {
    const hand = { ...OPEN_WORLD_PRESETS.quick, classes: [5, 3, 1, 0, 2, 4] };
    const { config, back } = roundTrip(hand);
    expect(config.ui.selectedOrdering).toBe('3,5|0,1|2,4');
    // the engine trains each task's classes in ascending order: the same tasks, the same numbers
    expect(back.classes).toEqual([3, 5, 0, 1, 2, 4]);
    const rs = { ...OPEN_WORLD_PRESETS.default, orderSeed: 1993 };
    const r = roundTrip(rs);
    expect(r.back).toEqual(rs);
    expect(r.config.ui.selectedOrdering).toBeNull();
  });

  it('carries a memory for the strategies with one; other strategies take the lab’s default memory', () => {
    for (const strategy of ['icarl', 'agem', 'gdumb']) {
      const s = { ...OPEN_WORLD_PRESETS.default, strategy, memory: 321 };
      expect(roundTrip(s).back).toEqual(s);
    }
    const ewc = { ...OPEN_WORLD_PRESETS.default, strategy: 'ewc', memory: 321 };
    const { config, back } = roundTrip(ewc);
    expect(config.strategies).toEqual([{ id: 'ewc', options: { lambda: 1000, mode: 'multi', fisherSamples: 200 } }]);
    expect(back).toEqual({ ...ewc, memory: 200 });
  });

  it('names what the common sections say that the lab cannot train, with what it trains instead', () => {
    const own = foldOpenWorld(defaultConfig(), OPEN_WORLD_PRESETS.default).openWorld as OpenWorldOwn;
    const base = validateConfig({
      lab: 'orderings',
      dataset: { id: 'cifar100' },
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 4],
      model: { kind: 'cnn' },
      strategies: [{ id: 'ewc', options: { lambda: 5 } }, { id: 'finetune' }],
      training: { lr: 0.01, epochs: 4, firstTaskEpochs: 10 },
      seeds: [0, 5],
    });
    expect(base.errors).toEqual([]);
    const { settings, unused } = openWorldFromExperiment(base.config, own);
    expect(unused.map((u) => u.said)).toEqual([
      'the dataset cifar100 (the lab trains on fashion-mnist, digits, emoji)',
      "ewc's lambda 5",
      'the strategies after ewc (the lab trains one strategy)',
      'the cnn model (the lab trains an MLP)',
      'lr 0.01',
      '10 epochs on the first task',
      'seeds 0, 5 (the lab runs consecutive seeds)',
    ]);
    expect(unused.map((u) => u.instead)).toEqual([
      'fashion-mnist, classes 0,1,2,3,4,5',
      'lambda 1000',
      'ewc only',
      'an MLP with hidden layers 256, 128',
      'lr 0.001',
      '4, as every task',
      'seeds 0, 1',
    ]);
    // what it trains instead is what the settings say
    expect(settings).toMatchObject({
      dataset: 'fashion-mnist',
      classes: [0, 1, 2, 3, 4, 5],
      strategy: 'ewc',
      hidden: [256, 128],
      epochs: 4,
      seed: 0,
      seeds: 2,
    });
  });

  it('names unequal task sizes, features and a pre-trained method', () => {
    const own = foldOpenWorld(defaultConfig(), OPEN_WORLD_PRESETS.default).openWorld as OpenWorldOwn;
    const base = validateConfig({
      classes: [0, 1, 2, 3, 4, 5],
      taskSizes: [2, 4],
      features: { source: 'backbone', seed: 0 },
      model: { kind: 'head', hidden: [] },
      strategies: [{ id: 'simplecil' }],
    });
    expect(base.errors).toEqual([]);
    const { unused, settings } = openWorldFromExperiment(base.config, own);
    expect(unused.map((u) => u.said)).toEqual([
      'task sizes 2, 4 (the lab splits its classes into equal tasks)',
      'simplecil (a method on pre-trained features; the lab trains a CIL strategy)',
      'the head model (the lab trains an MLP)',
      'features from the backbone (the lab trains on pixels)',
    ]);
    expect(settings.strategy).toBe('replay');
  });
});

describe('the openWorld section', () => {
  it('refuses the ID settings beside "from": "experiment", naming the common section that holds each', () => {
    const r = validateConfig({ openWorld: { from: 'experiment', dataset: 'digits', epochs: 4 } });
    expect(r.errors.map((e) => [e.path, e.message])).toEqual([
      ['openWorld.dataset', 'With "from": "experiment", the lab\'s dataset is the experiment\'s `dataset`: leave it out here.'],
      ['openWorld.epochs', 'With "from": "experiment", the lab\'s epochs is the experiment\'s `training`: leave it out here.'],
    ]);
  });

  it('checks the lab’s own fields with the lab’s rules', () => {
    const r = validateConfig({ openWorld: { from: 'experiment', oodSets: ['cifar10'], marginIn: 5, marginOut: 1, detectors: [] } });
    expect(r.errors.map((e) => e.path).sort()).toEqual(['openWorld.detectors', 'openWorld.marginIn', 'openWorld.oodSets']);
    expect(validateConfig({ openWorld: { from: 'elsewhere' } }).errors.map((e) => e.path)).toEqual(['openWorld.from']);
  });

  it('goes through a share link unchanged', () => {
    const { config } = roundTrip(OPEN_WORLD_PRESETS.quick);
    const d = decodeConfigFromHash(encodeConfigToHash(config));
    expect(d.ok).toBe(true);
    if (d.ok) expect(openWorldLab.view(d.config)).toEqual(OPEN_WORLD_PRESETS.quick);
  });

  it('a link made before (full settings in the section) opens to its settings, whatever the common sections say', () => {
    // made with this build's codec from { lab: 'open-world', dataset: cifar100, classes 0–9 in tasks 5,5, openWorld:
    // { ...OPEN_WORLD_PRESETS.quick, classes: [5, 3, 1, 0, 2, 4], seeds: 2 } } (full settings: the form links had before)
    const frozen =
      '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTEAEygBdZ4eKUAEtOKcMIBmUAE7Z06EAF8O0AEbiA9gAd4AOwC0Ad00yIYjjv0B1U-aHhocRClSViuLARLsuvfoLIXMIA5sI8SBzw2ppgABZIyDQgcfBQnACiMfGJxCminPqu2HgMvpqanADKAomowWERSQbMIBzSMHHCmoYAtnrCMIK-CPCciXgqIHwwANZVwgBeLmiU5KxKQAAA';
    const d = decodeConfigFromHash(frozen);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.config.dataset).toEqual({ id: 'cifar100' });
    expect(openWorldLab.view(d.config)).toEqual({ ...OPEN_WORLD_PRESETS.quick, classes: [5, 3, 1, 0, 2, 4], seeds: 2 });
  });
});
