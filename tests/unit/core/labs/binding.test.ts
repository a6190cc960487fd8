/**
 * Each lab's binding (its entry's `view` and `apply`, src/core/labs/<lab>/index.ts), once per lab that has one: the lab's
 * settings applied to an experiment, checked as a link would be, read back the same; a change of one setting changes
 * that setting only; a v1 link made before (frozen here, as in tests/unit/core/config/lab-seeds.test.ts) opens to the
 * same settings, and applying no change keeps them.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig, type ExperimentConfig, type LabId } from '../../../../src/core/config/schema';
import { decodeConfigFromHash } from '../../../../src/core/config/url-codec';
import { CURRICULUM_FILL } from '../../../../src/core/labs/curriculum/section';
import { LABS } from '../../../../src/core/labs';
import { CURRICULUM_LAB_START, curriculumLab } from '../../../../src/core/labs/curriculum';
import type { LabEntry } from '../../../../src/core/labs/lab';
import { openWorldLab } from '../../../../src/core/labs/open-world';
import { timeLab } from '../../../../src/core/labs/time';
import { OPEN_WORLD_DEFAULTS, OPEN_WORLD_PRESETS } from '../../../../src/core/labs/open-world/settings';
import { defaultTimeLabConfig, TIME_LAB_START } from '../../../../src/core/labs/time/settings';

function open(link: string): ExperimentConfig {
  const r = decodeConfigFromHash(link);
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

/** `change` applied to `base`, checked as a link would be (no errors), and read back. */
function roundTrip<S>(lab: LabEntry<LabId, S>, change: Partial<S>, base: ExperimentConfig = defaultConfig()): { config: ExperimentConfig; back: S } {
  const r = validateConfig(lab.apply!(base, change));
  expect(r.errors).toEqual([]);
  return { config: r.config, back: lab.view!(r.config) };
}

interface Case<S> {
  lab: LabEntry<LabId, S>;
  settings: S[];
  /** one setting changed alone */
  change: Partial<S>;
  /** a frozen v1 link of the lab and the settings it opened to before the binding */
  v1: { link: string; settings: S };
}

const CASES: Case<any>[] = [
  {
    lab: timeLab,
    settings: [defaultTimeLabConfig(), TIME_LAB_START, { ...defaultTimeLabConfig(), model: 'cnn', buffer: 'reservoir', k: 300, lr: 0.01, seeds: 2 }],
    change: { epochs: 7 },
    v1: { link: '#v1.N4IgNghgRiBcIBcCWBbApiANI1HagGc00ATOAJgF9KgAAA', settings: { ...defaultTimeLabConfig(), seed: 2 } },
  },
  {
    lab: openWorldLab,
    settings: [OPEN_WORLD_DEFAULTS, ...Object.values(OPEN_WORLD_PRESETS)],
    change: { headEpochs: 4 },
    v1: {
      link: '#v1.N4IgNghgRiBcIHsAOBTAdgWgO4IE5gBMQAaRVNAdT0LlAIgBcIBnFBuEAgSwHMuHmJECiQIAxgAtBsAGykJKCAQCioydIDM8rgQLo4AbQCMAJgAcAXVIIEBAMptpBzr37NZGAJxCAZiwlcCJgAtmhczOwWAL5RQA',
      settings: null,
    },
  },
  {
    lab: curriculumLab,
    settings: [CURRICULUM_FILL, CURRICULUM_LAB_START, { ...CURRICULUM_FILL, scenario: 'til', epochs: 9, seeds: 2 }],
    change: { scenario: 'both' },
    v1: { link: '#v1.N4IgxgrgTlCWkBsIFsQC5QHsoBMCmU6IyATLCADQgDOeeO6AjAL5UICGARkZDPBElTMgAA', settings: null },
  },
];

describe('every lab with a tab of its own reads and writes the experiment through its entry', () => {
  it('Time, Open world and Curriculum have view, apply and a tab', () => {
    const bound = LABS.filter((l) => 'tab' in l && l.tab).map((l) => l.id);
    expect(bound).toEqual(['time', 'open-world', 'curriculum']);
  });

  for (const c of CASES) {
    describe(c.lab.id, () => {
      it('its settings applied and read back are the same settings, and the experiment is the lab’s', () => {
        for (const s of c.settings) {
          const { config, back } = roundTrip(c.lab, s);
          expect(back).toEqual(s);
          expect(config.lab).toBe(c.lab.id);
          expect(c.lab.tab!.owns(config)).toBe(true);
          expect(c.lab.tab!.unused(config)).toEqual([]);
        }
      });

      it('a change of one setting changes that setting only', () => {
        const { config } = roundTrip(c.lab, c.settings[1]);
        const { back } = roundTrip(c.lab, c.change, config);
        expect(back).toEqual({ ...c.settings[1], ...c.change });
      });

      it('a v1 link made before opens to the same settings, and applying no change keeps them', () => {
        const config = open(c.v1.link);
        const before = c.lab.view!(config);
        if (c.v1.settings) expect(before).toEqual(c.v1.settings);
        // a link made before is not yet the lab's experiment: its tab starts on its settings
        expect(c.lab.tab!.owns(config)).toBe(false);
        expect(c.lab.tab!.start(config, c.lab.id as never)).toEqual(before);
        expect(roundTrip(c.lab, {}, config).back).toEqual(before);
      });
    });
  }
});
