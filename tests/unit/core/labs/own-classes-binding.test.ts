/**
 * The Your-classes lab's binding (its entry's `view` and `apply`, src/core/labs/own-classes/index.ts) and where its page
 * starts (the lab kit's experimentStart, src/ui/common/lab/lab-experiment.svelte.ts): its settings applied and checked
 * as a link would be read back the same; a change of one setting changes that setting only; every config, frozen v1
 * links included, read and written back unchanged (the same compact form and hash); old links open to the same
 * settings.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, defaultConfig, validateConfig, type ExperimentConfig } from '../../../../src/core/config/schema';
import { OWN_CLASSES_FILL, type OwnClassesConfig } from '../../../../src/core/labs/own-classes/section';
import { configHash, decodeConfigFromHash, encodeConfigToHash } from '../../../../src/core/config/url-codec';
import { LABS } from '../../../../src/core/labs';
import { ownClassesLab } from '../../../../src/core/labs/own-classes';
import { experimentStart } from '../../../../src/ui/common/lab/lab-experiment.svelte';

const TINY = { source: 'encoder', model: 'clip-vision-tiny', precision: 'fp32', weights: { kind: 'self-hosted', path: '/models/cil-lab/' } } as const;
const HUB = { source: 'encoder', model: 'Xenova/clip-vit-base-patch32', precision: 'q8', weights: { kind: 'hub' } } as const;

/**
 * v1 links made before the binding (encodeConfigToHash at a2240f2; the first from its JSON written by hand, as the
 * first builds with the lab wrote it) and the section each opened to. If this fails, an old link would now open
 * something else: see src/core/config/schema.ts rules 2–4.
 */
const FROZEN: Record<string, { link: string; lab: string; section: OwnClassesConfig | undefined }> = {
  // the Time lab's link, made before the Your-classes lab: no section
  'without the section': { link: '#v1.N4IgNghgRiBcIBcCWBbApiANI1HagGc00ATOAJgF9KgAAA', lab: 'time', section: undefined },
  // the first builds with the lab: no frame rate (8 a second) and no names, the experiment on the Orderings tab
  'with the section, before its frame rate': {
    link: '#v1.N4IgNghgRiBcIHsBOATApkglgOwOYGcQAaRAd2wGFJ981DZQBja2-gbRAFsBXXYkAA5ps_RtwEgAuiQAuSCDgAKGKhBpwATAAZZdGcqSr1sAKwl8ciDLS4AnnBD5MnAWDSNMYfrTQo4AZhJhRgR0JDhQfARuJEY0B2DQjH5OJK94AA1hBAA3CAB6ZkwBAFoczBkSqDU0EoErRgALfw1-ASR3TCcEEXgARwAOflI0TFxGmXpQAGscP3hG7hgAX1XloAA',
    lab: 'orderings',
    section: { classes: ['mug', 'pen', 'cup'], trainPerClass: 20, testPerClass: 5, strategy: 'simplecil', seed: 3, encoder: HUB, fps: 8 },
  },
  // every field: the frame rate and the names panel's CLIP text settings
  'with the section, every field': {
    link: '#v1.N4IgNghgRiBcIHsDuA7AtAY0gZ2wU2xABpFUBhHfQ2ULCXAuAbRACc8ATYkAc3bxTcoYAK55uATzxgwyEAF0SAjAg55WcUAFtV0uCCwBLAA5oAboeyGE6AC6GUE7sfYZL1wfABmxgMwAmbiQ8Qx4AC1tqUABrBy54fDAvNDCEbFtOZwhbMP0Aeh01MGw8tzA0SCg8kABfGpIfal8ABhIUCC1GGhAOWwljcW8_QJJCvXgyiuhSsBM0e0cgkPDIzRBYlHiQROTU9MySY2zc-ALdYuq6knxM2AB2Egz0gAV1Cnomx9YIB1fWd9wcAAbHUgA',
    lab: 'own-classes',
    section: {
      classes: ['red', 'green', 'blue', 'yellow'],
      trainPerClass: 6,
      testPerClass: 3,
      strategy: 'finetune',
      seed: 7,
      encoder: TINY,
      fps: 30,
      names: { model: 'cil-lab/clip-tiny', dtype: 'fp32', prompt: { kind: 'bare' }, weights: { kind: 'self-hosted', path: '/models/' } },
    },
  },
};

function open(link: string): ExperimentConfig {
  const r = decodeConfigFromHash(link);
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

/** `change` applied to `base`, checked as a link would be (no errors), and read back. */
function roundTrip(change: Partial<OwnClassesConfig>, base: ExperimentConfig = defaultConfig()): { config: ExperimentConfig; back: OwnClassesConfig } {
  const r = validateConfig(ownClassesLab.apply(base, change));
  expect(r.errors).toEqual([]);
  return { config: r.config, back: ownClassesLab.view(r.config) };
}

const SETTINGS: OwnClassesConfig[] = [
  structuredClone(OWN_CLASSES_FILL) as OwnClassesConfig,
  { classes: ['mug', 'pen'], trainPerClass: 12, testPerClass: 4, strategy: 'ranpac', seed: 5, encoder: TINY, fps: 15 },
  FROZEN['with the section, every field'].section!,
];

describe('the Your-classes lab reads and writes the experiment through its entry', () => {
  it('has view and apply, and no tab of its own (its tab always shows the section)', () => {
    const entry = LABS.find((l) => l.id === 'own-classes')!;
    expect(typeof entry.view).toBe('function');
    expect(typeof entry.apply).toBe('function');
    expect('tab' in entry).toBe(false);
  });

  it('its settings applied and read back are the same settings; the experiment’s lab stays what it was', () => {
    for (const s of SETTINGS) {
      const { config, back } = roundTrip(s);
      expect(back).toEqual(s);
      expect(config.lab).toBe(defaultConfig().lab);
      expect(roundTrip(s, { ...defaultConfig(), lab: 'time' }).config.lab).toBe('time');
    }
    // the fill-in leaves no section, so every other config keeps its compact form and hash
    expect(roundTrip(SETTINGS[0]).config.ownClasses).toBeUndefined();
  });

  it('a change of one setting changes that setting only', () => {
    const { config } = roundTrip(SETTINGS[2]);
    for (const change of [{ strategy: 'simplecil' }, { fps: 4 }, { classes: ['red', 'blue'] }, { encoder: HUB }] as Partial<OwnClassesConfig>[])
      expect(roundTrip(change, config).back).toEqual({ ...SETTINGS[2], ...change });
  });

  it('does not change the config it is given', () => {
    const config = open(FROZEN['with the section, every field'].link);
    const before = structuredClone(config);
    ownClassesLab.apply(config, { classes: [], strategy: 'ncm' });
    expect(config).toEqual(before);
  });

  for (const [name, f] of Object.entries(FROZEN)) {
    it(`an old v1 link ${name} opens unchanged: the same section and settings, and view → apply gives the same config back`, () => {
      const config = open(f.link);
      expect(config.lab).toBe(f.lab);
      expect(config.ownClasses).toEqual(f.section);
      expect(ownClassesLab.view(config)).toEqual(f.section ?? OWN_CLASSES_FILL);
      const back = validateConfig(ownClassesLab.apply(config, ownClassesLab.view(config)));
      expect(back.errors).toEqual([]);
      expect(canonicalJson(back.config)).toBe(canonicalJson(config));
      expect(configHash(back.config)).toBe(configHash(config));
      // and applying no change gives the same config too
      expect(canonicalJson(validateConfig(ownClassesLab.apply(config, {})).config)).toBe(canonicalJson(config));
    });
  }

  it('a link made now keeps meaning what it says (its section read back from the link)', () => {
    const { config } = roundTrip(SETTINGS[1]);
    expect(ownClassesLab.view(open(encodeConfigToHash(config)))).toEqual(SETTINGS[1]);
  });
});

describe('where the Your-classes tab starts (experimentStart over its entry)', () => {
  it('a new visitor starts on the lab’s start, the fill-in (no classes yet), as does a link without the section', () => {
    expect(experimentStart(ownClassesLab, defaultConfig(), null)).toEqual({ settings: OWN_CLASSES_FILL, unused: [], owns: true });
    const without = open(FROZEN['without the section'].link);
    expect(experimentStart(ownClassesLab, without, 'time')).toEqual({ settings: OWN_CLASSES_FILL, unused: [], owns: true });
  });

  it('a link with the section opens its settings, whichever lab it was made on', () => {
    for (const f of Object.values(FROZEN).filter((x) => x.section))
      expect(experimentStart(ownClassesLab, open(f.link), f.lab as never)).toEqual({ settings: f.section, unused: [], owns: true });
  });
});
