/**
 * Class- and task-incremental accuracy from one model's outputs (docs/science.md §8). The same trained model is
 * read two ways:
 * - CIL: arg-max over every output unit the model predicts with (the units seen so far, or the whole head);
 * - TIL: arg-max over the units of the example's own task only — the logits masked to the task's classes.
 * Both take the first maximum in unit order. Since a task's units are among the CIL candidates, an example right
 * under CIL is right under TIL: TIL ≥ CIL entry by entry (tested). Scores may be logits or softmax outputs (the
 * arg-max is the same).
 */

export interface ScoreRows {
  /** n × width, row-major */
  scores: Float32Array | number[];
  width: number;
}

/** Index of the first maximum of `row` among `units`; −1 if none is inside the row. */
export function maskedArgmax(scores: ArrayLike<number>, offset: number, width: number, units: readonly number[]): number {
  let best = -1;
  let bestValue = -Infinity;
  for (const u of [...units].sort((a, b) => a - b)) {
    if (u < 0 || u >= width) continue;
    const v = scores[offset + u];
    if (best < 0 || v > bestValue) {
      best = u;
      bestValue = v;
    }
  }
  return best;
}

/**
 * Accuracy of rows whose true units are `labels`, predicting by arg-max over `candidates` (CIL: the seen units;
 * TIL: the task's units). An empty set of rows has accuracy 0.
 */
export function maskedAccuracy(rows: ScoreRows, labels: ArrayLike<number>, candidates: readonly number[]): number {
  const n = labels.length;
  if (n === 0) return 0;
  if (rows.scores.length !== n * rows.width) throw new Error(`Scores hold ${rows.scores.length} numbers, not ${n} rows of ${rows.width}.`);
  let right = 0;
  for (let i = 0; i < n; i++) if (maskedArgmax(rows.scores, i * rows.width, rows.width, candidates) === labels[i]) right++;
  return right / n;
}

/** The output units of task t when tasks of `sizes` classes take consecutive units in training order. */
export function taskUnits(sizes: readonly number[], t: number): number[] {
  let first = 0;
  for (let k = 0; k < t; k++) first += sizes[k];
  return Array.from({ length: sizes[t] }, (_, c) => first + c);
}

/** True when every entry of `til` is at least the same entry of `cil` (to `eps`). */
export function tilDominates(til: readonly (readonly number[])[], cil: readonly (readonly number[])[], eps = 1e-12): boolean {
  return til.length === cil.length && til.every((row, i) => row.length === cil[i].length && row.every((v, j) => v >= cil[i][j] - eps));
}
