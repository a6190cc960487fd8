/**
 * Softmax outputs as the conformal functions take them, and the checks every entry point shares
 * (docs/science.md §3).
 *
 * A probability matrix has one row per example and one column per class. Two layouts are accepted, so that
 * the engine's recorded outputs are used without copying:
 * - rows: `number[][]` or an array of typed-array rows (`Float32Array[]`, …);
 * - flat: `{ data, width }` with `data` row-major, `n × width` (the engine's `ProbsRecord.probs`/`.width`).
 * Labels are column indices (the engine's output units; for a user file, the class ids 0..width−1).
 *
 * Float32 rows are read as the float64 values they hold; every sum below is taken in float64.
 */

/** A probability matrix, one row per example (see the file comment for the two layouts). */
export type ProbMatrix = readonly ArrayLike<number>[] | FlatProbs;

/** Row-major `n × width` probabilities (the engine's recorded softmax outputs). */
export interface FlatProbs {
  data: Float32Array | Float64Array | readonly number[];
  width: number;
}

/** Softmax outputs with the true column of each row. */
export interface LabelledProbs {
  probs: ProbMatrix;
  labels: ArrayLike<number>;
}

/** Input that the conformal functions cannot use; the message says what and where. */
export class ConformalInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformalInputError';
  }
}

/** Rows of a probability matrix, validated to be rectangular (n ≥ 0 rows of `width` ≥ 1 columns). */
export interface ProbRows {
  rows: ArrayLike<number>[];
  width: number;
}

function isFlat(p: ProbMatrix): p is FlatProbs {
  return !Array.isArray(p) && typeof p === 'object' && p !== null && 'data' in p && 'width' in p;
}

/**
 * The rows of `probs` (views, no copy, for the flat layout), checking that every row has the same width.
 * `what` names the matrix in error messages (e.g. "calibration probs"). An empty matrix has width 0.
 */
export function probRows(probs: ProbMatrix, what = 'probs'): ProbRows {
  if (isFlat(probs)) {
    const { data, width } = probs;
    if (!Number.isInteger(width) || width < 1) throw new ConformalInputError(`${what}: width must be a whole number ≥ 1; got ${String(width)}.`);
    if (data.length % width !== 0) {
      throw new ConformalInputError(`${what}: ${data.length} values do not make whole rows of width ${width}.`);
    }
    const n = data.length / width;
    const rows: ArrayLike<number>[] = new Array(n);
    for (let i = 0; i < n; i++) {
      rows[i] = ArrayBuffer.isView(data) ? (data as Float32Array | Float64Array).subarray(i * width, (i + 1) * width) : data.slice(i * width, (i + 1) * width);
    }
    return { rows, width };
  }
  if (!Array.isArray(probs)) throw new ConformalInputError(`${what} must be an array of rows (or { data, width }).`);
  const rows = probs as ArrayLike<number>[];
  if (rows.length === 0) return { rows: [], width: 0 };
  let width = -1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (r === null || typeof r !== 'object' || typeof r.length !== 'number') throw new ConformalInputError(`${what}: row ${i} is not an array.`);
    if (width < 0) width = r.length;
    else if (r.length !== width)
      throw new ConformalInputError(`${what}: row ${i} has ${r.length} columns but row 0 has ${width}; every row needs one probability per class.`);
  }
  if (width < 1) throw new ConformalInputError(`${what}: rows have no columns.`);
  return { rows, width };
}

/**
 * Checks the values of a probability matrix: finite, in [0, 1] (within `tolerance`), and every row summing to 1
 * within `tolerance` (default 1e-4, what a float32 softmax easily meets). Names the first bad row (0-based).
 */
export function checkProbabilities(p: ProbRows, what = 'probs', tolerance = 1e-4): void {
  for (let i = 0; i < p.rows.length; i++) {
    const r = p.rows[i];
    let sum = 0;
    for (let k = 0; k < p.width; k++) {
      const v = r[k];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConformalInputError(`${what}: row ${i}, column ${k} is not a finite number (${String(v)}).`);
      if (v < -tolerance || v > 1 + tolerance) throw new ConformalInputError(`${what}: row ${i}, column ${k} = ${v} is not a probability in [0, 1].`);
      sum += v;
    }
    if (Math.abs(sum - 1) > tolerance) {
      throw new ConformalInputError(`${what}: row ${i} sums to ${sum}, not 1 (tolerance ${tolerance}); give softmax probabilities, not logits.`);
    }
  }
}

/** Checks labels: one per row, whole numbers in [0, width). Returns them as a plain array. */
export function checkLabels(labels: ArrayLike<number> | undefined, n: number, width: number, what = 'labels'): number[] {
  if (labels === undefined || labels === null || typeof labels !== 'object' || typeof labels.length !== 'number') {
    throw new ConformalInputError(`${what} must be an array of class indices.`);
  }
  if (labels.length !== n) throw new ConformalInputError(`${what}: ${labels.length} labels for ${n} rows of probabilities; give one label per row.`);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const y = labels[i];
    if (typeof y !== 'number' || !Number.isInteger(y)) throw new ConformalInputError(`${what}[${i}] = ${String(y)} is not a whole number.`);
    if (y < 0 || y >= width) throw new ConformalInputError(`${what}[${i}] = ${y} is out of range: the probabilities have ${width} classes (0..${width - 1}).`);
    out[i] = y;
  }
  return out;
}

/** Checks a miscoverage level α ∈ (0, 1). */
export function checkAlpha(alpha: number): void {
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) {
    throw new RangeError(`alpha must be a number strictly between 0 and 1 (the miscoverage level; 0.1 → 90% coverage); got ${String(alpha)}.`);
  }
}
