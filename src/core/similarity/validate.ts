/**
 * Validation of a class×class similarity matrix `Sim` (docs/science.md §1 EDGE, §6 "Uploaded").
 *
 * Errors (`SimilarityError`, one sentence saying what is wrong and where):
 *   empty; not square (a row of the wrong length, or a flat buffer of the wrong length); a size that differs from
 *   the class count; a NaN or ±Infinity (the cell is named); asymmetry beyond 1e-6 (the worst cell and both
 *   values are named).
 * Indices in messages are 0-based, as numpy prints them ("row 3", "cell (3, 5)"): matrices and embeddings
 * usually come from Python. File positions (see parse-upload.ts) are 1-based lines, as text editors show them.
 *
 * Decisions (repairs, each reported as a warning, never silent):
 * - Asymmetry within 1e-6 (rounding in a saved file) is removed by averaging: Sim ← (Sim + Simᵀ)/2, so that
 *   downstream code (EDGE's ITS, 1 − Sim clustering) sees an exactly symmetric matrix.
 * - The diagonal is set to 1 (a class is fully similar to itself; EDGE uses 1 − Sim with a 0 diagonal).
 *   Entries off 1 by more than 1e-6 are warned about — a 0 diagonal usually means a distance matrix was uploaded.
 * - Values outside [−1, 1] are allowed (S(O) and 1 − Sim work for any scale, e.g. an unnormalised dot product),
 *   with a warning naming the most extreme cell, since cosine similarities never leave [−1, 1].
 * The input is never modified; a new matrix is returned.
 */
import { matrixFromRows } from '../orderings/matrix';
import type { SquareMatrix } from '../orderings/types';

/** Where a SimilarityError points: 0-based row/column of a matrix or table, 1-based line of a text file. */
export interface SimilarityErrorLocation {
  row?: number;
  column?: number;
  line?: number;
}

/** A similarity matrix, embedding table or uploaded file that cannot be used; the message says why and where. */
export class SimilarityError extends Error {
  readonly location: SimilarityErrorLocation;
  constructor(message: string, location: SimilarityErrorLocation = {}) {
    super(message);
    this.name = 'SimilarityError';
    this.location = location;
  }
}

/** Largest |Sim(i,j) − Sim(j,i)| accepted (then symmetrised); beyond it the matrix is rejected. */
export const SYMMETRY_TOLERANCE = 1e-6;

/** A validated matrix and what was repaired or looks suspicious. */
export interface SimilarityCheck {
  matrix: SquareMatrix;
  warnings: string[];
}

/** Format a number for a message: short, but never hiding a difference bigger than the tolerance. */
export function formatValue(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return String(Number(x.toPrecision(10)));
}

function describeNonFinite(x: number): string {
  return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
}

function isSquareMatrix(m: unknown): m is SquareMatrix {
  return typeof m === 'object' && m !== null && 'data' in m && 'n' in m && !Array.isArray(m);
}

/** Accept nested rows or a SquareMatrix; check shape only. Returns a fresh copy. */
function toSquare(m: SquareMatrix | ArrayLike<ArrayLike<number>>): SquareMatrix {
  if (isSquareMatrix(m)) {
    const { n, data } = m;
    if (!Number.isInteger(n) || n < 0) throw new SimilarityError(`The matrix size n must be a whole number ≥ 0; got ${n}.`);
    if (n === 0) throw new SimilarityError('The similarity matrix is empty: it has no rows.');
    if (data.length !== n * n) throw new SimilarityError(`The matrix holds ${data.length} values; a ${n}×${n} matrix needs ${n * n}.`);
    return { n, data: Float64Array.from(data) };
  }
  if (m === null || typeof m !== 'object' || typeof (m as ArrayLike<unknown>).length !== 'number')
    throw new SimilarityError('The similarity matrix must be a list of rows or a SquareMatrix.');
  const n = m.length;
  if (n === 0) throw new SimilarityError('The similarity matrix is empty: it has no rows.');
  for (let i = 0; i < n; i++) {
    const row = m[i];
    if (row === null || typeof row !== 'object' || typeof row.length !== 'number') throw new SimilarityError(`Row ${i} is not a list of numbers.`, { row: i });
    if (row.length !== n) throw new SimilarityError(`Row ${i} has ${row.length} values; a ${n}×${n} matrix needs ${n}.`, { row: i });
    for (let j = 0; j < n; j++) {
      if (typeof row[j] !== 'number')
        throw new SimilarityError(`Cell (${i}, ${j}) is ${JSON.stringify(row[j]) ?? String(row[j])}, not a number.`, {
          row: i,
          column: j,
        });
    }
  }
  return matrixFromRows(m);
}

/**
 * Validate (and, within tolerance, repair) a similarity matrix; returns the repaired copy and warnings.
 * @param classCount when given, the matrix must be classCount×classCount.
 * @param classNames optional names, used only to make messages friendlier ("row 3 (tiger)").
 */
export function checkSimilarity(m: SquareMatrix | ArrayLike<ArrayLike<number>>, classCount?: number, classNames?: readonly string[]): SimilarityCheck {
  const matrix = toSquare(m);
  const { n, data } = matrix;
  const name = (i: number): string => (classNames && classNames[i] !== undefined ? ` (${classNames[i]})` : '');
  const warnings: string[] = [];

  if (classCount !== undefined) {
    if (!Number.isInteger(classCount) || classCount < 1) throw new SimilarityError(`The class count must be a whole number ≥ 1; got ${classCount}.`);
    if (n !== classCount)
      throw new SimilarityError(
        `The matrix is ${n}×${n} but there ${classCount === 1 ? 'is 1 class' : `are ${classCount} classes`}; it must be ${classCount}×${classCount}.`,
      );
  }

  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const x = data[i * n + j];
      if (!Number.isFinite(x))
        throw new SimilarityError(`Cell (${i}, ${j})${name(i)} is ${describeNonFinite(x)}; every similarity must be a finite number.`, { row: i, column: j });
    }

  // Symmetry: find the worst pair.
  let worst = 0;
  let wi = -1;
  let wj = -1;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const d = Math.abs(data[i * n + j] - data[j * n + i]);
      if (d > worst) {
        worst = d;
        wi = i;
        wj = j;
      }
    }
  if (worst > SYMMETRY_TOLERANCE)
    throw new SimilarityError(
      `The matrix is not symmetric: cell (${wi}, ${wj}) is ${formatValue(data[wi * n + wj])} but cell (${wj}, ${wi}) is ` +
        `${formatValue(data[wj * n + wi])} (difference ${formatValue(worst)}, tolerance ${SYMMETRY_TOLERANCE.toExponential()}).`,
      { row: wi, column: wj },
    );
  if (worst > 0) {
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const avg = (data[i * n + j] + data[j * n + i]) / 2;
        data[i * n + j] = avg;
        data[j * n + i] = avg;
      }
    warnings.push(
      `The matrix was symmetric only up to ${formatValue(worst)} (worst at cell (${wi}, ${wj})); it was made exactly symmetric by averaging it with its transpose.`,
    );
  }

  // Diagonal := 1.
  let offDiag = 0;
  let firstOff = -1;
  let firstOffValue = 1;
  for (let i = 0; i < n; i++) {
    const x = data[i * n + i];
    if (Math.abs(x - 1) > SYMMETRY_TOLERANCE) {
      if (firstOff < 0) {
        firstOff = i;
        firstOffValue = x;
      }
      offDiag++;
    }
    data[i * n + i] = 1;
  }
  if (offDiag > 0) {
    const x = firstOffValue;
    warnings.push(
      `${offDiag} diagonal ${offDiag === 1 ? 'entry was' : 'entries were'} not 1 (cell (${firstOff}, ${firstOff})${name(firstOff)} ` +
        `is ${formatValue(x)}); the diagonal was set to 1.` +
        (x === 0 ? ' A zero diagonal suggests a distance matrix: upload similarities (e.g. 1 − distance) instead.' : ''),
    );
  }

  // Range: allowed, but flagged.
  let extreme = 0;
  let ei = -1;
  let ej = -1;
  let outside = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const x = data[i * n + j];
      if (x > 1 || x < -1) {
        outside++;
        if (Math.abs(x) > extreme) {
          extreme = Math.abs(x);
          ei = i;
          ej = j;
        }
      }
    }
  if (outside > 0)
    warnings.push(
      `${outside} pair${outside === 1 ? ' has a similarity' : 's have similarities'} outside [−1, 1] (the most extreme: cell (${ei}, ${ej}) = ` +
        `${formatValue(data[ei * n + ej])}); they were kept, but cosine similarities never leave [−1, 1].`,
    );

  return { matrix, warnings };
}

/**
 * Validate a similarity matrix and return a repaired copy (see the file comment for what is repaired);
 * throws SimilarityError when it cannot be used. Use `checkSimilarity` to also get the warnings.
 */
export function validateSimilarity(m: SquareMatrix | number[][], classCount?: number): SquareMatrix {
  return checkSimilarity(m, classCount).matrix;
}
