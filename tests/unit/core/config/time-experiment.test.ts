/**
 * The Time lab on the experiment's common sections (src/core/labs/time/section.ts): its settings written into a
 * config and read back are the same settings, what the common sections say that the lab cannot train is named with
 * what it trains instead, and the section's own form keeps only the stream, protocols, mode and buffer.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import { foldTime, timeFromExperiment, type TimeOwn } from '../../../../src/core/labs/time/section';
import { decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { defaultTimeLabConfig, TIME_LAB_PRESETS, TIME_LAB_START, type TimeLabConfig } from '../../../../src/core/labs/time/settings';
import { foldRoundTrip } from './fold-round-trip';
import { timeLab } from '../../../../src/core/labs/time';

/** Folded into the default experiment (or `base`), checked as a link would be, and read back. */
const roundTrip = foldRoundTrip<TimeLabConfig>(foldTime, timeLab.view);

describe('foldTime / timeFromExperiment', () => {
  const cases: [string, TimeLabConfig][] = [
    ['the defaults', defaultTimeLabConfig()],
    ['the start', TIME_LAB_START as TimeLabConfig],
    ...Object.entries(TIME_LAB_PRESETS).map(([k, v]) => [`preset ${k}`, v as TimeLabConfig] as [string, TimeLabConfig]),
    [
      'the CNN, a reservoir, lr and batch of its own, seeds 4–5',
      { ...defaultTimeLabConfig(), model: 'cnn', buffer: 'reservoir', k: 300, lr: 0.01, batchSize: 16, seed: 4, seeds: 2 },
    ],
  ];
  it.each(cases)('%s: the same settings back, nothing unused', (_, s) => {
    const { config, back } = roundTrip(s);
    expect(back).toEqual(s);
    expect(timeFromExperiment(config, config.time as TimeOwn).unused).toEqual([]);
  });

  it('writes the network and training into the common sections; the rest stays in the section', () => {
    const { config } = roundTrip({ ...defaultTimeLabConfig(), lr: 0.005, batchSize: 16 });
    expect(config.lab).toBe('time');
    expect(config.model).toEqual({ kind: 'mlp', hidden: [128] });
    expect(config.training).toMatchObject({ epochs: 5, firstTaskEpochs: 5, lr: 0.005, batchSize: 16 });
    expect(config.seeds).toEqual([0]);
    expect(Object.keys(config.time as object).sort()).toEqual([
      'alpha',
      'buckets',
      'buffer',
      'from',
      'k',
      'mode',
      'perClass',
      'protocols',
      'stream',
      'strength',
      'trainRatio',
    ]);
    // the experiment's dataset, classes, strategies and images per class are not the lab's
    expect(config.dataset).toEqual(defaultConfig().dataset);
    expect(config.strategies).toEqual(defaultConfig().strategies);
  });

  it('names what the common sections say that the lab cannot train, with what it trains instead', () => {
    const own = foldTime(defaultConfig(), defaultTimeLabConfig()).time as TimeOwn;
    const base = validateConfig({ model: { kind: 'cnn', filters: [8, 8], dense: 32 }, training: { init: 'pytorch', head: 'all' }, seeds: [0, 2] });
    expect(base.errors).toEqual([]);
    const { unused, settings } = timeFromExperiment(base.config, own);
    expect(unused).toEqual([
      { said: "a CNN with filters 8, 8 and 32 dense units (the lab's CNN has 16, 32 and 128)", instead: 'an MLP with hidden layers 128' },
      { said: 'init pytorch', instead: 'init he-glorot' },
      { said: 'seeds 0, 2 (the lab runs consecutive seeds)', instead: 'seeds 0, 1' },
    ]);
    expect(settings).toMatchObject({ model: 'mlp', hidden: [128], seed: 0, seeds: 2 });
  });
});

describe('the time section', () => {
  it('refuses the network and training beside "from": "experiment", naming the common section that holds each', () => {
    const r = validateConfig({ time: { from: 'experiment', hidden: [8], lr: 0.1 } });
    expect(r.errors.map((e) => [e.path, e.message])).toEqual([
      ['time.hidden', 'With "from": "experiment", the lab\'s hidden is the experiment\'s `model`: leave it out here.'],
      ['time.lr', 'With "from": "experiment", the lab\'s lr is the experiment\'s `training`: leave it out here.'],
    ]);
  });

  it('checks its own fields with the lab’s checker', () => {
    const r = validateConfig({ time: { from: 'experiment', buckets: 11, stream: 'river' } });
    expect(r.errors.map((e) => e.path).sort()).toEqual(['time.buckets', 'time.stream']);
  });

  it('goes through a share link unchanged; a link with the full form still opens to it', () => {
    const { config } = roundTrip(TIME_LAB_START as TimeLabConfig);
    const d = decodeConfigFromHash(encodeConfigToHash(config));
    expect(d.ok && timeLab.view(d.config)).toEqual(TIME_LAB_START);
    const full = validateConfig({ lab: 'time', time: { ...TIME_LAB_START, epochs: 2, hidden: [32] }, model: { kind: 'cnn' }, training: { lr: 0.1 } });
    expect(full.errors).toEqual([]);
    const f = decodeConfigFromHash(encodeConfigToHash(full.config));
    expect(f.ok && timeLab.view(f.config)).toEqual({ ...TIME_LAB_START, epochs: 2, hidden: [32] });
  });
});
