import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../src/core/config/url-codec';
import { baseJob, parseOrdering, paperTasks, type ForgettingJob } from '../../../src/core/forgetting/setup';
import {
  defaultForgettingInputs,
  findStoredRuns,
  foldForgettingInputs,
  inputsFromConfig,
  jobKey,
  orderingKey,
  orderingKindOf,
  type ForgettingInputs,
  type StoredRunRef,
} from '../../../src/ui/forgetting/page-config';

const PAPER = paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

/** The ordering the page trains for its inputs (the paper's, or the hand-made one). */
const tasksOf = (i: ForgettingInputs) => (i.orderingKind === 'paper' ? PAPER : parseOrdering(i.manualText, 10));

function fold(i: ForgettingInputs, from: ExperimentConfig = defaultConfig()): ExperimentConfig {
  const c = foldForgettingInputs(from, i, tasksOf(i));
  expect(validateConfig(c).errors).toEqual([]);
  return c;
}

describe('the Forgetting page ⇄ the experiment config', () => {
  const variants: [string, Partial<ForgettingInputs>][] = [
    ['the paper setup on digits', {}],
    [
      'EWC multi on Fashion-MNIST, a hand-made ordering, RAPS',
      {
        datasetId: 'fashion-mnist',
        strategy: 'ewc',
        ewcMode: 'multi',
        ewcLambda: 500,
        orderingKind: 'manual',
        manualText: '1 3 5 7 9 | 0 | 2 | 4 | 6 | 8',
        score: 'raps',
        alpha: 0.15,
        trainPerClass: 800,
        testPerClass: 200,
      },
    ],
    [
      'emoji, two-class tasks, the seen head, another seed and backend',
      {
        datasetId: 'emoji',
        orderingKind: 'manual',
        manualText: '0 1 2 3 | 4 5 | 6 7 | 8 9',
        head: 'seen',
        seed: 42,
        backendPref: 'wasm',
        calibrationRatio: 0.2,
        trainPerClass: 60,
        testPerClass: 30,
        epochs: 2,
        firstTaskEpochs: 5,
        lr: 1e-3,
      },
    ],
    ['a preset with its learning rate', { preset: 'grid', presetLr: 1e-3, datasetId: 'fashion-mnist', trainPerClass: 800, testPerClass: 200 }],
  ];
  for (const [name, patch] of variants) {
    it(`round trip through a link: ${name}`, () => {
      const inputs = { ...defaultForgettingInputs(), ...patch };
      const config = fold(inputs);
      expect(config.lab).toBe('forgetting');
      expect(config.classes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(config.ui.selectedOrdering).toBe(orderingKey(tasksOf(inputs)));
      const link = encodeConfigToHash(config);
      const opened = decodeConfigFromHash(link);
      expect(opened.ok).toBe(true);
      if (!opened.ok) return;
      // a fresh page (the page's own defaults as the starting point) reads the same controls back …
      const back = inputsFromConfig(opened.config, defaultForgettingInputs());
      const expected = { ...inputs, manualText: inputs.orderingKind === 'manual' ? back.manualText : defaultForgettingInputs().manualText };
      // … except the one-run lr of a preset link (the link's lr is the preset's)
      if (inputs.preset) expected.lr = back.lr;
      expect(back).toEqual(expected);
      expect(orderingKey(tasksOf(back))).toBe(orderingKey(tasksOf(inputs)));
      // … and writing them back changes nothing: opening a link never rewrites it
      expect(encodeConfigToHash(fold(back, opened.config))).toBe(link);
    });
  }

  it('maps each control to its field', () => {
    const c = fold({
      ...defaultForgettingInputs(),
      strategy: 'ewc',
      ewcMode: 'single',
      ewcLambda: 250,
      trainPerClass: null,
      testPerClass: 40,
      alpha: 0.05,
      score: 'lac',
    });
    expect(c.dataset).toEqual({ id: 'digits' });
    expect(c.taskSizes).toEqual([5, 1, 1, 1, 1, 1]);
    expect(c.strategies).toEqual([{ id: 'ewc', options: { lambda: 250, mode: 'single', fisherSamples: 200 } }]);
    // the page's start: FORGETTING_START's regime (300 epochs on the base task, 85 per later task)
    expect(c.training).toMatchObject({ epochs: 85, firstTaskEpochs: 300, lr: 2e-5, head: 'all', batchSize: 64 });
    expect(c.model).toEqual({ kind: 'mlp', hidden: [256, 128] });
    expect(c.data).toEqual({ trainPerClass: null, testPerClass: 40 });
    expect(c.conformal).toMatchObject({ alpha: 0.05, calibrationRatio: 0.1, score: 'lac', softmax: 'all' });
    expect(c.seeds).toEqual([0]);
    expect(c.forgetting).toEqual({ preset: null, seeds: 3 });
  });

  it('an invalid control leaves its part of the config as it was; the rest is written', () => {
    const good = fold(defaultForgettingInputs());
    const c = foldForgettingInputs(good, { ...defaultForgettingInputs(), epochs: Number.NaN, alpha: 0.2, trainPerClass: 5, calibrationRatio: 0.05 }, PAPER);
    expect(validateConfig(c).errors).toEqual([]);
    expect(c.training.epochs).toBe(85); // NaN is not written
    // 5 images × 0.05 holds out none: the calibration ratio stays, α (same part) too — the part is one unit
    expect(c.data.trainPerClass).toBe(5);
    expect(c.conformal.calibrationRatio).toBe(0.1);
    // an ordering not known yet (RS being computed) keeps the config's ordering
    const k = foldForgettingInputs(
      fold({ ...defaultForgettingInputs(), orderingKind: 'manual', manualText: '9 8 7 6 5 | 4 | 3 | 2 | 1 | 0' }),
      defaultForgettingInputs(),
      null,
    );
    expect(k.ui.selectedOrdering).toBe('5,6,7,8,9|4|3|2|1|0');
  });

  it('the Orderings tab’s experiment (other classes, names-only dataset) becomes this tab’s setup', () => {
    const orderings = validateConfig({ dataset: { id: 'cifar100' }, classes: [0, 1, 2, 3], taskSizes: [2, 2] }).config;
    const read = inputsFromConfig(orderings, defaultForgettingInputs());
    expect(read.datasetId).toBe('digits'); // CIFAR-100 has no images here
    expect(read.orderingKind).toBe('paper'); // classes 0–3 are not this page's ten
    const c = foldForgettingInputs(orderings, read, null);
    expect(validateConfig(c).errors).toEqual([]);
    expect(c).toMatchObject({ lab: 'forgetting', dataset: { id: 'digits' }, classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], taskSizes: [5, 1, 1, 1, 1, 1] });
    expect(c.ui.selectedOrdering).toBe('0,1,2,3,4|5|6|7|8|9');
  });

  it('names an ordering: the paper’s, a protocol’s, or hand-made', () => {
    const rs = [[9, 2, 4, 0, 1], [3], [8], [5], [7], [6]];
    const protocol = { rs, hard: [[0, 1, 2, 3, 4], [5], [6], [7], [9], [8]], easy: [[5, 6, 7, 8, 9], [0], [1], [2], [3], [4]] };
    expect(orderingKindOf([[4, 3, 2, 1, 0], [5], [6], [7], [8], [9]], protocol)).toBe('paper');
    expect(orderingKindOf([[0, 1, 2, 4, 9], [3], [8], [5], [7], [6]], protocol)).toBe('rs');
    expect(orderingKindOf(protocol.hard, protocol)).toBe('edge-hard');
    expect(orderingKindOf(protocol.easy, null)).toBe('manual');
  });
});

describe('findStoredRuns', () => {
  const run = (id: string, group: string, preset: string | null, job: ForgettingJob): StoredRunRef => ({ id, group, preset, job });
  const single = baseJob('digits', { lr: 1e-3 });
  const runs: StoredRunRef[] = [
    run('a-0', 'digits-a', 'digits', baseJob('digits', { label: 'MLP', lr: 1e-3 })),
    run('a-1', 'digits-a', 'digits', baseJob('digits', { label: 'EWC', strategy: 'ewc', lr: 1e-3 })),
    run('b-0', 'single-b', null, { ...single, label: 'another label', tasks: [[4, 3, 2, 1, 0], [5], [6], [7], [8], [9]] }),
    run('c-0', 'single-c', null, baseJob('digits', { lr: 1e-3, seed: 1 })),
    run('d-0', 'grid-d', 'grid', baseJob('emoji', { lr: 2e-5, trainPerClass: 60, testPerClass: 30 })),
  ];

  it('one run: the newest with the same job (labels and the order inside a task do not matter), its own group first', () => {
    expect(jobKey(single)).toBe(jobKey({ ...single, label: 'x', orderingLabel: 'y', tasks: [[1, 0, 2, 4, 3], [5], [6], [7], [8], [9]] }));
    expect(findStoredRuns(runs, { preset: null, presetLr: 2e-5, job: single })).toEqual({ group: 'single-b', runId: 'b-0' });
    // the same run inside a preset is found when no run of its own is stored
    expect(findStoredRuns(runs.slice(0, 2), { preset: null, presetLr: 2e-5, job: single })).toEqual({ group: 'digits-a', runId: 'a-0' });
    expect(findStoredRuns(runs, { preset: null, presetLr: 2e-5, job: { ...single, calibrationRatio: 0.2 } })).toBeNull();
  });

  it('a preset: the newest group of it on the same dataset, images per class, seed and learning rate', () => {
    const want = (preset: 'digits' | 'grid', presetLr: number, job: ForgettingJob) => findStoredRuns(runs, { preset, presetLr, job });
    expect(want('digits', 1e-3, baseJob('digits'))).toEqual({ group: 'digits-a', runId: null });
    expect(want('digits', 2e-5, baseJob('digits'))).toBeNull();
    expect(want('grid', 2e-5, baseJob('emoji', { trainPerClass: 60, testPerClass: 30 }))).toEqual({ group: 'grid-d', runId: null });
    expect(want('grid', 2e-5, baseJob('emoji', { trainPerClass: 50, testPerClass: 30 }))).toBeNull();
    expect(want('grid', 2e-5, baseJob('digits'))).toBeNull();
  });
});
