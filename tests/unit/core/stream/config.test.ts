import { describe, expect, it } from 'vitest';
import { defaultTimeLabConfig, validateTimeLabConfig } from '../../../../src/core/labs/time/settings';

describe('TimeLabConfig', () => {
  it('defaults validate without issues and round-trip through JSON', () => {
    const d = defaultTimeLabConfig();
    expect(d.stream).toBe('drift');
    expect(d.buckets).toBe(5);
    const r = validateTimeLabConfig(JSON.parse(JSON.stringify(d)));
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual(d);
    expect(validateTimeLabConfig({}).value).toEqual(d);
  });
  it('reports each bad field at its path and keeps the default there', () => {
    const r = validateTimeLabConfig({
      buckets: 11,
      stream: 'river',
      alpha: { kind: 'dynamic', c: 2 },
      protocols: ['iid', 'iid'],
      hidden: [0],
      lr: 0,
      bogus: 1,
    });
    expect(r.issues.map((i) => i.path).sort()).toEqual(['alpha', 'bogus', 'buckets', 'hidden', 'lr', 'protocols', 'stream']);
    expect(r.value?.buckets).toBe(5);
    expect(r.value?.stream).toBe('drift');
    expect(r.issues.find((i) => i.path === 'alpha')?.message).toMatch(/0 < C ≤ 1/);
  });
  it('accepts a full valid config', () => {
    const v = {
      ...defaultTimeLabConfig(),
      stream: 'abrupt',
      buckets: 10,
      buffer: 'reservoir',
      k: 300,
      alpha: { kind: 'dynamic', c: 0.5 },
      protocols: ['streaming'],
      mode: 'linear',
    };
    const r = validateTimeLabConfig(v);
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual(v);
    expect(validateTimeLabConfig(null).value).toBeUndefined();
  });
});
