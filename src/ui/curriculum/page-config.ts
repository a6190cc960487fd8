/**
 * The Curriculum page and the app's one experiment (docs/science.md §8 "Settings and the share link"): the lab's
 * strategies, model, epochs, images per class and seeds are the common sections, its datasets, order and scenario
 * its own section (src/core/config/sections/curriculum.ts), bound by the lab kit's `labExperiment`.
 */
import {
  CURRICULUM_FILL,
  curriculumFromExperiment,
  foldCurriculum,
  isCurriculumOwn,
  type CurriculumConfig,
  type CurriculumOwn,
} from '../../core/config/sections/curriculum';
import type { LabExperimentSpec } from '../common/lab/lab-experiment.svelte';
import { START_SECTION } from './curriculum-lab.svelte';

export const CURRICULUM_EXPERIMENT: LabExperimentSpec<CurriculumConfig, CurriculumOwn> = {
  lab: 'curriculum',
  key: 'curriculum',
  start: START_SECTION,
  fill: CURRICULUM_FILL as CurriculumConfig,
  isOwn: isCurriculumOwn,
  fromExperiment: curriculumFromExperiment,
  ownFields: ({ datasets, order, scenario }) => ({ datasets, order, scenario }),
  fold: foldCurriculum,
};
