/**
 * The Ground-truth lab's own settings (docs/science.md §2), its config section `groundTruth`, each declared once
 * (src/core/config/settings-table.ts): the type, the v1 fill-ins, the link's checks (in the config checker's words,
 * src/core/config/section-table.ts), the control's bounds and words come from here. Its other settings (dataset,
 * classes, strategies, model, training, seeds) are the experiment's common sections. The order is the section's key
 * order: a new field goes last, with `absent` (the value that means what links made before it meant).
 *
 * Pure data: imports only the table mechanism and the bounds.
 */
import { CONFIG_LIMITS } from '../../config/limits';
import { settingsDefaults, settingsTable, type SettingsOf } from '../../config/settings-table';

const UINT32_MAX = 2 ** 32 - 1;

export const GROUND_TRUTH_SETTINGS = settingsTable({
  budget: {
    kind: 'int',
    min: 1,
    max: CONFIG_LIMITS.groundTruthBudget,
    default: 500,
    label: 'Budget (orderings)',
    help: 'Train every ordering when |Ω| ≤ budget; else this many orderings drawn uniformly (seeded).',
  },
  sampleSeed: {
    kind: 'int',
    min: 0,
    max: UINT32_MAX,
    default: 0,
    label: 'Sample seed',
    message: (got) => `A seed must be a whole number from 0 to ${UINT32_MAX}; got ${got}.`,
  },
});

/** How many orderings the Ground-truth lab trains, and the seed of their sample. */
export type GroundTruthSettings = SettingsOf<typeof GROUND_TRUTH_SETTINGS>;

/** The v1 fill-in (frozen): a budget of 500 orderings, sample seed 0. */
export const GROUND_TRUTH_FILL: GroundTruthSettings = settingsDefaults(GROUND_TRUTH_SETTINGS);
