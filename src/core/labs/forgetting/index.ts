/**
 * The Forgetting lab (docs/science.md §3): CPCF, conformal prediction sets on earlier tasks, beside accuracy. Its
 * binding (`view`, `apply`: the tab's settings ⇄ the experiment) is ./binding.ts.
 */
import { conformalSection, forgettingSection } from './section';
import { CONFORMAL_SETTINGS, FORGETTING_SETTINGS, type ConformalSettings, type ForgettingRuns } from './settings';
import { applyForgetting, forgettingView } from './binding';
import { defineLab } from '../lab';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    forgetting: { conformal: ConformalSettings; forgetting: ForgettingRuns };
  }
}

declare module '../lab' {
  interface LabSettingsTables {
    forgetting: [typeof CONFORMAL_SETTINGS, typeof FORGETTING_SETTINGS];
  }
}

export const forgettingLab = defineLab({
  id: 'forgetting',
  name: 'Forgetting',
  labName: 'Forgetting',
  question: 'Can the size of conformal prediction sets measure forgetting where accuracy cannot?',
  paper: {
    paper: PAPERS.cpcf,
    uses: 'CPCF, APS conformal sets, Ω_prev and the MLP/EWC set-up (Tables I–III)',
    formulas: [
      'APS score E = Σ_{k ≤ rank(y)} π₍ₖ₎; q = the ⌈(n+1)(1−α)⌉-th smallest calibration score',
      'CPCF_j = mean prediction-set size on the test data of tasks 1..j−1 after training task j',
      'a_prev,j = mean accuracy on tasks 1..j−1 after task j; a_new,j = accuracy on task j',
      'Ω_prev = 1/(T−1) Σᵢ a_prev,i / α_ideal',
      'dCor(CPCF, a_prev): distance correlation over j = 2..K',
    ],
    sections: 'docs/science.md §3',
  },
  trains: true,
  sections: { conformal: conformalSection, forgetting: forgettingSection },
  commands: ['cpcf', 'conformal'],
  configCommand: 'cpcf',
  settings: [CONFORMAL_SETTINGS, FORGETTING_SETTINGS],
  view: forgettingView,
  apply: applyForgetting,
});
