/** The Curriculum lab (docs/science.md §8): whole datasets as tasks, easy first (M2I) or hard first (I2M). */
import { curriculumSection } from '../config/sections/curriculum';
import { defineLab } from './lab';
import { PAPERS } from './papers';

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
});
