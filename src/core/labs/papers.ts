/**
 * The papers the labs reproduce, as docs/science.md's References cite them (checked against the papers' texts). A lab
 * entry (./index.ts) names its paper and the formulas it computes, in short plain-text forms of docs/science.md's.
 */
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
  /** the sections of docs/science.md with the full definitions (a GitHub path is not reachable from a hosted app offline) */
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

/** "ICLR 2026 submission (under double-blind review), 2025" */
export function venueLine(p: Paper): string {
  return `${p.venue}, ${p.year}`;
}
