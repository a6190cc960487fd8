/**
 * The Orderings lab (docs/science.md §1, §6): class orderings, their similarity score S and the EDGE protocol. Its
 * section `protocols` is declared in ./settings.ts and checked in ./section.ts; its controls read and write the
 * experiment through `view` and `apply` (./binding.ts).
 */
import { defineLab } from '../lab';
import { orderingsBinding } from './binding';
import { protocolsSection } from './section';
import { PROTOCOLS_SETTINGS, type ProtocolsSettings } from './settings';
import { PAPERS } from '../papers';

declare module '../../config/types' {
  interface LabSections {
    /**
     * Which protocols run, with their seeds and sample sizes (./settings.ts; other labs read it too, and it is checked
     * among the common sections). Its classes, task sizes and similarity are the common sections.
     */
    orderings: { protocols: ProtocolsSettings };
  }
}

declare module '../lab' {
  interface LabSettingsTables {
    orderings: [typeof PROTOCOLS_SETTINGS];
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
  sections: { protocols: protocolsSection },
  settings: [PROTOCOLS_SETTINGS],
  commands: ['orders', 'count', 'enumerate', 'score', 'similarity', 'bounds'],
  configCommand: 'orders',
  ...orderingsBinding,
});
