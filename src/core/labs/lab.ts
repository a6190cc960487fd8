/**
 * What every lab registers (./index.ts holds one entry per lab): who it is, the question it answers, its paper, the
 * config sections that are its own, the CLI commands that print its numbers, and how it reads and writes the one
 * experiment (`view`, `apply`). Pure data and pure functions, so the config (src/core/config), the CLI and the app all
 * read the same table. The registry sits above the config: the config's checkers never import it.
 */
import type { Unused } from '../config/lab-training';
import type { ConfigSection, SectionKey } from '../config/sections/section';
import type { SettingsTable } from '../config/settings-table';
import type { ExperimentConfig, LabId, LabSections } from '../config/types';
import type { LabPaper } from './papers';

/**
 * A lab whose tab keeps a setup of its own while the experiment is another lab's (Time, Open world, Curriculum): its
 * tab reads the experiment only when the experiment is the lab's (`owns`), else starts on `start`; a change made on
 * the tab makes its setup the experiment (a new history entry when it takes one over).
 */
export interface LabTab<S> {
  /** the experiment is the lab's: made on its tab (`lab` is the lab's, its section the `{ from: 'experiment' }` form) */
  owns(config: ExperimentConfig): boolean;
  /** what the tab shows while the experiment is not the lab's (`opened`: the lab of the link opened, if any) */
  start(config: ExperimentConfig, opened: LabId | null): S;
  /** what the config's common sections say that the lab cannot train, each with what it trains instead */
  unused(config: ExperimentConfig): Unused[];
}

/**
 * Each lab's settings tables by type, empty here: a lab with tables adds them in its entry module beside its
 * `LabSections` (declaration merging, as src/core/config/types.ts explains), and lists the same tables in its entry's
 * `settings`. The CLI types its flags by name from here (src/cli/flags.ts), so a command row naming a flag no table
 * or OPTIONS declares does not compile.
 */
export interface LabSettingsTables {}

/** Each table's type, once (a table two labs list is one). */
export type LabSettingsTable = { [K in keyof LabSettingsTables]: LabSettingsTables[K] extends readonly (infer T)[] ? T : never }[keyof LabSettingsTables];

/**
 * `S`: the lab's settings as its controls show them; `C`: what its controls hand back to `apply` (by default some of
 * `S`; a lab whose controls hold text being typed hands back the resolved, checked values, with null for what is
 * invalid right now, so the config keeps its last valid value).
 */
/** The config fields lab `Id` declared its own (its `LabSections` entry in its module). */
export type LabSectionKey<Id extends LabId> = keyof LabSections[Id] & SectionKey;

export interface LabEntry<Id extends LabId = LabId, S = unknown, C = Partial<S>> {
  id: Id;
  /** its tab and intro card ("Ground truth") */
  name: string;
  /** in sentences, before "lab" ("the Ground-truth lab …") */
  labName: string;
  /** the one question the lab answers (the first screen's card) */
  question: string;
  paper: LabPaper;
  /** it trains on the experiment's dataset, so the dataset needs images */
  trains: boolean;
  /**
   * the checker of each config section only this lab reads, checked after the common ones, in this order: one for
   * every field its module declares in the config's `LabSections` (a field without one does not compile)
   */
  sections: { readonly [K in LabSectionKey<Id>]-?: ConfigSection<K> };
  /** the `cil-lab` commands that print this lab's numbers */
  commands: readonly string[];
  /** the one of `commands` that runs this lab's experiment from its config file (`--config F`), when one does */
  configCommand?: string;
  /**
   * the lab's settings tables (./<lab>/settings.ts), also declared by type in `LabSettingsTables`: the flags their rows
   * name are `cil-lab`'s (src/cli/flags.ts builds its options from here), so a lab's new flag is its row alone
   */
  settings?: Id extends keyof LabSettingsTables ? LabSettingsTables[Id] : never;
  /** the lab's settings as `config` says them: what its controls show, what its runs train (pure) */
  view(config: ExperimentConfig): S;
  /** `config` with `change` (some or all of the lab's settings) in, unchecked (pure; validateConfig checks it) */
  apply(config: ExperimentConfig, change: C): ExperimentConfig;
  /** a lab whose tab keeps a setup of its own (absent: the tab shows the experiment's own settings) */
  tab?: LabTab<S>;
}

/**
 * Type the entry without widening its id (each lab file exports `defineLab({ id: 'time', … })`), keeping what it
 * has: an entry with a binding is typed with its `view`, `apply` and `tab`.
 */
export function defineLab<const Id extends LabId, S = unknown, C = Partial<S>, E extends LabEntry<Id, S, C> = LabEntry<Id, S, C>>(
  entry: E & LabEntry<Id, S, C>,
): E & LabEntry<Id, S, C> {
  return entry;
}
