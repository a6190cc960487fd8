/**
 * The Your-classes lab (docs/science.md §10): the visitor's own objects from the webcam, one class per task, on a
 * frozen image encoder's features; fine-tuning a head forgets, SimpleCIL's prototypes do not, and every ordering of
 * their classes shows whether the order they taught it in matters.
 *
 * Its binding: the lab's settings are its own section, whole (no tab of its own: whichever lab the experiment is, the
 * tab shows the section). `view` reads it, a config without it the frozen fill-in (no classes yet), which is also
 * where a new experiment starts; `apply` writes the change over it and leaves which tab the link opens alone.
 */
import { ownClassesOf, ownClassesSection, type OwnClassesConfig } from './section';
import { OWN_CLASSES_SETTINGS } from './settings';
import type { ExperimentConfig } from '../../config/types';
import { defineLab } from '../lab';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    /** absent = no classes yet (read with ownClassesOf) */
    'own-classes': { ownClasses?: OwnClassesConfig };
  }
}

declare module '../lab' {
  interface LabSettingsTables {
    'own-classes': [typeof OWN_CLASSES_SETTINGS];
  }
}

export const ownClassesLab = defineLab({
  id: 'own-classes',
  name: 'Your classes',
  labName: 'Your-classes',
  question: 'Teach it your own objects one after another: does it forget, and does the order you taught it matter?',
  paper: {
    paper: PAPERS.edge,
    uses: 'the ground truth over every ordering of your classes, and the spread EDGE says an average hides',
    formulas: [
      'R[i][j] = accuracy on class j after teaching classes 0..i',
      'forgetting of class j = max_{i<K−1} R[i][j] − R[K−1][j]',
      'SimpleCIL: predict argmax_c cos(f(x), μ_c), μ_c the mean feature of class c',
    ],
    sections: 'docs/science.md §10, §9',
  },
  trains: false,
  sections: { ownClasses: ownClassesSection },
  commands: ['own-classes'],
  settings: [OWN_CLASSES_SETTINGS],
  view: (config: ExperimentConfig): OwnClassesConfig => ownClassesOf(config),
  apply: (config: ExperimentConfig, change: Partial<OwnClassesConfig>): ExperimentConfig => ({
    ...config,
    ownClasses: { ...ownClassesOf(config), ...structuredClone(change) },
  }),
});
