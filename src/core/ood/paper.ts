/**
 * OpenCIL's published numbers the Open-world lab's verdict quotes (docs/verdicts.md §Open world), copied by hand
 * from /work/shared/papers/opencil-ood-in-cil.txt:
 * - Table 1 (CIFAR-100 as ID, AUROC in %, averaged over its six OOD sets and every incremental step), for the four
 *   CIL models iCaRL, BiC, WA and FOSTER; only the detectors this lab also has. The paper's reading: BER "consistently
 *   achieves the best performance in the averaged results in all cases".
 * - Table 2 (BER's ablation on CIFAR-100, AUROC in %): the Energy baseline (no NTER, no OTER) and BER per OOD set,
 *   near (CIFAR-10, TIN) and far (MNIST, SVHN, Texture, Places365) — in the paper too, a far set is not always the
 *   easier one (Texture, SVHN).
 */
import type { DetectorId } from './detectors';

export const OPENCIL_CIL_MODELS = ['iCaRL', 'BiC', 'WA', 'FOSTER'] as const;

/** Table 1, CIFAR-100, AUROC (%) per CIL model in OPENCIL_CIL_MODELS order. */
export const OPENCIL_TABLE_1_AUROC: Partial<Record<DetectorId, readonly [number, number, number, number]>> = {
  msp: [67.77, 66.67, 70.49, 71.69],
  odin: [70.05, 69.76, 71.86, 74.7],
  energy: [70.35, 69.76, 73.03, 75.76],
  maxlogit: [70.34, 69.54, 72.98, 75.71],
  gen: [70.86, 69.87, 73.3, 76.11],
  react: [68.79, 70.62, 74.87, 76.15],
  klm: [67.51, 66.27, 69.89, 71.34],
  relation: [64.4, 65.48, 76.12, 72.17],
  nnguide: [72.14, 68.74, 75.6, 75.9],
  logitnorm: [70.44, 70.64, 72.04, 74.74],
  regmixup: [71.47, 71.43, 72.01, 75.26],
  ber: [74.17, 71.83, 76.77, 76.4],
};

/** Table 2, CIFAR-100, AUROC (%): the Energy baseline and BER on each OOD set. */
export const OPENCIL_TABLE_2_AUROC = {
  near: { 'CIFAR-10': { energy: 70.7, ber: 71.6 }, TIN: { energy: 72.74, ber: 75.84 } },
  far: {
    MNIST: { energy: 86.63, ber: 91.56 },
    SVHN: { energy: 62.56, ber: 67.52 },
    Texture: { energy: 56.18, ber: 62.59 },
    Places365: { energy: 73.31, ber: 75.9 },
  },
} as const;

/** Table 1's range over the four CIL models for a detector, or null when the paper has no row for it. */
export function openCilRange(detector: string): { min: number; max: number } | null {
  const row = OPENCIL_TABLE_1_AUROC[detector as DetectorId];
  return row ? { min: Math.min(...row), max: Math.max(...row) } : null;
}
