/**
 * The experiment config: one versioned, validated object that is the whole truth of an experiment
 * (docs/architecture.md "Config"). The share link (url-codec.ts) and the CLI's config file (config-file.ts) carry
 * exactly this object; `validateConfig` is the one gate every config passes through. This file states the
 * compatibility rules and the recipe for a lab's section, and re-exports the public names. Layering: pure TS,
 * imports only src/core (the engine's and data layer's tables are mirrored, not imported).
 */

/*
 * Compatibility (schema v1):
 * 1. A v1 link or file means the same experiment in every later v1 build.
 * 2. Within v1, changes are additive only (a new field, enum value or union kind), and a new field's fill-in
 *    reproduces exactly what builds before it did.
 * 3. A missing field takes its v1 fill-in (defaults.ts and the section checkers). Released fill-ins are frozen:
 *    constants of src/core/config, never imported live from the engine or the UI; tests/unit/core/config pins them,
 *    and coverage.test.ts fails when the code they mirror drifts (the fill-in then stays).
 * 4. Renaming or removing a field, or changing its type, unit or meaning, needs a new version with a migration.
 * 5. Unknown fields are errors: in a file they are typos, in a link a newer build's feature this one cannot honour.
 * 6. Links and configHash use the compact form (fields equal to their fill-ins left out), so a field added later
 *    changes neither the link nor the hash of a config that does not use it.
 *
 * A lab's own section lives in the lab's folder, src/core/labs/<lab>/: its settings table settings.ts
 * (settings-table.ts; the type, frozen fill-in, checks and the CLI's flags come from it, every size bounded in
 * limits.ts, a new field's `absent` value its fill-in: rule 2), its checker section.ts, and in its entry index.ts
 * its field, declared in the `LabSections` of types.ts (`declare module`), and its checker in `sections`;
 * sections/index.ts checks it after the common sections, which are the files of sections/.
 */
export * from './types';
export { LAB_IDS, LAB_NAMES, TRAINING_LABS } from '../labs';
export {
  BUILTIN_DATASET_REFS,
  CONFIG_STRATEGY_IDS,
  PTM_STRATEGY_IDS,
  STRATEGY_IDS,
  STRATEGY_OPTION_FILL,
  V1_FILL,
  datasetClassListId,
  datasetHasImages,
  datasetImageShape,
} from './defaults';
export { CONFIG_LIMITS, distributionSampleLimit, modelSize } from './limits';
export { assertValidConfig, defaultConfig, formatIssues, validateConfig } from './validate';
export { canonicalJson, compactConfig } from './canonical';
export { experimentClassNames, protocolOptionsOf, trainingOptionsOf } from './derived';
