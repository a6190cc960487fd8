/**
 * Input checking shared by the OOD scores and metrics (docs/science.md §5). Scores take rows — logits,
 * softmax or penultimate features, one row per example — as `number[][]` or `Float32Array[]` (any
 * array-like of array-likes); every row must have the same width and hold finite numbers.
 */

/** A matrix as rows: `number[][]`, `Float32Array[]`, … */
export type Rows = ArrayLike<ArrayLike<number>>;

/** Bad input to an OOD score or metric: the message says what is wrong and where. */
export class OodInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OodInputError';
  }
}

/** Checks `rows` is non-empty, rectangular and finite; returns the width. */
export function checkRows(rows: Rows, what: string, minWidth = 1): number {
  if (!rows || typeof rows.length !== 'number') throw new OodInputError(`${what} must be an array of rows.`);
  if (rows.length === 0) throw new OodInputError(`${what} is empty: give at least one row.`);
  const first = rows[0];
  if (!first || typeof first.length !== 'number') throw new OodInputError(`${what}: row 0 is not an array of numbers.`);
  const width = first.length;
  if (width < minWidth) throw new OodInputError(`${what}: rows need at least ${minWidth} column${minWidth === 1 ? '' : 's'}; row 0 has ${width}.`);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!r || typeof r.length !== 'number') throw new OodInputError(`${what}: row ${i} is not an array of numbers.`);
    if (r.length !== width) throw new OodInputError(`${what}: row ${i} has ${r.length} values but row 0 has ${width} (rows must all have the same length).`);
    for (let k = 0; k < width; k++) {
      const v = r[k];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new OodInputError(`${what}: row ${i}, column ${k} is not a finite number (${String(v)}).`);
    }
  }
  return width;
}

/** Checks a list of scores is non-empty and finite. */
export function checkScores(scores: ArrayLike<number>, what: string): void {
  if (!scores || typeof scores.length !== 'number') throw new OodInputError(`${what} must be an array of numbers.`);
  if (scores.length === 0) throw new OodInputError(`${what} is empty: give at least one score.`);
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new OodInputError(`${what}: score ${i} is not a finite number (${String(v)}).`);
  }
}

/** log Σ exp(z_k), computed stably (max subtracted first). */
export function logSumExp(z: ArrayLike<number>, scale = 1): number {
  let m = -Infinity;
  for (let k = 0; k < z.length; k++) if (z[k] * scale > m) m = z[k] * scale;
  let s = 0;
  for (let k = 0; k < z.length; k++) s += Math.exp(z[k] * scale - m);
  return m + Math.log(s);
}

/** softmax(z·scale) as float64 (stable). */
export function softmaxRow(z: ArrayLike<number>, scale = 1): Float64Array {
  let m = -Infinity;
  for (let k = 0; k < z.length; k++) if (z[k] * scale > m) m = z[k] * scale;
  const out = new Float64Array(z.length);
  let s = 0;
  for (let k = 0; k < z.length; k++) {
    out[k] = Math.exp(z[k] * scale - m);
    s += out[k];
  }
  for (let k = 0; k < z.length; k++) out[k] /= s;
  return out;
}

/** h / ‖h‖ with a floor on the norm: `max(‖h‖, eps)` (torch F.normalize) or `sqrt(Σh² + eps)` (OpenOOD's Relation). */
export function normalizeRow(h: ArrayLike<number>, mode: 'max' | 'sqrt-add', eps: number): Float64Array {
  let ss = 0;
  for (let k = 0; k < h.length; k++) ss += h[k] * h[k];
  const norm = mode === 'max' ? Math.max(Math.sqrt(ss), eps) : Math.sqrt(ss + eps);
  return Float64Array.from(h as ArrayLike<number>, (v) => v / norm);
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}
