/**
 * Every section of the experiment config, in the order they are checked (and written: a config file lists its
 * fields in this order after `version`): the common sections every lab reads, then each lab's own sections in the
 * lab registry's order (src/core/labs), then how the app runs and shows the experiment.
 *
 * This is where validation is wired to the lab registry, which sits above the config: each lab's entry names its
 * sections, and the checkers get the labs (`LAB_FACTS`) through what validate.ts hands them, never by importing the
 * registry themselves (tests/unit/architecture/cycles.test.ts keeps src/ free of import cycles).
 */
import { LABS, LAB_IDS, LAB_NAMES, TRAINING_LABS } from '../../labs';
import { protocolsSection } from '../../labs/orderings/section';
import { backendSection, uiSection } from './app';
import { classesSection, datasetSection, labSection, taskSizesSection } from './experiment';
import { featuresSection } from './features';
import type { ConfigSection, LabFacts, SectionKey } from './section';
import { similaritySection } from './similarity';
import { dataSection, modelSection, seedsSection, strategiesSection, trainingSection } from './training';

type Sections = { readonly [K in SectionKey]: ConfigSection<K> };

const COMMON = {
  lab: labSection,
  dataset: datasetSection,
  classes: classesSection,
  taskSizes: taskSizesSection,
  similarity: similaritySection,
  // the Orderings lab's own, checked here, where it always was: other labs read it, and errors are listed in check order
  protocols: protocolsSection,
  model: modelSection,
  strategies: strategiesSection,
  training: trainingSection,
  data: dataSection,
  seeds: seedsSection,
  features: featuresSection,
} satisfies Partial<Sections>;

const APP = { backend: backendSection, ui: uiSection } satisfies Partial<Sections>;

/** The sections; a field of ExperimentConfig without one fails tests/unit/core/config/schema.test.ts. */
export const SECTIONS = { ...COMMON, ...Object.assign({}, ...LABS.map((l) => l.sections)), ...APP } as Sections;

export const SECTION_KEYS = Object.keys(SECTIONS) as SectionKey[];

/** The labs as the checkers see them. */
export const LAB_FACTS: LabFacts = { ids: LAB_IDS, names: LAB_NAMES, training: TRAINING_LABS };

export type { Checked, ConfigSection, SectionKey } from './section';
