/**
 * The similarity score of an ordering, paper Eq. 5 (docs/science.md §1):
 *   S(O) = K / ((K−1)·N) · Σ_{i=1}^{K−1} Σ_{c∈C_i} Σ_{c'∈C_{i+1}} Sim(c, c')
 * and the per-pair mean (the same sum divided by the number of adjacent-task class pairs Σ m_i·m_{i+1}),
 * which is what the authors' code reports. Higher S = adjacent tasks more alike = expected easier.
 * With one task there are no adjacent pairs: both are defined as 0.
 */
import type { Ordering, SquareMatrix } from './types';

/** Σ over adjacent tasks of Σ Sim(c, c') — the raw sum both forms share. */
export function adjacentSimilaritySum(tasks: Ordering, sim: SquareMatrix): number {
  const { n, data } = sim;
  let sum = 0;
  for (let i = 0; i + 1 < tasks.length; i++) {
    const a = tasks[i];
    const b = tasks[i + 1];
    for (const c of a) {
      const row = c * n;
      for (const d of b) sum += data[row + d];
    }
  }
  return sum;
}

/** S(O) as printed in the paper (Eq. 5). */
export function similarityScore(tasks: Ordering, sim: SquareMatrix): number {
  const k = tasks.length;
  if (k < 2) return 0;
  const n = tasks.reduce((a, t) => a + t.length, 0);
  return (k / ((k - 1) * n)) * adjacentSimilaritySum(tasks, sim);
}

/** Mean Sim over adjacent-task class pairs (the authors' code's number). */
export function similarityPairMean(tasks: Ordering, sim: SquareMatrix): number {
  let pairs = 0;
  for (let i = 0; i + 1 < tasks.length; i++) pairs += tasks[i].length * tasks[i + 1].length;
  return pairs === 0 ? 0 : adjacentSimilaritySum(tasks, sim) / pairs;
}

/**
 * S(O) for a label vector (labels[c] = task of class c), without building task lists: used in tight loops
 * (exact extremes over Ω). `scale` = K/((K−1)N).
 */
export function similarityScoreOfLabels(labels: Int32Array, sim: SquareMatrix, scale: number): number {
  const { n, data } = sim;
  let sum = 0;
  for (let c = 0; c < n; c++) {
    const lc = labels[c];
    const row = c * n;
    for (let d = 0; d < n; d++) if (labels[d] === lc + 1) sum += data[row + d];
  }
  return scale * sum;
}
