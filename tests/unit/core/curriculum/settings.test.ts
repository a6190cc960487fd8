// The Curriculum lab's settings table (src/core/labs/curriculum/settings.ts): its defaults are the v1 fill-in as released
// (frozen: links made before keep their meaning), its key order is the settings' (the section's equality and the
// runs' store keys), the run settings of the lab's settings keep the object the app's stored runs are keyed by, and the
// --config/--link mapping names each field's flag.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { curriculumFlags } from '../../../../src/cli/curriculum';
import { TRAINING_FIELDS } from '../../../../src/core/config/lab-training';
import { CURRICULUM_FILL } from '../../../../src/core/labs/curriculum/section';
import {
  CURRICULUM_COMMON,
  CURRICULUM_SETTINGS,
  curriculumTraining,
  type CurriculumConfig,
  type CurriculumOrderChoice,
  type CurriculumOwn,
} from '../../../../src/core/labs/curriculum/settings';

describe('the Curriculum settings table', () => {
  it('derives the settings type and the own form (the v1 fields; a new field is optional and needs no edit here)', () => {
    type V1 = 'datasets' | 'order' | 'scenario' | 'strategies' | 'epochs' | 'hidden' | 'trainPerClass' | 'testPerClass' | 'seed' | 'seeds';
    expectTypeOf<Pick<CurriculumConfig, V1>>().toEqualTypeOf<{
      datasets: string[];
      order: CurriculumOrderChoice;
      scenario: 'cil' | 'til' | 'both';
      strategies: string[];
      epochs: number;
      hidden: number;
      trainPerClass: number;
      testPerClass: number;
      seed: number;
      seeds?: number;
    }>();
    expectTypeOf<Pick<CurriculumOwn, 'datasets' | 'order' | 'scenario'>>().toEqualTypeOf<{
      datasets: string[];
      order: CurriculumOrderChoice;
      scenario: 'cil' | 'til' | 'both';
    }>();
  });

  it('its defaults are the v1 fill-in as released, in its key order; the common sections hold the rest', () => {
    expect(JSON.stringify(CURRICULUM_FILL)).toBe(
      '{"datasets":["digits","fashion-mnist","emoji-animals","emoji-vehicles"],"order":"all","scenario":"both","strategies":["finetune","replay"],"epochs":3,"hidden":256,"trainPerClass":100,"testPerClass":50,"seed":0}',
    );
    // (what the own form refused before the table: the strategies, then the training the labs of their own kind share)
    expect(Object.entries(CURRICULUM_COMMON)).toEqual(Object.entries({ strategies: 'strategies', ...TRAINING_FIELDS }));
    expect([
      CURRICULUM_SETTINGS.epochs.max,
      CURRICULUM_SETTINGS.hidden.max,
      CURRICULUM_SETTINGS.trainPerClass.max,
      CURRICULUM_SETTINGS.testPerClass.max,
    ]).toEqual([50, 1024, 6000, 1000]);
  });

  it('the run settings: the object the app keyed its stored runs by before, augmented with an emoji dataset', () => {
    expect(JSON.stringify(curriculumTraining(CURRICULUM_FILL))).toBe('{"model":{"kind":"mlp","hidden":[256]},"epochs":3,"augment":true}');
    expect(curriculumTraining({ datasets: ['digits', 'fashion-mnist'], hidden: 64, epochs: 1 })).toEqual({
      model: { kind: 'mlp', hidden: [64] },
      epochs: 1,
      augment: false,
    });
  });

  it('the flags a config stands for: each field its flag, m2i and i2m as the pair, several seeds as a range', () => {
    expect(curriculumFlags({ ...CURRICULUM_FILL, order: 'i2m', seeds: 3, seed: 2 })).toEqual({
      datasets: 'digits,fashion-mnist,emoji-animals,emoji-vehicles',
      order: 'pair',
      scenario: 'both',
      strategy: 'finetune,replay',
      epochs: '3',
      hidden: '256',
      'train-per-class': '100',
      'test-per-class': '50',
      seed: '2',
      seeds: '2-4',
    });
    expect(curriculumFlags({ ...CURRICULUM_FILL, order: ['emoji-vehicles', 'digits', 'fashion-mnist', 'emoji-animals'] }).order).toBe(
      'emoji-vehicles,digits,fashion-mnist,emoji-animals',
    );
  });
});
