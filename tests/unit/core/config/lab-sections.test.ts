import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS, CURRICULUM_LIMITS, modelSize, TIME_LIMITS } from '../../../../src/core/config/limits';
import { compactConfig, defaultConfig, LAB_IDS, validateConfig } from '../../../../src/core/config/schema';
import { configHash, decodeConfigFromHash, encodeConfigToHash, toBase64Url } from '../../../../src/core/config/url-codec';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS } from '../../../../src/core/labs/open-world/settings';
import { defaultTimeLabConfig } from '../../../../src/core/labs/time/settings';
import { openWorldLab } from '../../../../src/core/labs/open-world';
import { timeLab } from '../../../../src/core/labs/time';

describe('config sections of the Open-world and Time labs', () => {
  it('are absent by default: old configs keep their compact form, link and hash', () => {
    const d = defaultConfig();
    expect(d.openWorld).toBeUndefined();
    expect(d.time).toBeUndefined();
    expect(openWorldLab.view(d)).toEqual(OPEN_WORLD_DEFAULTS);
    expect(timeLab.view(d)).toEqual(defaultTimeLabConfig());
    const same = validateConfig({ openWorld: { ...OPEN_WORLD_DEFAULTS }, time: defaultTimeLabConfig() });
    expect(same.errors).toEqual([]);
    expect(same.config.openWorld).toBeUndefined();
    expect(same.config.time).toBeUndefined();
    expect(configHash(same.config)).toBe(configHash(d));
    expect('openWorld' in compactConfig(d)).toBe(false);
    expect('time' in compactConfig(d)).toBe(false);
  });

  it('carry changed settings through the share link and into the hash', () => {
    const quick = OPEN_WORLD_PRESETS.quick;
    const r = validateConfig({ lab: 'open-world', openWorld: quick, time: { buckets: 7, stream: 'abrupt' } });
    expect(r.errors).toEqual([]);
    expect(r.config.openWorld).toEqual(quick);
    expect(r.config.time).toMatchObject({ buckets: 7, stream: 'abrupt' });
    const decoded = decodeConfigFromHash(encodeConfigToHash(r.config));
    if (!decoded.ok) throw new Error(decoded.error);
    const back = decoded.config;
    expect(back.openWorld).toEqual(quick);
    expect(back.time?.buckets).toBe(7);
    expect(back.lab).toBe('open-world');
    expect(configHash(r.config)).not.toBe(configHash(defaultConfig()));
  });

  it('know both labs as lab ids', () => {
    expect(LAB_IDS).toContain('open-world');
    expect(LAB_IDS).toContain('time');
    expect(validateConfig({ lab: 'time' }).errors).toEqual([]);
  });

  it('reject bad input at its path, with the bound in the message', () => {
    const errors = (v: unknown) => validateConfig(v).errors;
    const ow = errors({ openWorld: { epochs: 10 ** 9 } });
    expect(ow.map((e) => e.path)).toContain('openWorld.epochs');
    expect(ow[0].message).toMatch(/1000/);
    expect(errors({ openWorld: { detectors: ['msp', 'nope'] } }).some((e) => e.path === 'openWorld' && /nope/.test(e.message))).toBe(true);
    expect(errors({ openWorld: { oodSets: ['fashion-mnist:0-2'] } }).some((e) => /shares classes 0, 1, 2 with the ID classes/.test(e.message))).toBe(true);
    expect(errors({ openWorld: { marginIn: -1, marginOut: -5 } }).some((e) => /m_in < m_out/.test(e.message))).toBe(true);
    expect(errors({ openWorld: { bogus: 1 } }).map((e) => e.path)).toContain('openWorld.bogus');
    expect(errors({ time: { buckets: 11 } }).map((e) => e.path)).toContain('time.buckets');
    expect(errors({ time: { alpha: { kind: 'dynamic', c: 7 } } }).map((e) => e.path)).toContain('time.alpha');
    expect(errors({ time: { bogus: 1 } }).map((e) => e.path)).toContain('time.bogus');
  });
});

describe('links of the Open-world, Time and Curriculum labs: every size bounded (limits.ts)', () => {
  const link = (config: unknown) => `#v1.${toBase64Url(LZString.compressToUint8Array(JSON.stringify(config)))}`;
  it('a link with a huge OOD class range is refused at once naming the bound, not "copy the link again"', () => {
    const r = decodeConfigFromHash(link({ lab: 'open-world', openWorld: { oodSets: ['digits:6-99999999999999999999'] } }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain('openWorld: OOD set "digits:6-99999999999999999999": Class 99999999999999999999 is beyond the bound');
    expect(r.error).not.toMatch(/could not be read|Copy the whole link again/);
  });
  it("a link with an Open-world model past the lab's 8 M weights is refused", () => {
    const errors = validateConfig({ openWorld: { hidden: Array(8).fill(4096) } }).errors;
    expect(errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      expect.stringMatching(/^openWorld: The Open-world lab's model can have at most 8 000 000 weights/),
    ]);
  });
  it("the Time lab's bounds come from limits.ts (TIME_LIMITS), one above each refused", () => {
    const T = TIME_LIMITS;
    for (const [key, over] of [
      ['buckets', T.buckets.max + 1],
      ['perClass', T.perClass.max + 1],
      ['perClass', T.perClass.min - 1],
      ['trainRatio', T.trainRatio.min / 2],
      ['k', T.k.max + 1],
      ['epochs', T.epochs.max + 1],
      ['batchSize', T.batchSize.max + 1],
    ] as const) {
      expect(validateConfig({ time: { [key]: over } }).errors.map((e) => e.path)).toEqual([`time.${key}`]);
      const at = over > (T[key] as { max: number }).max ? (T[key] as { max: number }).max : (T[key] as { min: number }).min;
      expect(validateConfig({ time: { [key]: at } }).errors).toEqual([]);
    }
    // the largest Time model is within the weights every lab may train
    expect(modelSize({ kind: 'mlp', hidden: Array(T.hiddenLayers).fill(T.width) }, [32, 32, 3], 10).parameters).toBeLessThan(CONFIG_LIMITS.parameters);
  });
  it("the Curriculum lab's bounds come from limits.ts (CURRICULUM_LIMITS)", () => {
    const C = CURRICULUM_LIMITS;
    expect(validateConfig({ curriculum: { epochs: C.epochs, hidden: C.hidden, trainPerClass: C.trainPerClass, testPerClass: C.testPerClass } }).errors).toEqual(
      [],
    );
    expect(validateConfig({ curriculum: { epochs: C.epochs + 1, hidden: C.hidden + 1 } }).errors.map((e) => e.path)).toEqual([
      'curriculum.epochs',
      'curriculum.hidden',
    ]);
  });
});
