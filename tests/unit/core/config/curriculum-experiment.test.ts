/**
 * The Curriculum lab on the experiment's common sections (src/core/labs/curriculum/section.ts): its settings
 * written into a config and read back are the same settings, what the common sections say that the lab cannot train
 * is named with what it trains instead, and the section's own form keeps only datasets, order and scenario.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import {
  CURRICULUM_FILL,
  CURRICULUM_START,
  curriculumFromExperiment,
  foldCurriculum,
  type CurriculumConfig,
  type CurriculumOwn,
} from '../../../../src/core/labs/curriculum/section';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { foldRoundTrip } from './fold-round-trip';
import { curriculumLab } from '../../../../src/core/labs/curriculum';

/** Folded into the default experiment (or `base`), checked as a link would be, and read back. */
const roundTrip = foldRoundTrip<CurriculumConfig>(foldCurriculum, curriculumLab.view);

describe('foldCurriculum / curriculumFromExperiment', () => {
  const cases: [string, CurriculumConfig][] = [
    ['the fill-in', CURRICULUM_FILL as CurriculumConfig],
    ['the start', CURRICULUM_START as CurriculumConfig],
    [
      'a hand order, TIL, three strategies',
      {
        ...(CURRICULUM_FILL as CurriculumConfig),
        datasets: ['digits', 'fashion-mnist'],
        order: ['fashion-mnist', 'digits'],
        scenario: 'til',
        strategies: ['lwf', 'replay', 'ewc'],
      },
    ],
    ['M2I, 2 seeds from 7', { ...(CURRICULUM_START as CurriculumConfig), order: 'm2i', seed: 7, seeds: 2, hidden: 64, epochs: 12, testPerClass: 9 }],
  ];
  it.each(cases)('%s: the same settings back, nothing unused', (_, s) => {
    const { config, back } = roundTrip(s);
    expect(back).toEqual(s);
    expect(curriculumFromExperiment(config, config.curriculum as CurriculumOwn).unused).toEqual([]);
  });

  it('writes the training into the common sections and keeps datasets, order and scenario in the section', () => {
    const { config } = roundTrip(CURRICULUM_START as CurriculumConfig);
    expect(config.lab).toBe('curriculum');
    expect(config.curriculum).toEqual({ from: 'experiment', datasets: CURRICULUM_START.datasets, order: 'all', scenario: 'both' });
    expect(config.strategies.map((s) => s.id)).toEqual(['finetune', 'replay']);
    expect(config.model).toEqual({ kind: 'mlp', hidden: [256] });
    expect(config.training.epochs).toBe(30);
    expect(config.data).toEqual({ trainPerClass: 5, testPerClass: 50 });
    expect(config.seeds).toEqual([0, 1, 2]);
    // the experiment's dataset and classes are not the lab's: they stay as they were
    expect(config.dataset).toEqual(defaultConfig().dataset);
  });

  it('names what the common sections say that the lab cannot train, with what it trains instead', () => {
    const own = foldCurriculum(defaultConfig(), CURRICULUM_FILL as CurriculumConfig).curriculum as CurriculumOwn;
    const base = validateConfig({
      strategies: [{ id: 'replay', options: { memory: 50 } }, { id: 'finetune' }],
      model: { kind: 'mlp', hidden: [64, 32] },
      data: { trainPerClass: null, testPerClass: 20 },
      training: { batchSize: 16 },
      seeds: [2, 4],
    });
    expect(base.errors).toEqual([]);
    const { settings, unused } = curriculumFromExperiment(base.config, own);
    expect(unused).toEqual([
      { said: "replay's memory 50", instead: 'memory 200' },
      { said: 'an MLP with hidden layers 64, 32 (the lab trains one hidden layer)', instead: 'one hidden layer of 256' },
      { said: 'all training images per class (the lab takes the same number from every dataset)', instead: '100' },
      { said: 'batchSize 16', instead: 'batchSize 64' },
      { said: 'seeds 2, 4 (the lab runs consecutive seeds)', instead: 'seeds 2, 3' },
    ]);
    expect(settings).toMatchObject({ strategies: ['replay', 'finetune'], hidden: 256, trainPerClass: 100, testPerClass: 20, seed: 2, seeds: 2 });
  });
});

describe('the curriculum section', () => {
  it('refuses the training settings beside "from": "experiment", naming the common section that holds each', () => {
    const r = validateConfig({ curriculum: { from: 'experiment', epochs: 4, strategies: ['finetune'] } });
    expect(r.errors.map((e) => [e.path, e.message])).toEqual([
      ['curriculum.epochs', 'With "from": "experiment", the lab\'s epochs is the experiment\'s `training`: leave it out here.'],
      ['curriculum.strategies', 'With "from": "experiment", the lab\'s strategies is the experiment\'s `strategies`: leave it out here.'],
    ]);
  });

  it('checks its datasets, order and scenario as the full form does', () => {
    const r = validateConfig({ curriculum: { from: 'experiment', datasets: ['digits'], scenario: 'x', order: 'sideways' } });
    expect(r.errors.map((e) => e.path).sort()).toEqual(['curriculum.datasets', 'curriculum.order', 'curriculum.scenario']);
    const seven = validateConfig({
      curriculum: {
        from: 'experiment',
        datasets: ['digits', 'fashion-mnist', 'emoji-animals', 'emoji-food', 'emoji-vehicles', 'emoji-objects', 'emoji-clothing'],
      },
    });
    expect(seven.errors.map((e) => e.path)).toContain('curriculum.order');
  });

  it('goes through a share link unchanged; a link with the full form still opens to it', () => {
    const { config } = roundTrip(CURRICULUM_START as CurriculumConfig);
    const d = decodeConfigFromHash(encodeConfigToHash(config));
    expect(d.ok && curriculumLab.view(d.config)).toEqual(CURRICULUM_START);
    const full = validateConfig({ lab: 'curriculum', curriculum: { ...CURRICULUM_START, epochs: 7 }, model: { kind: 'cnn' } });
    expect(full.errors).toEqual([]);
    const f = decodeConfigFromHash(encodeConfigToHash(full.config));
    expect(f.ok && curriculumLab.view(f.config)).toEqual({ ...CURRICULUM_START, epochs: 7 });
  });
});
