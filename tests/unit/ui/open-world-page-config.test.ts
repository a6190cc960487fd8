/**
 * Where the Open-world page starts (src/ui/open-world/page-config.ts): a link made on the tab reads its ID experiment
 * from the common sections, a link made before opens its full settings, a new experiment starts on the lab's start,
 * and a link without the section on the frozen defaults.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../../src/core/config/schema';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS } from '../../../src/core/ood/config';
import { foldOpenWorld, openWorldStart } from '../../../src/ui/open-world/page-config';

const START = OPEN_WORLD_PRESETS['near-far'];

describe('openWorldStart', () => {
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
