import { describe, expect, it } from 'vitest';
import { compactConfig, defaultConfig, validateConfig } from '../../../../src/core/config/schema';
import { configHash } from '../../../../src/core/config/url-codec';
import { CURRICULUM_FILL } from '../../../../src/core/labs/curriculum/section';
import { curriculumLab } from '../../../../src/core/labs/curriculum';

describe('config section: curriculum', () => {
  it('is absent by default; old configs keep their compact form and hash', () => {
    const d = defaultConfig();
    expect(d.curriculum).toBeUndefined();
    expect(curriculumLab.view(d)).toEqual(CURRICULUM_FILL);
    const same = validateConfig({ curriculum: { order: 'all' } });
    expect(same.errors).toEqual([]);
    expect(same.config.curriculum).toBeUndefined();
    expect(configHash(same.config)).toBe(configHash(d));
    expect('curriculum' in compactConfig(d)).toBe(false);
  });

  it('keeps a changed curriculum in the compact form and the hash', () => {
    const r = validateConfig({
      lab: 'curriculum',
      curriculum: { datasets: ['digits', 'emoji-food'], order: ['emoji-food', 'digits'], scenario: 'til', epochs: 5 },
    });
    expect(r.errors).toEqual([]);
    expect(r.config.lab).toBe('curriculum');
    expect(r.config.curriculum).toEqual({
      ...CURRICULUM_FILL,
      datasets: ['digits', 'emoji-food'],
      order: ['emoji-food', 'digits'],
      scenario: 'til',
      epochs: 5,
    });
    expect(compactConfig(r.config).curriculum).toEqual({ datasets: ['digits', 'emoji-food'], order: ['emoji-food', 'digits'], scenario: 'til', epochs: 5 });
    expect(configHash(r.config)).not.toBe(configHash(defaultConfig()));
  });

  it('rejects bad input at its path', () => {
    const paths = (v: unknown): string[] => validateConfig({ curriculum: v }).errors.map((e) => e.path);
    expect(paths({ datasets: ['digits', 'nope'] })).toContain('curriculum.datasets[1]');
    expect(paths({ datasets: ['digits'] })).toContain('curriculum.datasets');
    expect(paths({ order: 'random' })).toContain('curriculum.order');
    expect(paths({ order: ['digits'] })).toContain('curriculum.order');
    expect(paths({ scenario: 'dil' })).toContain('curriculum.scenario');
    expect(paths({ datasets: ['digits', 'fashion-mnist', 'emoji-animals', 'emoji-food', 'emoji-vehicles', 'emoji-objects', 'emoji-clothing'] })).toContain(
      'curriculum.order',
    );
    expect(paths({ extra: 1 })).toContain('curriculum.extra');
    expect(paths({ strategies: ['finetune', 'magic'] })).toContain('curriculum.strategies[1]');
    expect(paths({ strategies: [] })).toContain('curriculum.strategies');
    expect(paths({ epochs: 51 })).toContain('curriculum.epochs');
    expect(paths({ epochs: 50 })).toEqual([]);
    expect(paths({ trainPerClass: 6001 })).toContain('curriculum.trainPerClass');
    expect(paths({ testPerClass: 1001 })).toContain('curriculum.testPerClass');
    expect(paths({ hidden: 0 })).toContain('curriculum.hidden');
  });
});
