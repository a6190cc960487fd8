/**
 * Every section of the experiment config, in the order they are checked (and written: a config file lists its
 * fields in this order after `version`). The type makes the list and ExperimentConfig (types.ts) agree: a field
 * without a section, or a section without a field, does not compile. How to add a lab's section: schema.ts.
 */
import { backendSection, uiSection } from './app';
import { classesSection, datasetSection, labSection, taskSizesSection } from './experiment';
import { curriculumSection } from './curriculum';
import { featuresSection } from './features';
import { openWorldSection } from './open-world';
import { timeSection } from './time';
import { conformalSection, forgettingSection } from './forgetting';
import { groundTruthSection } from './ground-truth';
import { protocolsSection } from './protocols';
import type { ConfigSection, SectionKey } from './section';
import { similaritySection } from './similarity';
import { dataSection, modelSection, seedsSection, strategiesSection, trainingSection } from './training';

export const SECTIONS: { readonly [K in SectionKey]: ConfigSection<K> } = {
  lab: labSection,
  dataset: datasetSection,
  classes: classesSection,
  taskSizes: taskSizesSection,
  similarity: similaritySection,
  protocols: protocolsSection,
  groundTruth: groundTruthSection,
  model: modelSection,
  strategies: strategiesSection,
  training: trainingSection,
  data: dataSection,
  seeds: seedsSection,
  conformal: conformalSection,
  forgetting: forgettingSection,
  openWorld: openWorldSection,
  time: timeSection,
  curriculum: curriculumSection,
  features: featuresSection,
  backend: backendSection,
  ui: uiSection,
};

export const SECTION_KEYS = Object.keys(SECTIONS) as SectionKey[];

export type { Checked, ConfigSection, SectionKey } from './section';
