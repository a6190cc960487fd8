/**
 * The experiment config: one versioned, validated object that is the whole truth of an experiment
 * (docs/architecture.md "Config"). The share link (url-codec.ts) and the CLI's config file (config-file.ts) carry
 * exactly this object; `validateConfig` is the one gate every config passes through.
 *
 * ─── Compatibility rule (schema v1) ─────────────────────────────────────────────────────────────────────────
 * 1. A v1 link or file means the same experiment in every later v1 build.
 * 2. Within v1, changes are additive only: a new field, a new enum value, a new union kind. A new field gets a
 *    fill-in value that reproduces exactly what builds before it did (a new penalty gets fill-in 0, a new choice
 *    gets the old behaviour).
 * 3. A missing field is filled with its v1 fill-in value (`V1_FILL` in defaults.ts and the section checkers). Released
 *    fill-ins are frozen: they are constants of src/core/config, never imported live from the engine or the UI, and
 *    tests/unit/core/config pins them. `defaultConfig()` is the config with every field filled.
 * 4. Renaming or removing a field, changing its type, unit or meaning, or changing a released fill-in needs v2
 *    (a new `#v2.` prefix and `version: 2`), with a v1 → v2 migration so v1 links keep opening.
 * 5. Unknown fields are errors, not silently ignored: in a config file they are usually typos (the message
 *    suggests the known name), and in a link they come from a newer build using a feature this build cannot
 *    honour — running something else silently would betray the reader who wants to reproduce a number.
 * 6. Links and configHash use the compact form (`compactConfig`: every field equal to its fill-in omitted). So a
 *    field added later changes neither the link nor the hash of a config that does not use it: old links stay
 *    short and identical, stored results survive upgrades, and a newer build's link opens in an older build
 *    unless it really uses something the older build lacks.
 *
 * Where the fill-ins (defaults.ts) come from (each mirrors the code named; tests/unit/core/config/coverage.test.ts
 * fails when they drift apart, and then the fill-in stays as it is — see rule 3 — unless a v2 is made):
 * - the Orderings page default (src/ui/orderings/OrderingsPage.svelte): Fashion-MNIST classes 0–5 in 3 tasks,
 *   WordNet, every protocol, RS seeds 0/42/1993;
 * - ProtocolOptions defaults (src/core/protocols/run.ts, rs.ts, exact.ts; orderings/score-distribution.ts);
 * - the training engine (src/engine/defaults.ts TRAINER_DEFAULTS, MODEL_DEFAULTS, STRATEGY_DEFAULTS,
 *   CALIBRATION_DEFAULTS), and issue 4's embedded default (300 training / 100 test images per class);
 * - CLIP (src/engine/clip/text-embedder.ts CLIP_MODELS[0], q8, the hub; prompts.ts DEFAULT_PROMPT);
 * - the feature source (sections/features.ts FEATURES_FILL): pixels, as every build before the section; the embedded
 *   backbone's seed 0; an image encoder's model CLIP_MODELS[0], revision main, q8 (src/engine/clip/image-encoder.ts).
 * Fields marked INFERRED have no code to mirror yet (the labs that will read them are being written): their
 * names and fill-ins are this module's proposal.
 *
 * ─── Where things are ──────────────────────────────────────────────────────────────────────────────────────
 * types.ts           the ExperimentConfig type and its parts, ConfigIssue, ConfigError
 * defaults.ts        V1_FILL, STRATEGY_OPTION_FILL, the built-in dataset table
 * limits.ts          CONFIG_LIMITS: the bound on every size, what this machine can serve, and how it was measured
 * checker.ts         the Checker every section uses (numbers, choices, lists, seeds, file references)
 * sections/*.ts      the checkers of the top-level fields, a file per lab or topic; sections/index.ts lists
 *                    them in check order
 * validate.ts        validateConfig (each section in turn, then the cross-section rules), defaultConfig
 * canonical.ts       canonicalJson, compactConfig (what links and configHash are made of)
 * derived.ts         what other modules read off a config (class names, protocol and training options)
 * This file re-exports the public names, so `import … from 'src/core/config/schema'` keeps working.
 *
 * ─── Adding a lab's config section (open world, time, curriculum, …) ───────────────────────────────────────
 * A lab's settings are one top-level field of the config, checked by one section. For a lab "time":
 * 1. A new file sections/time.ts holding
 *    - the section's type, `export interface TimeConfig { … }`;
 *    - its v1 fill-in, a constant of that file (frozen once released: rule 3). Old links lack the field, so the
 *      fill-in must mean what builds before the lab did (rule 2), and compactConfig then leaves the field out of
 *      every link and configHash that does not use it (rule 6: other labs' links and stored results do not change);
 *    - `export const timeSection: ConfigSection<'time'> = { check(c, v, before) { … } }`: read the value with the
 *      Checker (`const o = c.object(v, 'time', [known keys])`, then `c.int(o.steps, 'time.steps', 1,
 *      CONFIG_LIMITS.timeSteps, FILL.steps)`, `c.choice`, `c.seeds`, `c.array` …), which records each error at its
 *      path and returns the fill-in for a missing or invalid value. `before` holds the sections checked earlier
 *      (e.g. `before.config.classes`, `before.clean('taskSizes')`); rules that need later sections go in an
 *      optional `crossCheck(c, config, checked)`, run once every section is checked.
 *    - Every size it can ask for (counts, sample sizes, lengths, widths) gets a bound in CONFIG_LIMITS
 *      (limits.ts) that this machine can serve, checked there, with a message that names the bound.
 * 2. One line in the SECTIONS list (sections/index.ts), `time: timeSection,` after the sections it reads, and
 *    the field in ExperimentConfig (types.ts), `time: TimeConfig;` (import the type from sections/time.ts).
 *    The list is typed against ExperimentConfig, so the compiler rejects either one without the other; the
 *    field order of config files follows SECTIONS.
 * 3. A new lab id goes in LabId, LAB_IDS and LAB_NAMES (types.ts), and in TRAINING_LABS if the lab trains models
 *    (it then needs a dataset with images).
 * 4. Tests (tests/unit/core/config): the fill-in in FROZEN_V1_DEFAULT of schema.test.ts; an old link without the
 *    field opens as before; each bound rejected one above it, with its message, and accepted at it.
 *    UI pages read and write the field through their page-config.ts, the CLI through src/cli/config-args.ts.
 *
 * Layering: pure TS, imports only src/core (the engine's and data layer's tables are mirrored, not imported).
 */

export * from './types';
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
