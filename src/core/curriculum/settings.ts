/**
 * The Curriculum lab's settings as types (docs/science.md §8): its full settings (`CurriculumConfig`, what a link
 * made before the lab moved onto the common sections carries) and its section's own form (`CurriculumOwn`). Types
 * only: the lab's entry declares its config section with these (src/core/labs/curriculum.ts), and
 * src/core/config/sections/curriculum.ts checks them.
 */

export type CurriculumOrderChoice = 'm2i' | 'i2m' | 'all' | string[];
export type CurriculumScenario = 'cil' | 'til' | 'both';

export interface CurriculumConfig {
  /** curriculum dataset ids (src/core/curriculum/catalogue.ts), 2 to 7, distinct */
  datasets: string[];
  /** 'm2i' | 'i2m' | 'all' (every K! order, K ≤ 6; M2I and I2M are among them) | a hand order of dataset ids */
  order: CurriculumOrderChoice;
  scenario: CurriculumScenario;
  /** the strategies trained on every order (engine ids) */
  strategies: string[];
  /** epochs per task; one hidden layer of `hidden` units; images per class; the seed of every run */
  epochs: number;
  hidden: number;
  trainPerClass: number;
  testPerClass: number;
  seed: number;
  /** Seeds: every run at `seed`, `seed` + 1, … (this many). Optional, absent = 1 (what every earlier link meant). */
  seeds?: number;
}

/** The section when the lab's strategies, model and training are the experiment's common sections. */
export interface CurriculumOwn {
  from: 'experiment';
  datasets: string[];
  order: CurriculumOrderChoice;
  scenario: CurriculumScenario;
}
