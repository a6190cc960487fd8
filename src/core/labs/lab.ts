/**
 * What every lab registers (./index.ts holds one entry per lab): who it is, the question it answers, its paper, the
 * config sections that are its own and the CLI commands that print its numbers. Pure data and the section checkers,
 * so the config (src/core/config), the CLI and the app all read the same table.
 */
import type { ConfigSection, SectionKey } from '../config/sections/section';
import type { LabPaper } from './papers';

export interface LabEntry<Id extends string = string> {
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
  /** the config sections only this lab reads, checked after the common ones, in this order */
  sections: { readonly [K in SectionKey]?: ConfigSection<K> };
  /** the `cil-lab` commands that print this lab's numbers */
  commands: readonly string[];
  /** the one of `commands` that runs this lab's experiment from its config file (`--config F`), when one does */
  configCommand?: string;
}

/** Type the entry without widening its id (each lab file exports `defineLab({ id: 'time', … })`). */
export function defineLab<const Id extends string>(entry: LabEntry<Id>): LabEntry<Id> {
  return entry;
}
