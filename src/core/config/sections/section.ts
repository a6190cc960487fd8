/**
 * A config section: one top-level field of the experiment config with its checker. validate.ts checks the
 * sections in the order of sections/index.ts SECTIONS, so a section can read what the sections before it found
 * (the classes section reads the dataset's class names, the ui section the classes and task sizes), and runs each
 * section's cross-checks once all are checked.
 *
 * Layering: pure TS, imports only src/core.
 */
import type { Checker } from '../checker';
import type { ExperimentConfig, LabId } from '../types';

/** The top-level fields of a config that sections check: every field but `version`. */
export type SectionKey = Exclude<keyof ExperimentConfig, 'version'>;

/**
 * What a checker knows of the labs (the lab registry, src/core/labs, handed in where validation is wired:
 * ./index.ts): the checkers never import the registry, which sits above the config.
 */
export interface LabFacts {
  /** every lab's id, in the registry's order (the tabs'): the `lab` field is one of these */
  ids: readonly LabId[];
  /** each lab's name in sentences ("Ground-truth") */
  names: Readonly<Record<LabId, string>>;
  /** the labs that train on the experiment's dataset, so need one with images */
  training: readonly LabId[];
}

/** What the sections checked so far found. */
export interface Checked {
  /** the labs of the registry */
  readonly labs: LabFacts;
  /** Their values, filled (an invalid field holds its fill-in). */
  readonly config: Readonly<Partial<ExperimentConfig>>;
  /** Whether the section was checked and recorded no error. */
  clean(key: SectionKey): boolean;
}

export interface ConfigSection<K extends SectionKey> {
  /**
   * The section's value checked and filled: `value` is the input's field (undefined when missing: the fill-in).
   * Problems are recorded on `c` (errors at paths like "training.epochs", warnings); never throws.
   */
  check(c: Checker, value: unknown, before: Checked): ExperimentConfig[K];
  /** Rules involving other sections, run after every section is checked (in SECTIONS order). */
  crossCheck?(c: Checker, config: ExperimentConfig, checked: Checked): void;
}
