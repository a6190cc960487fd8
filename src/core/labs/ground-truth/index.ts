/**
 * The Ground-truth lab (docs/science.md §2): train every ordering (or a sample) and compare the protocols' estimates.
 * Its controls read and write the experiment through `view` and `apply` (./binding.ts).
 */
import { groundTruthSection } from './section';
import { GROUND_TRUTH_SETTINGS, type GroundTruthSettings } from './settings';
import { groundTruthBinding } from './binding';
import { defineLab } from '../lab';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    'ground-truth': { groundTruth: GroundTruthSettings };
  }
}

declare module '../lab' {
  interface LabSettingsTables {
    'ground-truth': [typeof GROUND_TRUTH_SETTINGS];
  }
}

export const groundTruthLab = defineLab({
  id: 'ground-truth',
  name: 'Ground truth',
  labName: 'Ground-truth',
  question: 'How much does accuracy really vary over all orderings, and whose three orderings estimate it best?',
  paper: {
    paper: PAPERS.edge,
    uses: 'the performance distribution over all orderings and how well RS and EDGE estimate it (§5, App. E)',
    formulas: [
      'A(O) = final accuracy (or AIA) of ordering O, mean over training seeds',
      'estimate = N(μ̂, σ̂²) fitted to a protocol’s L accuracies (population variance)',
      'JSD = ½ KL(P‖M) + ½ KL(Q‖M), M = (P+Q)/2, in bits, on 64 bins',
      'W1 = ∫₀¹ |F_truth⁻¹(u) − F_est⁻¹(u)| du, in accuracy points',
      'Pearson r between S(O) and A(O) over the truth orderings',
    ],
    sections: 'docs/science.md §2',
  },
  trains: true,
  sections: { groundTruth: groundTruthSection },
  commands: ['run', 'sweep', 'analyze', 'stats'],
  configCommand: 'run',
  settings: [GROUND_TRUTH_SETTINGS],
  ...groundTruthBinding,
});
