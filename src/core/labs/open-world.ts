/** The Open-world lab (docs/science.md §5): out-of-distribution detection after every class-incremental step. */
import { openWorldSection } from '../config/sections/open-world';
import { defineLab } from './lab';
import { PAPERS } from './papers';

export const openWorldLab = defineLab({
  id: 'open-world',
  name: 'Open world',
  labName: 'Open-world',
  question: 'As classes arrive, can the model still tell unknown images from known ones?',
  paper: {
    paper: PAPERS.opencil,
    uses: 'OOD detection after every CIL step, the BER detector and the per-step metrics',
    formulas: [
      'MSP = max softmax;  Energy = logsumexp(z)  (higher = more in-distribution)',
      'AUROC = P(score(ID) > score(OOD)), ties ½',
      'FPR@95 = share of OOD with score ≥ τ, τ keeping 95 % of ID',
      'step t: ID = tasks 0..t; each OOD set contributes ⌊|OOD|·(t+1)/T⌋ examples (Eq. 6)',
    ],
    sections: 'docs/science.md §5',
  },
  trains: false,
  sections: { openWorld: openWorldSection },
  commands: ['ood', 'ood-metrics', 'ood-scores'],
  configCommand: 'ood',
});
