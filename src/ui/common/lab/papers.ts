/**
 * Each lab's paper and the formulas it uses (issue 17: "each lab names its paper and links the formulas"), for
 * PaperCite.svelte. Titles, authors, venues and years are those of docs/science.md's References (checked against the
 * papers' texts); the formulas are short plain-text forms of docs/science.md's, which has the full definitions — the
 * app names the section (`docs/science.md §1`), since a GitHub path is not reachable from a hosted app offline.
 */
export type PaperLab = 'orderings' | 'ground-truth' | 'forgetting' | 'open-world' | 'time' | 'curriculum';

export interface Paper {
  /** the short tag docs/science.md uses */
  tag: string;
  title: string;
  authors: string;
  venue: string;
  year: number;
  /** a word on the venue when it needs one (under review, preprint) */
  note?: string;
}

export interface LabPaper {
  paper: Paper;
  /** what the lab takes from the paper, in a line */
  uses: string;
  /** the formulas, one per line, plain text */
  formulas: readonly string[];
  /** the sections of docs/science.md with the full definitions */
  sections: string;
}

export const PAPERS = {
  edge: {
    tag: 'EDGE',
    title: 'The Lie of the Average: How Class Incremental Learning Evaluation Deceives You?',
    authors: 'Anonymous authors',
    venue: 'ICLR 2026 submission (under double-blind review)',
    year: 2025,
    note: 'Our copy is the anonymous review version.',
  },
  cpcf: {
    tag: 'CPCF',
    title: 'A Conformal Predictive Measure for Assessing Catastrophic Forgetting',
    authors: 'Ioannis Pitsiorlas, Nour Jamoussi, Marios Kountouris',
    venue: 'arXiv preprint',
    year: 2025,
  },
  opencil: {
    tag: 'OpenCIL',
    title: 'OpenCIL: Benchmarking Out-of-Distribution Detection in Class-Incremental Learning',
    authors: 'Wenjun Miao, Guansong Pang, Trong-Tung Nguyen, Ruohang Fang, Jin Zheng, Xiao Bai',
    venue: 'arXiv preprint',
    year: 2024,
  },
  clear: {
    tag: 'CLEAR',
    title: 'The CLEAR Benchmark: Continual LEArning on Real-World Imagery',
    authors: 'Zhiqiu Lin, Jia Shi, Deepak Pathak, Deva Ramanan',
    venue: 'NeurIPS Datasets and Benchmarks Track',
    year: 2021,
  },
  m2i: {
    tag: 'M2I',
    title: 'From MNIST to ImageNet and Back: Benchmarking Continual Curriculum Learning',
    authors: 'Kamil Faber, Dominik Zurek, Marcin Pietroń, Nathalie Japkowicz, Antonio Vergari, Roberto Corizzo',
    venue: 'Machine Learning (Springer)',
    year: 2024,
  },
} as const satisfies Record<string, Paper>;

export const LAB_PAPERS: Readonly<Record<PaperLab, LabPaper>> = {
  orderings: {
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
  'ground-truth': {
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
  forgetting: {
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
  'open-world': {
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
  time: {
    paper: PAPERS.clear,
    uses: 'the iid and streaming protocols, biased reservoir sampling and the averages of R',
    formulas: [
      'R[i][j] = accuracy on bucket j after training through bucket i',
      'in-domain = meanᵢ R[i][i];  next-domain = meanᵢ R[i][i+1]',
      'streaming: train on bucket i, test on bucket i+1 (today’s test set is tomorrow’s training set)',
      'reservoir: a full buffer admits a sample when u ≤ α·k/i (supplement, Alg. 1)',
    ],
    sections: 'docs/science.md §7, §4',
  },
  curriculum: {
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
};

/** "ICLR 2026 submission (under double-blind review), 2025" */
export function venueLine(p: Paper): string {
  return `${p.venue}, ${p.year}`;
}
