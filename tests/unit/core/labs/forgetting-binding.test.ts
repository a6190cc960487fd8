/**
 * The Forgetting lab's binding (its entry's `view` and `apply`, src/core/labs/forgetting/binding.ts): the tab's
 * settings applied to an experiment and read back through a link; each control to its field; an invalid control
 * leaves its part as it was; the round trip view → the change the controls hand back → apply gives the config back;
 * links made before (frozen here, as in tests/unit/core/config/url-codec.test.ts and lab-seeds.test.ts) open to the
 * settings they opened to before the binding moved into the lab entry, and unchanged.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { foldValidSteps } from '../../../../src/core/config/fold-valid';
import { forgettingExperimentOf, forgettingJobsOf } from '../../../../src/core/forgetting/from-config';
import { parseOrdering, paperTasks } from '../../../../src/core/forgetting/setup';
import { LABS } from '../../../../src/core/labs';
import { forgettingLab } from '../../../../src/core/labs/forgetting';
import {
  forgettingChange,
  forgettingSteps,
  forgettingTabStart,
  orderingKindOf,
  resolveOrdering,
  type ForgettingSettings,
} from '../../../../src/core/labs/forgetting/binding';
import { orderingKey } from '../../../../src/core/orderings/key';

const PAPER = paperTasks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

/** The ordering the tab trains for its settings (the paper's, or the hand-made one). */
const tasksOf = (i: ForgettingSettings) => (i.orderingKind === 'paper' ? PAPER : parseOrdering(i.manualText, 10));

/**
 * The change the controls hand back for `i` (the ordering resolved) written to `from` as the tab writes it: a part at
 * a time, each only where the config stays valid.
 */
function applyChecked(from: ExperimentConfig, i: ForgettingSettings, tasks: readonly (readonly number[])[] | null): ExperimentConfig {
  const r = validateConfig(foldValidSteps(from, forgettingSteps(forgettingChange(i, tasks))));
  expect(r.errors).toEqual([]);
  return r.config;
}

/** The settings applied to `from` (the ordering resolved as the controls resolve it), checked as a link would be. */
const fold = (i: ForgettingSettings, from: ExperimentConfig = defaultConfig()) => applyChecked(from, i, tasksOf(i));

function open(link: string): ExperimentConfig {
  const r = decodeConfigFromHash(link);
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

/** The change the controls hand back for the settings `view` reads, unchanged (RS / EDGE are read as hand-made). */
function unchanged(config: ExperimentConfig): ReturnType<typeof forgettingChange> {
  const s = forgettingLab.view(config);
  return forgettingChange(s, resolveOrdering(s.orderingKind, s.manualText, null).tasks);
}

const VARIANTS: [string, Partial<ForgettingSettings>][] = [
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

/**
 * Forgetting links made by builds before (url-codec.test.ts: before `forgetting.preset`; lab-seeds.test.ts: before
 * `forgetting.seeds`), with the settings they opened to before the binding moved into the lab entry (read by the
 * build before it, src/ui/forgetting/page-config.ts's `inputsFromConfig` over the tab's start): what differs from
 * the tab's start.
 */
const OLD_LINKS: { name: string; link: string; settings: Partial<ForgettingSettings> }[] = [
  {
    name: 'EWC on Fashion-MNIST with RAPS, before presets (no ui.selectedOrdering)',
    link: '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTcAewDsAzTgE4BbKBBShRABwAWUFOgB06SuFEBLAEYCoAFzU8ASrv3yF2FdslJkoANYH4AcxQEQ0IRoAmc5IuwBfDhgwQXgUEEskIM5eHREAD3DRMUC3KA1w_gFHeB09bmcgnW0dJzVEFFRQNU9w-AB3MBAOTkk9HmtQIU5PMOQQGDUCiDD_f3YQHVhbAGU1AC8KtEpcVZwcCeKoIaHnGxBeNQEYHQAVaYBRSU4waWsmEGl4KFr-5Oa3AVN0H_Q8MaAA',
    settings: {
      datasetId: 'fashion-mnist',
      strategy: 'ewc',
      calibrationRatio: 0.15,
      alpha: 0.05,
      score: 'raps',
      firstTaskEpochs: 8,
      epochs: 3,
      trainPerClass: 300,
      testPerClass: 100,
      seeds: 1,
    },
  },
  {
    name: 'one run, before seeds',
    link: '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTEAEygBdZ4eKUAEtOKLsIDmwnkgC-HaACNxAMwD2AJ0kCewgHaSQHPjADWAZWEAvRClSVcTnDnYgemqAYNHkoVcKaMDwAKrBmAKIADupgABZIyEwgcfBQYsggUBAQxiAQmijoAHToZeh4cnJAAAA',
    settings: { firstTaskEpochs: 8, epochs: 3, trainPerClass: 300, testPerClass: 100, seeds: 1 },
  },
  {
    name: 'the digits preset, before seeds',
    link: '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTEAEygBdZ4eKUAEtOKLsIDmwnkgC-HAGYB7AE6SBPYQDtJQkAAdViAeM5SZ8jtABG4les069HPjADWAZWEAvRClRKXGCcHFY5IAA',
    settings: { firstTaskEpochs: 3, epochs: 3, head: 'seen', trainPerClass: 300, testPerClass: 100, seeds: 1, preset: 'digits', presetLr: 0.001 },
  },
];

describe('the Forgetting lab entry’s binding ⇄ the experiment config', () => {
  it('is the lab entry’s view and apply', () => {
    const entry = LABS.find((l) => l.id === 'forgetting')!;
    expect(entry.view).toBe(forgettingLab.view);
    expect(entry.apply).toBe(forgettingLab.apply);
  });

  for (const [name, patch] of VARIANTS) {
    it(`round trip through a link: ${name}`, () => {
      const inputs = { ...forgettingTabStart(), ...patch };
      const config = fold(inputs);
      expect(config.lab).toBe('forgetting');
      expect(config.classes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(config.ui.selectedOrdering).toBe(orderingKey(tasksOf(inputs)));
      const link = encodeConfigToHash(config);
      const opened = decodeConfigFromHash(link);
      expect(opened.ok).toBe(true);
      if (!opened.ok) return;
      // a fresh tab (the tab's own start as the starting point) reads the same controls back …
      const back = forgettingLab.view(opened.config, forgettingTabStart());
      const expected = { ...inputs, manualText: inputs.orderingKind === 'manual' ? back.manualText : forgettingTabStart().manualText };
      // … except the one-run lr of a preset link (the link's lr is the preset's)
      if (inputs.preset) expected.lr = back.lr;
      expect(back).toEqual(expected);
      expect(orderingKey(tasksOf(back))).toBe(orderingKey(tasksOf(inputs)));
      // … and writing them back changes nothing: opening a link never rewrites it
      expect(encodeConfigToHash(fold(back, opened.config))).toBe(link);
    });
  }

  it('view → the change the controls hand back unchanged → apply gives the same config back', () => {
    const configs: [string, ExperimentConfig][] = [
      ...VARIANTS.map(([name, patch]): [string, ExperimentConfig] => [name, fold({ ...forgettingTabStart(), ...patch })]),
      ['seeds and a seed of their own', fold({ ...forgettingTabStart(), seed: 7, seeds: 4 })],
      ...OLD_LINKS.map((o): [string, ExperimentConfig] => [o.name, open(o.link)]),
    ];
    for (const [name, config] of configs) {
      const back = forgettingLab.apply(config, unchanged(config));
      expect(back, name).toEqual(config);
      // … and written a part at a time as the tab writes it
      expect(foldValidSteps(config, forgettingSteps(unchanged(config))), name).toEqual(config);
      expect(forgettingExperimentOf(config, unchanged(config)), name).toEqual({ config, error: null });
    }
  });

  it('old links open unchanged: the settings they opened to before, the same link, the same runs', () => {
    for (const o of OLD_LINKS) {
      const config = open(o.link);
      expect(forgettingLab.view(config), o.name).toEqual({ ...forgettingTabStart(), ...o.settings });
      // the tab's edits are applied while it owns the experiment: applying no edit writes the same link back
      const applied = forgettingLab.apply(config, unchanged(config));
      expect(encodeConfigToHash(applied), o.name).toBe(o.link);
      expect(forgettingJobsOf(applied), o.name).toEqual(forgettingJobsOf(config));
    }
  });

  it('maps each control to its field', () => {
    const c = fold({
      ...forgettingTabStart(),
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
    // the tab's start: FORGETTING_START's regime (300 epochs on the base task, 85 per later task)
    expect(c.training).toMatchObject({ epochs: 85, firstTaskEpochs: 300, lr: 2e-5, head: 'all', batchSize: 64 });
    expect(c.model).toEqual({ kind: 'mlp', hidden: [256, 128] });
    expect(c.data).toEqual({ trainPerClass: null, testPerClass: 40 });
    expect(c.conformal).toMatchObject({ alpha: 0.05, calibrationRatio: 0.1, score: 'lac', softmax: 'all' });
    expect(c.seeds).toEqual([0]);
    expect(c.forgetting).toEqual({ preset: null, seeds: 3 });
  });

  it('an invalid control leaves its part of the config as it was; the rest is written', () => {
    const good = fold(forgettingTabStart());
    const c = applyChecked(good, { ...forgettingTabStart(), epochs: Number.NaN, alpha: 0.2, trainPerClass: 5, calibrationRatio: 0.05 }, PAPER);
    expect(c.training.epochs).toBe(85); // NaN is not written
    // 5 images × 0.05 holds out none: the calibration ratio stays, α (same part) too — the part is one unit
    expect(c.data.trainPerClass).toBe(5);
    expect(c.conformal.calibrationRatio).toBe(0.1);
    // `apply` leaves a null part as the config has it
    expect(forgettingLab.apply(good, { ...forgettingChange({ ...forgettingTabStart(), epochs: 7 }, PAPER), training: null }).training.epochs).toBe(85);
    // an ordering not known yet (RS being computed) keeps the config's ordering
    const k = applyChecked(fold({ ...forgettingTabStart(), orderingKind: 'manual', manualText: '9 8 7 6 5 | 4 | 3 | 2 | 1 | 0' }), forgettingTabStart(), null);
    expect(k.ui.selectedOrdering).toBe('5,6,7,8,9|4|3|2|1|0');
    // a run is never trained on a setting other than the one shown: the experiment of an invalid control is none
    expect(forgettingExperimentOf(good, forgettingChange({ ...forgettingTabStart(), epochs: Number.NaN }, PAPER)).config).toBeNull();
    expect(forgettingExperimentOf(good, forgettingChange(forgettingTabStart(), null))).toEqual({ config: null, error: 'The ordering is not ready.' });
  });

  it('the Orderings tab’s experiment (other classes, names-only dataset) becomes this tab’s setup', () => {
    const orderings = validateConfig({ dataset: { id: 'cifar100' }, classes: [0, 1, 2, 3], taskSizes: [2, 2] }).config;
    const read = forgettingLab.view(orderings, forgettingTabStart());
    expect(read.datasetId).toBe('digits'); // CIFAR-100 has no images here
    expect(read.orderingKind).toBe('paper'); // classes 0–3 are not this tab's ten
    const c = applyChecked(orderings, read, null);
    expect(c).toMatchObject({ lab: 'forgetting', dataset: { id: 'digits' }, classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], taskSizes: [5, 1, 1, 1, 1, 1] });
    expect(c.ui.selectedOrdering).toBe('0,1,2,3,4|5|6|7|8|9');
  });

  it('what a config cannot say keeps the controls’ own: the one-run rate of a preset, the preset rate of one run', () => {
    const current = { ...forgettingTabStart(), lr: 1e-2, presetLr: 1e-3, manualText: '9 8 7 6 5 | 4 | 3 | 2 | 1 | 0' };
    const preset = forgettingLab.view(fold({ ...forgettingTabStart(), preset: 'grid', presetLr: 2e-5 }), current);
    expect([preset.preset, preset.presetLr, preset.lr, preset.manualText]).toEqual(['grid', 2e-5, 1e-2, current.manualText]);
    const one = forgettingLab.view(fold({ ...forgettingTabStart(), lr: 1e-4 }), current);
    expect([one.preset, one.lr, one.presetLr]).toEqual([null, 1e-4, 1e-3]);
  });

  it('names an ordering: the paper’s, a protocol’s, or hand-made', () => {
    const rs = [[9, 2, 4, 0, 1], [3], [8], [5], [7], [6]];
    const protocol = { rs, hard: [[0, 1, 2, 3, 4], [5], [6], [7], [9], [8]], easy: [[5, 6, 7, 8, 9], [0], [1], [2], [3], [4]] };
    expect(orderingKindOf([[4, 3, 2, 1, 0], [5], [6], [7], [8], [9]], protocol)).toBe('paper');
    expect(orderingKindOf([[0, 1, 2, 4, 9], [3], [8], [5], [7], [6]], protocol)).toBe('rs');
    expect(orderingKindOf(protocol.hard, protocol)).toBe('edge-hard');
    expect(orderingKindOf(protocol.easy, null)).toBe('manual');
  });

  it('resolves the ordering the controls describe: sets, a label, or why there is none', () => {
    const protocol = { rs: [[9, 2, 4, 0, 1], [3], [8], [5], [7], [6]], hard: PAPER, easy: PAPER };
    expect(resolveOrdering('paper', 'ignored', null)).toEqual({ tasks: PAPER, label: 'paper: base task 0–4, then one class per task', error: '' });
    expect(resolveOrdering('manual', '4 3 2 1 0 | 9 | 8 | 7 | 6 | 5', null).tasks).toEqual([[0, 1, 2, 3, 4], [9], [8], [7], [6], [5]]);
    expect(resolveOrdering('manual', '0 1 2 | 3', null)).toMatchObject({ tasks: null, error: expect.stringMatching(/missing: 4, 5/) });
    expect(resolveOrdering('rs', '', null)).toEqual({ tasks: null, label: '', error: '' });
    expect(resolveOrdering('rs', '', protocol)).toEqual({ tasks: [[0, 1, 2, 4, 9], [3], [8], [5], [7], [6]], label: 'RS seed 0', error: '' });
  });
});
