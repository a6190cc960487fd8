/**
 * The Forgetting lab's sections (docs/science.md §3): conformal prediction (miscoverage, calibration split, score,
 * softmax), the one-click preset and how many seeds one run trains.
 */
import { list, show, suggestion } from '../checker';
import { V1_FILL } from '../defaults';
import { CONFIG_LIMITS } from '../limits';
import { FORGETTING_PRESET_IDS, type ConformalConfig, type ForgettingConfig, type ForgettingPresetId } from '../types';
import type { ConfigSection } from './section';

export const conformalSection: ConfigSection<'conformal'> = {
  check(c, v): ConformalConfig {
    const cf = c.object(v, 'conformal', ['alpha', 'calibrationRatio', 'score', 'raps', 'softmax']);
    const r = c.object(cf.raps, 'conformal.raps', ['lambda', 'kReg']);
    return {
      alpha: c.num(cf.alpha, 'conformal.alpha', { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true }, V1_FILL.conformal.alpha),
      calibrationRatio: c.num(
        cf.calibrationRatio,
        'conformal.calibrationRatio',
        { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true },
        V1_FILL.conformal.calibrationRatio,
      ),
      score: c.choice(cf.score, 'conformal.score', ['aps', 'lac', 'raps'] as const, V1_FILL.conformal.score),
      raps: {
        lambda: c.num(r.lambda, 'conformal.raps.lambda', { min: 0, max: 100 }, V1_FILL.conformal.raps.lambda),
        kReg: c.int(r.kReg, 'conformal.raps.kReg', 0, CONFIG_LIMITS.kReg, V1_FILL.conformal.raps.kReg),
      },
      softmax: c.choice(cf.softmax, 'conformal.softmax', ['seen', 'all'] as const, V1_FILL.conformal.softmax),
    };
  },
  /** The calibration split must leave images on both sides. */
  crossCheck(c, { lab, data, conformal }) {
    if (lab !== 'forgetting' || data.trainPerClass === null) return;
    const held = Math.round(conformal.calibrationRatio * data.trainPerClass);
    if (held < 1 || held >= data.trainPerClass) {
      c.error(
        'conformal.calibrationRatio',
        `With ${data.trainPerClass} training images per class, a calibration ratio of ${conformal.calibrationRatio} holds out ${held}; it must hold out at least 1 and leave at least 1 to train on.`,
      );
    }
  },
};

export const forgettingSection: ConfigSection<'forgetting'> = {
  check(c, v): ForgettingConfig {
    const fg = c.object(v, 'forgetting', ['preset', 'seeds']);
    const forgetting: ForgettingConfig = { preset: V1_FILL.forgetting.preset };
    if (fg.seeds !== undefined) {
      const seeds = c.int(fg.seeds, 'forgetting.seeds', 1, CONFIG_LIMITS.labSeeds, 1);
      if (seeds !== 1) forgetting.seeds = seeds;
    }
    if (fg.preset !== undefined && fg.preset !== null) {
      if (typeof fg.preset === 'string' && (FORGETTING_PRESET_IDS as readonly string[]).includes(fg.preset))
        forgetting.preset = fg.preset as ForgettingPresetId;
      else {
        const hint = typeof fg.preset === 'string' ? suggestion(fg.preset, FORGETTING_PRESET_IDS) : '';
        c.error('forgetting.preset', `Must be one of ${list(FORGETTING_PRESET_IDS)}, or null (one run); got ${show(fg.preset)}.${hint}`);
      }
    }
    return forgetting;
  },
};
