import { describe, expect, it } from 'vitest';
import { compactConfig, defaultConfig, LAB_IDS, validateConfig } from '../../../../src/core/config/schema';
import { configHash, decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { openWorldOf } from '../../../../src/core/config/sections/open-world';
import { timeOf } from '../../../../src/core/config/sections/time';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS } from '../../../../src/core/ood/config';
import { defaultTimeLabConfig } from '../../../../src/core/stream/config';

describe('config sections of the Open-world and Time labs', () => {
  it('are absent by default: old configs keep their compact form, link and hash', () => {
    const d = defaultConfig();
    expect(d.openWorld).toBeUndefined();
    expect(d.time).toBeUndefined();
    expect(openWorldOf(d)).toEqual(OPEN_WORLD_DEFAULTS);
    expect(timeOf(d)).toEqual(defaultTimeLabConfig());
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
    expect(errors({ openWorld: { oodSets: ['fashion-mnist:0-2'] } }).some((e) => /overlaps the ID classes/.test(e.message))).toBe(true);
    expect(errors({ openWorld: { marginIn: -1, marginOut: -5 } }).some((e) => /m_in < m_out/.test(e.message))).toBe(true);
    expect(errors({ openWorld: { bogus: 1 } }).map((e) => e.path)).toContain('openWorld.bogus');
    expect(errors({ time: { buckets: 11 } }).map((e) => e.path)).toContain('time.buckets');
    expect(errors({ time: { alpha: { kind: 'dynamic', c: 7 } } }).map((e) => e.path)).toContain('time.alpha');
    expect(errors({ time: { bogus: 1 } }).map((e) => e.path)).toContain('time.bogus');
  });
});
