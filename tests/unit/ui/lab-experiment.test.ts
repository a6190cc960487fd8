/**
 * Where the Open-world, Curriculum and Time pages start (the lab kit's experimentStart over the lab's entry,
 * ui/common/lab/lab-experiment): a link made on the tab reads the lab's experiment from the common sections, a link
 * made before opens its full settings, a new experiment starts on the lab's start, and a link without the section on the frozen fill-in.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../../src/core/config/schema';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS } from '../../../src/core/labs/open-world/settings';
import { foldOpenWorld } from '../../../src/core/ood/experiment';
import { experimentStart } from '../../../src/ui/common/lab/lab-experiment.svelte';
import { openWorldLab } from '../../../src/core/labs/open-world';
import type { ExperimentConfig, LabId } from '../../../src/core/config/schema';
import { CURRICULUM_FILL, foldCurriculum, type CurriculumConfig } from '../../../src/core/labs/curriculum/section';
import { CURRICULUM_LAB_START as START_SECTION, curriculumLab } from '../../../src/core/labs/curriculum';
import { foldTime } from '../../../src/core/labs/time/section';
import { defaultTimeLabConfig, TIME_LAB_START } from '../../../src/core/labs/time/settings';
import { timeLab } from '../../../src/core/labs/time';

const START = OPEN_WORLD_PRESETS['near-far'];
const openWorldStart = (config: ExperimentConfig, opened: LabId | null, start: typeof START) => {
  expect(openWorldLab.tab!.start(defaultConfig(), null)).toEqual(start);
  return experimentStart(openWorldLab, config, opened);
};

describe('experimentStart of the Open-world lab', () => {
  it('a new experiment (no link) starts on the start; a link without the section on the defaults', () => {
    expect(openWorldStart(defaultConfig(), null, START)).toEqual({ settings: START, unused: [], owns: false });
    expect(openWorldStart(defaultConfig(), 'ground-truth', START)).toEqual({ settings: OPEN_WORLD_DEFAULTS, unused: [], owns: false });
  });

  it('a link made on the tab: its settings, and the experiment is the tab’s', () => {
    const s = { ...OPEN_WORLD_PRESETS.quick, seeds: 2 };
    const config = validateConfig(foldOpenWorld(defaultConfig(), s)).config;
    expect(openWorldStart(config, 'open-world', START)).toEqual({ settings: s, unused: [], owns: true });
  });

  it('the common sections changed on another lab: that lab’s experiment is not read, the tab’s own choices are', () => {
    const config = validateConfig(foldOpenWorld(defaultConfig(), { ...OPEN_WORLD_PRESETS.quick, detectors: ['energy'] })).config;
    config.lab = 'ground-truth';
    config.dataset = { id: 'emoji' };
    expect(openWorldStart(config, 'ground-truth', START)).toEqual({
      settings: { ...START, detectors: ['energy'], oodSets: ['digits:6-9', 'fashion-mnist'], headEpochs: 3 },
      unused: [],
      owns: false,
    });
  });

  it('a link made before opens its full settings (not yet the experiment’s)', () => {
    const legacy = { ...OPEN_WORLD_PRESETS.ablation, epochs: 5 };
    const config = validateConfig({ lab: 'open-world', openWorld: legacy }).config;
    expect(openWorldStart(config, 'open-world', START)).toEqual({ settings: legacy, unused: [], owns: false });
  });

  it('what the lab cannot train is listed with what it trains instead', () => {
    const config = validateConfig(foldOpenWorld(defaultConfig(), OPEN_WORLD_DEFAULTS)).config;
    config.training.batchSize = 32;
    const r = openWorldStart(config, 'open-world', START);
    expect(r.unused).toEqual([{ said: 'batchSize 32', instead: 'batchSize 64' }]);
    expect(r.settings).toEqual(OPEN_WORLD_DEFAULTS);
  });
});

describe('experimentStart of the Curriculum lab', () => {
  const S = curriculumLab;
  it('a new experiment starts on M2I at the start; a link without the section on the fill-in', () => {
    expect(experimentStart(S, defaultConfig(), null)).toEqual({ settings: START_SECTION, unused: [], owns: false });
    expect(experimentStart(S, defaultConfig(), 'orderings').settings).toEqual(CURRICULUM_FILL);
  });
  it('a link made on the tab reads the training from the common sections', () => {
    const s = { ...(CURRICULUM_FILL as CurriculumConfig), scenario: 'til' as const, epochs: 9, seeds: 2 };
    const config = validateConfig(foldCurriculum(defaultConfig(), s)).config;
    expect(experimentStart(S, config, 'curriculum')).toEqual({ settings: s, unused: [], owns: true });
    // made on another tab: that lab's training is not read, this lab's datasets, order and scenario are
    config.lab = 'ground-truth';
    expect(experimentStart(S, config, 'ground-truth').settings).toEqual({ ...START_SECTION, datasets: s.datasets, order: s.order, scenario: 'til' });
  });
});

describe('experimentStart of the Time lab', () => {
  it('a new experiment starts on the start; a link made on the tab reads the network and training from the common sections', () => {
    expect(experimentStart(timeLab, defaultConfig(), null).settings).toEqual(TIME_LAB_START);
    const s = { ...defaultTimeLabConfig(), hidden: [64, 32], lr: 0.002, seeds: 3 };
    const config = validateConfig(foldTime(defaultConfig(), s)).config;
    expect(experimentStart(timeLab, config, 'time')).toEqual({ settings: s, unused: [], owns: true });
  });
});
