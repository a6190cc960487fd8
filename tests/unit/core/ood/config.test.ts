import { describe, expect, it } from 'vitest';
import {
  OPEN_WORLD_DEFAULTS,
  OPEN_WORLD_PRESETS,
  oodKind,
  openWorldKey,
  parseOodSetName,
  validateOpenWorldSettings,
  withOpenWorldDefaults,
} from '../../../../src/core/ood/config';

describe('Open-world lab settings', () => {
  it('the defaults and presets are valid', () => {
    for (const p of Object.values(OPEN_WORLD_PRESETS)) expect(validateOpenWorldSettings(p)).toEqual([]);
    expect(OPEN_WORLD_DEFAULTS.oodSets.map((s) => oodKind(OPEN_WORLD_DEFAULTS, s))).toEqual(['near', 'far']);
  });
  it('parses OOD set names', () => {
    expect(parseOodSetName('fashion-mnist:6-9')).toEqual({ dataset: 'fashion-mnist', classes: [6, 7, 8, 9] });
    expect(parseOodSetName('digits')).toEqual({ dataset: 'digits', classes: null });
    expect(parseOodSetName('digits:')).toBeNull();
  });
  it('says what is wrong', () => {
    const bad = validateOpenWorldSettings({
      ...OPEN_WORLD_DEFAULTS,
      classes: [0, 1, 2, 3, 4],
      detectors: [],
      oodSets: ['fashion-mnist:4-9', 'svhn'],
      marginIn: -2,
      marginOut: -5,
    });
    expect(bad).toEqual([
      '5 classes do not split into 3 equal tasks.',
      'Choose at least one detector.',
      '"fashion-mnist:4-9" overlaps the ID classes; a near-OOD set must be held-out classes.',
      '"svhn" is not an OOD set: use a dataset (fashion-mnist, digits, emoji), optionally with classes, e.g. fashion-mnist:6-9.',
      'BER needs m_in < m_out (ID energies are pushed below m_in, pseudo-OOD above m_out).',
    ]);
    expect(validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, oodSets: ['fashion-mnist'] })[0]).toMatch(/ID dataset itself/);
  });
  it('fills missing fields and keys settings canonically', () => {
    expect(withOpenWorldDefaults({ seed: 4 }).seed).toBe(4);
    const a = openWorldKey(OPEN_WORLD_DEFAULTS);
    expect(openWorldKey({ ...OPEN_WORLD_DEFAULTS })).toBe(a);
    expect(openWorldKey({ ...OPEN_WORLD_DEFAULTS, seed: 1 })).not.toBe(a);
  });
});
