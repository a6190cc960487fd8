import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS, compactConfig, validateConfig } from '../../../../src/core/config/schema';
import { configHash, decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { CURRICULUM_START } from '../../../../src/core/labs/curriculum/section';
import { forgettingJobsOf } from '../../../../src/core/forgetting/from-config';
import { FORGETTING_START, PRESETS } from '../../../../src/core/forgetting/setup';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS, oodKind, openWorldKey, validateOpenWorldSettings } from '../../../../src/core/labs/open-world/settings';
import {
  TIME_LAB_PRESETS,
  TIME_LAB_START,
  defaultTimeLabConfig,
  timeControlOf,
  validateTimeLabConfig,
  type TimeLabConfig,
} from '../../../../src/core/labs/time/settings';
import { oneSeed } from '../../../../src/core/labs/seeds';
import { curriculumLab } from '../../../../src/core/labs/curriculum';
import { openWorldLab } from '../../../../src/core/labs/open-world';
import { timeLab } from '../../../../src/core/labs/time';

// Links and hashes made by the build before the labs' `seeds` fields (main at e4686bd). If this test fails, an old link
// would now open something else: see src/core/config/schema.ts rules 2–4.
const FROZEN = {
  forgetting: {
    link: '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTEAEygBdZ4eKUAEtOKLsIDmwnkgC-HaACNxAMwD2AJ0kCewgHaSQHPjADWAZWEAvRClSVcTnDnYgemqAYNHkoVcKaMDwAKrBmAKIADupgABZIyEwgcfBQYsggUBAQxiAQmijoAHToZeh4cnJAAAA',
    hash: 'bdf4eaaf3382262a',
  },
  forgettingPreset: {
    link: '#v1.N4IgxgNghgzjCmMQC4DaAGANARkwJkwGZMAWTAVkwDZMB2TADkwE4BdTEAEygBdZ4eKUAEtOKLsIDmwnkgC-HAGYB7AE6SBPYQDtJQkAAdViAeM5SZ8jtABG4les069HPjADWAZWEAvRClRKXGCcHFY5IAA',
    hash: 'd16091bec5b32466',
  },
  openWorld: {
    link: '#v1.N4IgNghgRiBcIHsAOBTAdgWgO4IE5gBMQAaRVNAdT0LlAIgBcIBnFBuEAgSwHMuHmJECiQIAxgAtBsAGykJKCAQCioydIDM8rgQLo4AbQCMAJgAcAXVIIEBAMptpBzr37NZGAJxCAZiwlcCJgAtmhczOwWAL5RQA',
    hash: '691c8ce73891e858',
  },
  time: { link: '#v1.N4IgNghgRiBcIBcCWBbApiANI1HagGc00ATOAJgF9KgAAA', hash: '5c3f86b534071955' },
  timeDefault: { link: '#v1.N4IgNghgRiBcIBcCWBbApiAvkAA', hash: '2a47c42db2cb6feb' },
  curriculum: { link: '#v1.N4IgxgrgTlCWkBsIFsQC5QHsoBMCmU6IyATLCADQgDOeeO6AjAL5UICGARkZDPBElTMgAA', hash: '99301a2986d3b92a' },
};

function open(link: string) {
  const r = decodeConfigFromHash(link);
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

describe('the labs’ seeds fields (additive: absent = one seed)', () => {
  it('old links open as they did: same config hash, one seed, the same runs', () => {
    for (const [name, { link, hash }] of Object.entries(FROZEN)) {
      const c = open(link);
      expect(configHash(c), name).toBe(hash);
      expect(c.forgetting.seeds, name).toBeUndefined();
      expect(openWorldLab.view(c).seeds, name).toBeUndefined();
      expect(timeLab.view(c).seeds, name).toBeUndefined();
      expect(curriculumLab.view(c).seeds, name).toBeUndefined();
    }
    // one run at the link's seed; the digits preset keeps its own 2 × 5 runs
    expect(forgettingJobsOf(open(FROZEN.forgetting.link)).map((j) => j.seed)).toEqual([0]);
    expect(forgettingJobsOf(open(FROZEN.forgettingPreset.link))).toHaveLength(10);
    // the Time lab's old links keep the drift strength they were made with (the fill-in, 1), and their run key
    expect(timeLab.view(open(FROZEN.time.link))).toEqual({ ...defaultTimeLabConfig(), seed: 2 });
    expect(timeLab.view(open(FROZEN.timeDefault.link)).strength).toBe(1);
    // the Open-world link made on the quick preset of that build keeps those settings, whatever the preset is now
    expect(openWorldLab.view(open(FROZEN.openWorld.link))).toEqual({
      ...OPEN_WORLD_DEFAULTS,
      dataset: 'digits',
      oodSets: ['digits:6-9', 'fashion-mnist'],
      epochs: 6,
      hidden: [128],
      headEpochs: 3,
    });
  });

  it('a seeds field of 1 is the fill-in: not written, the hash unchanged', () => {
    const base = { lab: 'forgetting' };
    const one = validateConfig({ ...base, forgetting: { preset: null, seeds: 1 }, openWorld: { seeds: 1 }, time: { seeds: 1 }, curriculum: { seeds: 1 } });
    expect(one.errors).toEqual([]);
    expect(compactConfig(one.config)).toEqual(compactConfig(validateConfig(base).config));
    expect(configHash(one.config)).toBe(configHash(validateConfig(base).config));
  });

  it('several seeds are written into the link and hash, and a Forgetting run trains at seed, seed + 1, …', () => {
    const r = validateConfig({
      lab: 'forgetting',
      dataset: { id: 'digits' },
      classes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      taskSizes: [5, 1, 1, 1, 1, 1],
      seeds: [4],
      forgetting: { preset: null, seeds: 3 },
    });
    expect(r.errors).toEqual([]);
    expect(compactConfig(r.config)).toMatchObject({ forgetting: { seeds: 3 } });
    expect(forgettingJobsOf(r.config).map((j) => j.seed)).toEqual([4, 5, 6]);
    const w = validateConfig({ openWorld: { seeds: 3 }, time: { seeds: 5 }, curriculum: { seeds: 2 } });
    expect(w.errors).toEqual([]);
    expect(openWorldLab.view(w.config).seeds).toBe(3);
    expect(timeLab.view(w.config).seeds).toBe(5);
    expect(curriculumLab.view(w.config).seeds).toBe(2);
    // the seeds are not part of an Open-world run's key: each seed's run is its own `seed`
    expect(openWorldKey(openWorldLab.view(w.config))).toBe(openWorldKey(openWorldLab.view(validateConfig({}).config)));
  });

  it('rejects a seeds field outside 1 … CONFIG_LIMITS.labSeeds at its path, naming the bound', () => {
    const max = CONFIG_LIMITS.labSeeds;
    const errs = validateConfig({
      forgetting: { preset: null, seeds: max + 1 },
      openWorld: { seeds: 0 },
      time: { seeds: max + 1 },
      curriculum: { seeds: 2.5 },
    }).errors;
    for (const path of ['forgetting.seeds', 'openWorld.seeds', 'time.seeds', 'curriculum.seeds']) expect(errs.map((e) => e.path)).toContain(path);
    expect(errs.find((e) => e.path === 'forgetting.seeds')!.message).toMatch(new RegExp(String(max)));
    expect(errs.find((e) => e.path === 'time.seeds')!.message).toMatch(new RegExp(String(max)));
    expect(
      validateConfig({ forgetting: { preset: null, seeds: max }, openWorld: { seeds: max }, time: { seeds: max }, curriculum: { seeds: max } }).errors,
    ).toEqual([]);
  });
});

describe('what a new experiment starts with (measured; the fill-ins stay frozen)', () => {
  it('Time: drift strength 0.5, 3 seeds and the no-drift control, written into the link explicitly; strong-drift is strength 1', () => {
    expect(TIME_LAB_START).toMatchObject({ strength: 0.5, seeds: 3, control: true });
    expect(defaultTimeLabConfig()).toMatchObject({ strength: 1 });
    expect(defaultTimeLabConfig().seeds).toBeUndefined();
    expect(defaultTimeLabConfig().control).toBeUndefined();
    const r = validateConfig({ lab: 'time', time: TIME_LAB_START });
    expect(r.errors).toEqual([]);
    expect(compactConfig(r.config)).toMatchObject({ time: { strength: 0.5, seeds: 3, control: true } });
    expect(timeLab.view(open(encodeConfigToHash(r.config)))).toEqual(TIME_LAB_START);
    expect(TIME_LAB_PRESETS['strong-drift']).toEqual({ ...TIME_LAB_START, strength: 1 });
    expect(TIME_LAB_PRESETS.start).toBe(TIME_LAB_START);
  });
  it('Time: the no-drift control is the same stream at strength 0, iid, one seed; a link without `control` runs none', () => {
    expect(timeControlOf(oneSeed(TIME_LAB_START as TimeLabConfig, 2))).toEqual({ ...defaultTimeLabConfig(), strength: 0, protocols: ['iid'], seed: 2 });
    expect(timeControlOf(defaultTimeLabConfig())).toBeNull();
    expect(timeControlOf({ ...TIME_LAB_START, stream: 'mixed' })).toBeNull();
    expect(timeControlOf({ ...TIME_LAB_START, protocols: ['streaming'] })).toBeNull();
    expect(timeControlOf({ ...TIME_LAB_START, stream: 'abrupt' })!.stream).toBe('drift');
    // `control: false` is the same settings as no `control` (what every earlier link holds)
    expect(validateTimeLabConfig({ ...defaultTimeLabConfig(), control: false }).value).toEqual(defaultTimeLabConfig());
    expect(validateTimeLabConfig({ control: 'yes' }).issues[0].path).toBe('control');
    // the own form (what the app writes) keeps it
    const own = validateConfig({ lab: 'time', time: { from: 'experiment', control: true, strength: 0.5 } });
    expect(own.errors).toEqual([]);
    expect(timeLab.view(own.config).control).toBe(true);
  });
  it('Curriculum: every dataset on 5 images per class for 30 epochs, 3 seeds, written into the link', () => {
    expect(CURRICULUM_START).toMatchObject({ trainPerClass: 5, epochs: 30, seeds: 3 });
    const r = validateConfig({ lab: 'curriculum', curriculum: CURRICULUM_START });
    expect(r.errors).toEqual([]);
    expect(compactConfig(r.config)).toMatchObject({ curriculum: { trainPerClass: 5, epochs: 30, seeds: 3 } });
    expect(curriculumLab.view(open(encodeConfigToHash(r.config)))).toEqual(CURRICULUM_START);
  });
  it('Forgetting: the digits preset’s regime as one run at 3 seeds', () => {
    const digits = PRESETS.find((p) => p.id === 'digits')!.regime!;
    expect(FORGETTING_START).toMatchObject({
      dataset: 'digits',
      tasks: [[0, 1, 2, 3, 4], [5], [6], [7], [8], [9]],
      strategy: 'finetune',
      lr: 2e-5,
      firstTaskEpochs: digits.firstTaskEpochs,
      epochs: digits.epochs,
      trainPerClass: digits.trainPerClass,
      head: 'all',
      batchSize: 64,
      seeds: 3,
    });
  });
  it('Open world: the near-far preset is valid, has 3 seeds, and its near set comes from the ID dataset', () => {
    const p = OPEN_WORLD_PRESETS['near-far'];
    expect(validateOpenWorldSettings(p)).toEqual([]);
    expect(p.seeds).toBe(3);
    expect(p.oodSets.map((s) => oodKind(p, s))).toEqual(['near', 'far']);
    expect(openWorldLab.view(validateConfig({ openWorld: p }).config)).toEqual(p);
  });
});
