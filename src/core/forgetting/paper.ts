/**
 * The CPCF paper's published numbers (the CPCF paper; docs/science.md, References), copied by hand so the
 * Forgetting lab can print the paper's table layout beside our numbers:
 * - Table I: "Comparison of two EWC variants on CIFAR-10 using Ω metrics" (Ω_base, Ω_new, Ω_all, Ω_prev).
 * - Table II: "Distance correlation between CPCF and a_prev for fixed alpha (α = 0.1)", rows calibration ratio ×
 *   model (MLP, EWC), columns MNIST, CIFAR-10, FashionMNIST, KMNIST.
 * - Table III: "Distance correlation between CPCF and a_prev for fixed calibration ratio (calibration ratio = 0.1)",
 *   rows α × model, same columns.
 * The paper's Fig. 2 (learning rate vs a_prev on MNIST) has no printed numbers; only its message ("learn fast,
 * forget fast; learn slow, forget slow") is quoted.
 * Our datasets map to the paper's columns: digits (8×8) ↔ MNIST (a smaller relative), fashion-mnist ↔ FashionMNIST;
 * emoji has no counterpart.
 */
export type PaperDataset = 'MNIST' | 'CIFAR-10' | 'FashionMNIST' | 'KMNIST';
export type PaperModel = 'MLP' | 'EWC';

export const PAPER_TABLE_I: readonly { method: 'single' | 'multi'; label: string; omegaBase: number; omegaNew: number; omegaAll: number; omegaPrev: number }[] =
  [
    { method: 'single', label: 'Single-penalization EWC', omegaBase: 0.082, omegaNew: 0.953, omegaAll: 0.101, omegaPrev: 0.342 },
    { method: 'multi', label: 'Multi-penalization EWC', omegaBase: 0.082, omegaNew: 0.953, omegaAll: 0.101, omegaPrev: 0.342 },
  ];

type Row = Record<PaperDataset, number>;
const COLUMNS: readonly PaperDataset[] = ['MNIST', 'CIFAR-10', 'FashionMNIST', 'KMNIST'];

/** A table as the paper prints it: a row per setting (its label, then MLP's and EWC's values in COLUMNS order). */
function printedRows(rows: readonly [string, readonly number[], readonly number[]][]): Readonly<Record<string, Record<PaperModel, Row>>> {
  const row = (values: readonly number[]) => Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]])) as Row;
  return Object.fromEntries(rows.map(([label, mlp, ewc]) => [label, { MLP: row(mlp), EWC: row(ewc) }]));
}

/** Table II: dCor(CPCF, a_prev) at α = 0.1, keyed by calibration ratio then model. */
export const PAPER_TABLE_II = printedRows([
  ['0.05', [0.5165, 0.3009, 0.2319, 0.3214], [0.7475, 0.3848, 0.2993, 0.597]],
  ['0.10', [0.5585, 0.3211, 0.2118, 0.3121], [0.6754, 0.3883, 0.3046, 0.5996]],
  ['0.15', [0.5096, 0.3363, 0.1863, 0.2709], [0.7081, 0.4414, 0.3149, 0.5693]],
  ['0.20', [0.4996, 0.3319, 0.1956, 0.2655], [0.7127, 0.4834, 0.2903, 0.5298]],
]);

/** Table III: dCor(CPCF, a_prev) at calibration ratio 0.1, keyed by α then model. */
export const PAPER_TABLE_III = printedRows([
  ['0.05', [0.5347, 0.2871, 0.2611, 0.2321], [0.625, 0.2574, 0.274, 0.5812]],
  ['0.10', [0.5585, 0.3211, 0.2118, 0.3121], [0.6754, 0.3883, 0.3046, 0.5996]],
  ['0.15', [0.5732, 0.3202, 0.1834, 0.3116], [0.748, 0.427, 0.3073, 0.6106]],
  ['0.20', [0.5919, 0.3224, 0.1777, 0.3107], [0.8012, 0.454, 0.3157, 0.6201]],
]);

export const PAPER_GRID_VALUES: readonly number[] = [0.05, 0.1, 0.15, 0.2];

/** The grid key of a ratio or α ("0.10"). */
export function gridKey(v: number): string {
  return v.toFixed(2);
}

/** The paper's column for one of our datasets, or null. */
export function paperColumnOf(dataset: string): PaperDataset | null {
  if (dataset === 'digits') return 'MNIST';
  if (dataset === 'fashion-mnist') return 'FashionMNIST';
  return null;
}

/** The paper's Table II value (α = 0.1) or Table III value (calibration 0.1); null where the paper has none. */
export function paperDcor(table: 'II' | 'III', key: number, model: PaperModel, column: PaperDataset | null): number | null {
  if (!column) return null;
  const t = table === 'II' ? PAPER_TABLE_II : PAPER_TABLE_III;
  return t[gridKey(key)]?.[model]?.[column] ?? null;
}

/**
 * The paper's regime, [CPCF] §III: full training sets (MNIST / FashionMNIST: ≈6 000 training and 1 000 test images
 * per class), 8 epochs on the base task then 3 per task, lr 2e-5. Batch size and optimiser are not stated: ours are
 * 64 and Adam. At batch 64 with a 0.1 calibration split that is 8 × ⌈27 000 / 64⌉ = 3 376 Adam steps on the base
 * task and 3 × ⌈5 400 / 64⌉ = 255 on each later task.
 */
export const PAPER_REGIME = {
  trainPerClass: 6000,
  testPerClass: 1000,
  firstTaskEpochs: 8,
  epochs: 3,
  batchSize: 64,
  lr: 2e-5,
  taskSizes: [5, 1, 1, 1, 1, 1],
  head: 'all' as const,
};
