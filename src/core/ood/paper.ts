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
import table1 from './opencil-table-1.json' with { type: 'json' };

export const OPENCIL_CIL_MODELS = ['iCaRL', 'BiC', 'WA', 'FOSTER'] as const;

/** Table 1, CIFAR-100, AUROC (%) per CIL model in OPENCIL_CIL_MODELS order (the paper's rows: ./opencil-table-1.json). */
export const OPENCIL_TABLE_1_AUROC: Partial<Record<DetectorId, readonly [number, number, number, number]>> = Object.fromEntries(
  Object.entries(table1.auroc).map(([detector, row]) => {
    if (row.length !== OPENCIL_CIL_MODELS.length) throw new Error(`OpenCIL Table 1: the ${detector} row has ${row.length} values`);
    return [detector, [row[0], row[1], row[2], row[3]] as const];
  }),
);

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
