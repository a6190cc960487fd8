import { describe, expect, it } from 'vitest';
import {
  OPEN_WORLD_DEFAULTS,
  OPEN_WORLD_PRESETS,
  oodKind,
  openWorldIssues,
  openWorldKey,
  parseOodSetName,
  parseOpenWorldClasses,
  readOodSet,
  validateOpenWorldSettings,
  withOpenWorldDefaults,
} from '../../../../src/core/labs/open-world/settings';

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
      '"fashion-mnist:4-9" shares classes 4 with the ID classes; a near-OOD set must be held-out classes.',
      '"svhn" is not an OOD set: svhn is not a built-in dataset (use fashion-mnist, digits, emoji, optionally with classes, e.g. fashion-mnist:6-9).',
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

describe('Open-world settings: every size bounded before it is expanded or allocated (limits.ts)', () => {
  const fast = <T>(f: () => T): T => {
    const t0 = performance.now();
    const out = f();
    expect(performance.now() - t0).toBeLessThan(100);
    return out;
  };
  it('an OOD set with a huge class range is refused at once, with the bound (it froze the tab at 2.1 GB)', () => {
    const errors = fast(() => validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, oodSets: ['digits:6-99999999999999999999'] }));
    expect(errors).toEqual([
      'OOD set "digits:6-99999999999999999999": Class 99999999999999999999 is beyond the bound: an experiment has at most 1 000 classes (0..999).',
    ]);
    expect(fast(() => readOodSet('fashion-mnist:0-4000000000'))).toEqual({
      ok: false,
      error: 'OOD set "fashion-mnist:0-4000000000": Class 4000000000 is beyond the bound: an experiment has at most 1 000 classes (0..999).',
    });
    expect(parseOodSetName('digits:6-99999999999999999999')).toBeNull();
  });
  it('the class field: a huge range is a message, not a frozen tab and a RangeError', () => {
    expect(fast(() => parseOpenWorldClasses('0-20000000', 'fashion-mnist'))).toEqual({
      classes: [],
      error: 'ID classes: Class 20000000 does not exist: fashion-mnist has classes 0..9.',
    });
    expect(fast(() => parseOpenWorldClasses('0-99999999999', 'digits')).error).toBe('ID classes: Class 99999999999 does not exist: digits has classes 0..9.');
    expect(parseOpenWorldClasses('0-2 5,7', 'digits')).toEqual({ classes: [0, 1, 2, 5, 7] });
    expect(parseOpenWorldClasses('0-5', 'fashion-mnist')).toEqual({ classes: [0, 1, 2, 3, 4, 5] });
  });
  it('the model is bounded (it had no bound: [4096 × 8] peaked at 6.2 GB): at most 8 M weights in this lab', () => {
    const big = validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, hidden: Array(8).fill(4096) });
    expect(big).toEqual([
      "The Open-world lab's model can have at most 8 000 000 weights (the tab also keeps a checkpoint per step and fits the detectors on its features); " +
        'this MLP on 28×28×1 images with 6 outputs has 120 709 126: use fewer or narrower hidden layers.',
    ]);
    // 784·2048 + 2048 + 2048·2048 + 2048 + 2048·1024 + 1024 + 1024·6 + 6 = 7 908 358 weights: within the bound
    expect(validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, hidden: [2048, 2048, 1024] })).toEqual([]);
    expect(validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, hidden: [2048, 2048, 2048] })[0]).toMatch(/has 10 012 678:/);
  });
  it('epochs, memory, head epochs, per-class caps, seeds and margins have the link’s bounds (the CLI took --epochs 5000)', () => {
    const issues = openWorldIssues({
      ...OPEN_WORLD_DEFAULTS,
      epochs: 5000,
      memory: 999_999_999_999,
      headEpochs: 1001,
      trainPerClass: 1e7,
      seed: -1,
      orderSeed: 2 ** 32,
      marginIn: -1e5,
    });
    expect(issues.map((i) => i.field)).toEqual(['memory', 'epochs', 'trainPerClass', 'seed', 'orderSeed', 'headEpochs', 'marginIn']);
    expect(issues.find((i) => i.field === 'epochs')?.message).toBe('Epochs must be a whole number from 1 to 1 000; got 5000.');
    expect(issues.find((i) => i.field === 'memory')?.message).toBe('The memory must be a whole number from 1 to 1 000 000 exemplars; got 999999999999.');
    expect(validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, epochs: 1000, memory: 1_000_000, headEpochs: 1000 })).toEqual([]);
  });
  it('at most 16 OOD sets and 32 detectors', () => {
    const sets = Array.from({ length: 17 }, (_, i) => `emoji:${i}`);
    expect(validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, oodSets: sets })).toEqual(['At most 16 OOD sets; got 17.']);
    expect(validateOpenWorldSettings({ ...OPEN_WORLD_DEFAULTS, detectors: Array(33).fill('msp') })).toEqual(['At most 32 detectors; got 33.']);
  });
});
