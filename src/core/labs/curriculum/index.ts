/**
 * The Curriculum lab (docs/science.md §8): whole datasets as tasks, easy first (M2I) or hard first (I2M). Its
 * strategies, model, epochs, images per class and seeds are the experiment's common sections, its datasets, order and
 * scenario its own section (src/core/labs/curriculum/section.ts).
 */
import { CURRICULUM_FILL, CURRICULUM_START, curriculumFromExperiment, curriculumSection, foldCurriculum, isCurriculumOwn } from './section';
import { CURRICULUM_SETTINGS, type CurriculumConfig, type CurriculumOwn } from './settings';
import { defineLab } from '../lab';
import { ownSectionBinding } from '../own-section';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    curriculum: {
      /**
       * Its own part, the strategies and training being the common sections; or, in links made before, its full
       * settings (src/core/labs/curriculum/section.ts). Absent = its defaults. Read with this entry's view.
       */
      curriculum?: CurriculumOwn | CurriculumConfig;
    };
  }
}

/**
 * Where a new experiment starts (CURRICULUM_START: every dataset on 5 images per class for 30 epochs, 3 seeds), with
 * the orders easy-first and hard-first only (M2I and I2M, what the verdict compares) instead of all 24: a twelfth of
 * the training, so the page's default runs in minutes. "Every order" is one click away.
 */
declare module '../lab' {
  interface LabSettingsTables {
    curriculum: [typeof CURRICULUM_SETTINGS];
  }
}

export const CURRICULUM_LAB_START: CurriculumConfig = { ...structuredClone(CURRICULUM_START as CurriculumConfig), order: 'm2i' };

export const curriculumLab = defineLab({
  id: 'curriculum',
  name: 'Curriculum',
  labName: 'Curriculum',
  question: 'Does learning the easy datasets first help, or is it the metric’s weighting?',
  paper: {
    paper: PAPERS.m2i,
    uses: 'M2I/I2M curricula of whole datasets and ACC/BWT/FWT over R (§2.3)',
    formulas: [
      'ACC = Σ_{i≥j} R[i][j] / (K(K+1)/2)',
      'ACC₀ = Σⱼ (K−j+1)·aⱼ / (K(K+1)/2)   (no transfer, no forgetting: the weighting alone)',
      'M2I = easy → hard by aⱼ (accuracy trained alone); I2M = the reverse',
      'share of M2I’s lead from the weighting = ΔACC₀ / ΔACC',
    ],
    sections: 'docs/science.md §8, §4',
  },
  trains: false,
  sections: { curriculum: curriculumSection },
  commands: ['curriculum'],
  configCommand: 'curriculum',
  settings: [CURRICULUM_SETTINGS],
  ...ownSectionBinding<CurriculumConfig, CurriculumOwn>({
    lab: 'curriculum',
    key: 'curriculum',
    start: CURRICULUM_LAB_START,
    fill: CURRICULUM_FILL as CurriculumConfig,
    isOwn: isCurriculumOwn,
    fromExperiment: curriculumFromExperiment,
    ownFields: ({ from: _, ...own }) => own,
    fold: foldCurriculum,
  }),
});
