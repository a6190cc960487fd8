/**
 * The Orderings lab (docs/science.md §1, §6): class orderings, their similarity score S and the EDGE protocol. Its
 * controls read and write the experiment through `view` and `apply` (./binding.ts).
 */
import { defineLab } from '../lab';
import { orderingsBinding } from './binding';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    /** no section of its own: its classes, task sizes, similarity and protocols are the common sections */
    orderings: {};
  }
}

export const orderingsLab = defineLab({
  id: 'orderings',
  name: 'Orderings',
  labName: 'Orderings',
  question: 'Which class orders are easiest and hardest, and can three orderings estimate the spread?',
  paper: {
    paper: PAPERS.edge,
    uses: 'the similarity score S, the EDGE orderings (Alg. 1–2) and the sample-size bounds (Theorems 1–2)',
    formulas: [
      '|Ω| = N! / (m₁! · m₂! · … · m_K!)',
      'S(O) = K / ((K−1)·N) · Σᵢ Σ_{c∈Cᵢ} Σ_{c′∈Cᵢ₊₁} Sim(c, c′)   (Eq. 5: similarity of adjacent tasks)',
      'EDGE hard: similar classes in one task (low S); easy: spread over tasks (high S); median: a seeded random ordering',
      'Theorem 1: smallest L with L·(|Ω|−L)/(|Ω|−1) ≥ ln(2|Ω|/δ) / (2ε²)',
    ],
    sections: 'docs/science.md §1 (orderings), §6 (similarity sources)',
  },
  trains: false,
  sections: {},
  commands: ['orders', 'count', 'enumerate', 'score', 'similarity', 'bounds'],
  configCommand: 'orders',
  ...orderingsBinding,
});
