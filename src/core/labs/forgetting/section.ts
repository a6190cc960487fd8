/**
 * The Forgetting lab's sections (docs/science.md §3): conformal prediction (miscoverage, calibration split, score,
 * softmax), the one-click preset and how many seeds one run trains. Their fields are checked by the lab's settings
 * tables (src/core/labs/forgetting/settings.ts); the rule between them and the other sections is here.
 */
import { CONFORMAL_SETTINGS, FORGETTING_CHECK_ORDER, FORGETTING_SETTINGS, type ConformalSettings, type ForgettingRuns } from './settings';
import { checkTableSection } from '../../config/section-table';
import type { ConfigSection } from '../../config/sections/section';

export const conformalSection: ConfigSection<'conformal'> = {
  check(c, v): ConformalSettings {
    return checkTableSection(c, CONFORMAL_SETTINGS, v, 'conformal');
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
  check(c, v): ForgettingRuns {
    return checkTableSection(c, FORGETTING_SETTINGS, v, 'forgetting', FORGETTING_CHECK_ORDER);
  },
};
