/**
 * The lab registry: one entry per lab, in the order of the app's tabs. Everything that lists the labs reads this
 * table: the config's lab ids and sections (src/core/config), the tabs, intro cards and papers panel (src/shell,
 * src/ui/labs.ts), the glossary's lab filter and the CLI's help. A new lab is a file beside these (its entry, which
 * also declares its id and its sections' types in the config's `LabSections`) and its line here.
 */
import type { LabId } from '../config/types';
import { curriculumLab } from './curriculum';
import { forgettingLab } from './forgetting';
import { groundTruthLab } from './ground-truth';
import type { LabEntry } from './lab';
import { openWorldLab } from './open-world';
import { orderingsLab } from './orderings';
import { ownClassesLab } from './own-classes';
import { timeLab } from './time';

export const LABS = [
  orderingsLab,
  groundTruthLab,
  forgettingLab,
  timeLab,
  openWorldLab,
  curriculumLab,
  ownClassesLab,
] as const satisfies readonly LabEntry<LabId>[];

// every id has an entry: a compile error names the id without one
type Missing = Exclude<LabId, (typeof LABS)[number]['id']>;
const everyId: [Missing] extends [never] ? true : Missing = true;
void everyId;

export type { LabId };

/** Every lab's id, in the order of the tabs (the `lab` check lists them in this order). */
export const LAB_IDS: readonly LabId[] = LABS.map((l) => l.id);

/** Each lab's name in sentences ("the Ground-truth lab …"). */
export const LAB_NAMES = Object.fromEntries(LABS.map((l) => [l.id, l.labName])) as Readonly<Record<LabId, string>>;

/** The labs that train on the experiment's dataset, so need one with images. */
export const TRAINING_LABS: readonly LabId[] = LABS.filter((l) => l.trains).map((l) => l.id);

export function labEntry(id: LabId): LabEntry<LabId> {
  return LABS.find((l) => l.id === id) as LabEntry<LabId>;
}

export function isLabId(id: string): id is LabId {
  return (LAB_IDS as readonly string[]).includes(id);
}

export type { LabEntry } from './lab';
export { PAPERS, venueLine, type LabPaper, type Paper } from './papers';
