/**
 * The Forgetting lab's own settings (docs/science.md §3), its config sections `conformal` and `forgetting`, each
 * declared once (src/core/config/settings-table.ts): the types, the v1 fill-ins, the link's checks (in the config
 * checker's words, src/core/config/section-table.ts), `cil-lab cpcf`'s conformal flags (bounds, words, the
 * `--config`/`--link` mapping) and the controls' bounds and words come from here. Its other settings (dataset,
 * classes, strategy, training, data, seeds) are the experiment's common sections. The order is each section's key
 * order: a new field goes last, with `absent` (the value that means what links made before it meant).
 *
 * Pure data (and what a CPCF report reads of it): imports only the table mechanism, the bounds and the preset ids.
 */
import { CONFIG_LIMITS } from '../../config/limits';
import { settingsDefaults, settingsGroup, settingsTable, type SettingsOf } from '../../config/settings-table';
import { FORGETTING_PRESET_IDS } from '../../config/types';

/** Conformal prediction (docs/science.md §3): miscoverage, calibration split, score, RAPS, softmax. */
export const CONFORMAL_SETTINGS = settingsTable({
  /** sets aim at coverage 1 − α */
  alpha: { kind: 'number', min: 0, max: 1, above: true, below: true, default: 0.1, flag: 'alpha', label: 'α (miscoverage)' },
  /** the share r of each task's training images held out for calibration */
  calibrationRatio: {
    kind: 'number',
    min: 0,
    max: 1,
    above: true,
    below: true,
    default: 0.1,
    flag: 'calibration-ratio',
    label: 'Calibration ratio',
  },
  score: {
    kind: 'choice',
    options: ['aps', 'lac', 'raps'],
    default: 'aps',
    flag: 'score',
    label: 'Score',
    labels: { aps: 'APS (paper)', lac: 'LAC', raps: 'RAPS' },
  },
  /** RAPS regularisation (INFERRED fill-ins λ = 0.01, k_reg = 5; used only when score = 'raps') */
  raps: settingsGroup(
    {
      lambda: { kind: 'number', min: 0, max: 100, default: 0.01, label: 'RAPS λ' },
      kReg: { kind: 'int', min: 0, max: CONFIG_LIMITS.kReg, default: 5, label: 'RAPS k_reg' },
    },
    { label: 'RAPS regularisation' },
  ),
  /** softmax over the classes seen so far, or over the full head (the lab writes its output head's) */
  softmax: { kind: 'choice', options: ['seen', 'all'], default: 'seen', label: 'Softmax' },
});

/** The conformal fields the lab's controls do not set: RAPS's (a link's own stay), the softmax (it follows the output head). */
export const CONFORMAL_UNSHOWN = ['raps', 'softmax'] as const;

/**
 * The Forgetting lab's runs. Added in v1 (additive; fill-in: no preset, one run, what every earlier link meant).
 * - `preset`: the one-click preset whose runs the experiment is (src/core/forgetting/setup.ts PRESETS); its varying
 *   settings are the preset's own, the rest this config's (dataset, data, seeds, and training.lr as the preset's
 *   learning rate). null = one run, described by the other fields (ordering = ui.selectedOrdering over `classes`).
 * - `seeds`: one run's seeds, `seeds[0]`, `seeds[0]` + 1, … (this many; mean ± sd over them). Optional, absent = 1
 *   (1 is not written). Presets keep their own seeds.
 */
export const FORGETTING_SETTINGS = settingsTable({
  preset: { kind: 'choice', options: FORGETTING_PRESET_IDS, default: null, orNull: 'one run', label: 'Preset' },
  seeds: { kind: 'int', min: 1, max: CONFIG_LIMITS.labSeeds, default: 1, absent: 1, label: 'Seeds' },
});

/**
 * The order the `forgetting` section's fields are checked in (its errors listed in): the seeds first, as the section
 * always checked them.
 */
export const FORGETTING_CHECK_ORDER = ['seeds', 'preset'] as const;

export type ConformalSettings = SettingsOf<typeof CONFORMAL_SETTINGS>;
export type ForgettingRuns = SettingsOf<typeof FORGETTING_SETTINGS>;

/** The v1 fill-ins (frozen). */
export const CONFORMAL_FILL: ConformalSettings = settingsDefaults(CONFORMAL_SETTINGS);
export const FORGETTING_FILL: ForgettingRuns = settingsDefaults(FORGETTING_SETTINGS);

/**
 * What a CPCF report reads of the conformal settings, whole: all of them but the calibration split and the softmax,
 * which the run was trained and recorded with (src/core/conformal/from-run.ts `cpcfFromRun` takes it as its options).
 * The app's report cache and `cil-lab cpcf` both pass this, so a conformal setting the report reads needs no edit
 * between the table and the science.
 */
export type ReportSettings = Omit<ConformalSettings, 'calibrationRatio' | 'softmax'>;

export function reportSettingsOf(conformal: ConformalSettings): ReportSettings {
  const { calibrationRatio: _ratio, softmax: _softmax, ...report } = conformal;
  return report;
}
