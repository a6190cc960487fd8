/**
 * The accuracy matrix R and the two accuracy summaries every lab shows (docs/science.md §4, §2).
 *
 * `R[i][j]` = accuracy (a fraction in [0,1]) on the test data of task j after training tasks 0..i
 * (row = training step, column = test task; 0-based here, 1-based in docs/science.md). R is K×K and the upper
 * triangle (tasks not trained yet) is part of it — FWT and the CLEAR/M2I averages read it.
 *
 * Two flavours of "accuracy over the classes seen so far":
 * - task-mean (docs/science.md §4 as printed): every task counts the same, `mean_j R[i][j]`;
 * - sample-weighted (docs/science.md §2, "Accuracy over classes seen = sample-weighted over those classes' test
 *   data"): `Σ_j n_j·R[i][j] / Σ_j n_j` with `n_j` the number of test samples of task j — exactly the accuracy
 *   on the pooled test data of those tasks, since `R[i][j] = correct_ij / n_j`. With equal test counts per task
 *   the two coincide.
 */

/** K×K accuracy matrix, `R[step][task]`, fractions in [0,1]. */
export type AccuracyMatrix = readonly (readonly number[])[];

/** An accuracy matrix or a per-task vector that cannot be used; the message says what and where. */
export class AccuracyMatrixError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccuracyMatrixError';
  }
}

/**
 * Checks that R is a non-empty square matrix of finite fractions in [0,1]; returns K.
 * Throws AccuracyMatrixError naming the offending row/entry (and hinting at percentages when a value is in (1,100]).
 */
export function validateAccuracyMatrix(R: AccuracyMatrix): number {
  if (!Array.isArray(R)) throw new AccuracyMatrixError('accuracy matrix must be an array of rows');
  const K = R.length;
  if (K === 0) throw new AccuracyMatrixError('accuracy matrix is empty: need at least one task (K ≥ 1)');
  for (let i = 0; i < K; i++) {
    const row = R[i];
    if (!Array.isArray(row)) throw new AccuracyMatrixError(`accuracy matrix row ${i} is not an array`);
    if (row.length !== K) {
      throw new AccuracyMatrixError(`accuracy matrix must be square (K×K, K = ${K} rows) but row ${i} has ${row.length} entries`);
    }
    for (let j = 0; j < K; j++) checkFraction(row[j], `accuracy matrix entry R[${i}][${j}]`);
  }
  return K;
}

/** Checks a per-task vector of fractions (e.g. the untrained model's accuracies b_j) of length K. */
export function validateTaskAccuracies(values: readonly number[], K: number, what: string): void {
  if (!Array.isArray(values)) throw new AccuracyMatrixError(`${what} must be an array of ${K} accuracies`);
  if (values.length !== K) {
    throw new AccuracyMatrixError(`${what} must have one accuracy per task (${K}) but has ${values.length}`);
  }
  for (let j = 0; j < K; j++) checkFraction(values[j], `${what}[${j}]`);
}

/** Checks per-task test-sample counts: K positive integers (a task without test data has no accuracy). */
export function validateTestCounts(testCounts: readonly number[], K: number): void {
  if (!Array.isArray(testCounts)) throw new AccuracyMatrixError(`testCounts must be an array of ${K} counts`);
  if (testCounts.length !== K) {
    throw new AccuracyMatrixError(`testCounts must have one count per task (${K}) but has ${testCounts.length}`);
  }
  for (let j = 0; j < K; j++) {
    const n = testCounts[j];
    if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) {
      throw new AccuracyMatrixError(`testCounts[${j}] must be a positive integer (test samples of task ${j}), got ${String(n)}`);
    }
  }
}

function checkFraction(v: unknown, where: string): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new AccuracyMatrixError(`${where} must be a finite number, got ${String(v)}`);
  }
  if (v < 0 || v > 1) {
    const hint = v > 1 && v <= 100 ? ' (accuracies are fractions in [0,1], not percentages)' : '';
    throw new AccuracyMatrixError(`${where} = ${v} is outside [0,1]${hint}`);
  }
}

/** Final accuracy `ACC = mean_j R[K][j]`: mean over all tasks of their accuracy after the last task (§4). */
export function finalAccuracy(R: AccuracyMatrix): number {
  const K = validateAccuracyMatrix(R);
  let s = 0;
  for (let j = 0; j < K; j++) s += R[K - 1][j];
  return s / K;
}

/** Average incremental accuracy `AIA = mean_i mean_{j≤i} R[i][j]` (§4): task-mean accuracy over seen tasks, averaged over steps. */
export function averageIncrementalAccuracy(R: AccuracyMatrix): number {
  const K = validateAccuracyMatrix(R);
  let total = 0;
  for (let i = 0; i < K; i++) {
    let s = 0;
    for (let j = 0; j <= i; j++) s += R[i][j];
    total += s / (i + 1);
  }
  return total / K;
}

/**
 * Sample-weighted final accuracy (§2): accuracy on the pooled test data of all tasks after the last task,
 * `Σ_j n_j·R[K][j] / Σ_j n_j`.
 */
export function finalAccuracyWeighted(R: AccuracyMatrix, testCounts: readonly number[]): number {
  const K = validateAccuracyMatrix(R);
  validateTestCounts(testCounts, K);
  let num = 0;
  let den = 0;
  for (let j = 0; j < K; j++) {
    num += testCounts[j] * R[K - 1][j];
    den += testCounts[j];
  }
  return num / den;
}

/**
 * Sample-weighted average incremental accuracy (§2): mean over steps i of the accuracy on the pooled test data
 * of tasks 0..i, `mean_i (Σ_{j≤i} n_j·R[i][j] / Σ_{j≤i} n_j)`.
 */
export function aiaWeighted(R: AccuracyMatrix, testCounts: readonly number[]): number {
  const K = validateAccuracyMatrix(R);
  validateTestCounts(testCounts, K);
  let total = 0;
  for (let i = 0; i < K; i++) {
    let num = 0;
    let den = 0;
    for (let j = 0; j <= i; j++) {
      num += testCounts[j] * R[i][j];
      den += testCounts[j];
    }
    total += num / den;
  }
  return total / K;
}
