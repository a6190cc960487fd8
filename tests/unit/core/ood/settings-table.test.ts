// The Open-world lab's settings table (src/core/labs/open-world/settings.ts OPEN_WORLD_SETTINGS): the type it derives is the one
// the lab always had, its own form's fields and common fields are as before, and the command line the lab shows
// (settingArgs) is the one it always showed (the strings below were printed by the hand-written builder it replaced).
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  OPEN_WORLD_COMMON,
  OPEN_WORLD_DEFAULTS,
  OPEN_WORLD_OWN_KEYS,
  OPEN_WORLD_PRESETS,
  openWorldKey,
  type OpenWorldOwn,
  type OpenWorldSettings,
} from '../../../../src/core/labs/open-world/settings';
import { TRAINING_FIELDS } from '../../../../src/core/config/lab-training';
import type { DetectorId } from '../../../../src/core/ood/detectors';
import { oodCommandLine } from '../../../../src/services/ood-export';

describe('the Open-world settings table', () => {
  // fields added later go after these (with `absent`): the lab's fields as they were keep their types
  it('derives the settings the lab always had, and its own form', () => {
    type Before = {
      dataset: 'fashion-mnist' | 'digits' | 'emoji';
      classes: number[];
      tasks: number;
      orderSeed: number | null;
      strategy: string;
      memory: number;
      epochs: number;
      hidden: number[];
      trainPerClass: number | null;
      testPerClass: number | null;
      seed: number;
      detectors: DetectorId[];
      oodSets: string[];
      headEpochs: number;
      marginIn: number;
      marginOut: number;
      seeds?: number;
    };
    expectTypeOf<Pick<OpenWorldSettings, keyof Before>>().toEqualTypeOf<Before>();
    type OwnBefore = 'orderSeed' | 'detectors' | 'oodSets' | 'headEpochs' | 'marginIn' | 'marginOut';
    expectTypeOf<Pick<OpenWorldOwn, OwnBefore>>().toEqualTypeOf<Pick<OpenWorldSettings, OwnBefore>>();
    expect(OPEN_WORLD_OWN_KEYS.slice(0, 7)).toEqual(['from', 'orderSeed', 'detectors', 'oodSets', 'headEpochs', 'marginIn', 'marginOut']);
    // the section's own form left these to the common sections before its table, in these words
    expect(OPEN_WORLD_COMMON).toMatchObject({
      dataset: 'dataset',
      classes: 'classes',
      tasks: 'taskSizes',
      strategy: 'strategies',
      memory: 'strategies',
      ...TRAINING_FIELDS,
    });
  });

  it('the store key of a run is as before (seeds not in it)', () => {
    expect(openWorldKey(OPEN_WORLD_DEFAULTS)).toBe(
      '[["classes",[0,1,2,3,4,5]],["dataset","fashion-mnist"],["detectors",["msp","energy","ber"]],["epochs",3],["headEpochs",10],["hidden",[256,128]],' +
        '["marginIn",-10],["marginOut",-4],["memory",200],["oodSets",["fashion-mnist:6-9","digits"]],["orderSeed",null],["seed",0],["strategy","replay"],' +
        '["tasks",3],["testPerClass",null],["trainPerClass",null]]',
    );
    expect(openWorldKey({ ...OPEN_WORLD_DEFAULTS, seeds: 3 })).toBe(openWorldKey(OPEN_WORLD_DEFAULTS));
  });

  it('the command line the lab shows: every setting by its flag, in the table order', () => {
    expect(oodCommandLine(OPEN_WORLD_PRESETS['near-far'])).toBe(
      'npx cil-lab ood --dataset fashion-mnist --classes 0,1,2,3,4,5 --tasks 3 --strategy replay --memory 200 --epochs 3 --hidden 128 ' +
        '--train-per-class 500 --test-per-class 200 --seeds 0-2 --detectors msp,energy,ber --ood fashion-mnist:6-9,digits --head-epochs 3 --margin-in -10 --margin-out -4',
    );
    expect(oodCommandLine({ ...OPEN_WORLD_PRESETS.quick, orderSeed: 7, seeds: 2 })).toBe(
      'npx cil-lab ood --dataset digits --classes 0,1,2,3,4,5 --tasks 3 --protocol rs --seeds 7 --strategy replay --memory 200 --epochs 6 --hidden 128 ' +
        '--seed 0 --detectors msp,energy,ber --ood digits:6-9,fashion-mnist --head-epochs 3 --margin-in -10 --margin-out -4',
    );
  });
});
