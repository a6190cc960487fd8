import type { SquareMatrix } from './types';

/** Build a SquareMatrix from nested rows (validated elsewhere: see similarity/validate.ts). */
export function matrixFromRows(rows: ArrayLike<ArrayLike<number>>): SquareMatrix {
  const n = rows.length;
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    for (let j = 0; j < n; j++) data[i * n + j] = r[j];
  }
  return { n, data };
}

/** Nested rows of a SquareMatrix (for JSON output). */
export function matrixToRows(m: SquareMatrix): number[][] {
  const out: number[][] = [];
  // a plain loop: Array.from(subarray) took ~60 ms for 1 000 × 1 000 in Chromium (the page unpacks the worker's matrix)
  for (let i = 0; i < m.n; i++) {
    const row = new Array<number>(m.n);
    for (let j = 0; j < m.n; j++) row[j] = m.data[i * m.n + j];
    out.push(row);
  }
  return out;
}

/** Entry (i, j). */
export function at(m: SquareMatrix, i: number, j: number): number {
  return m.data[i * m.n + j];
}

/** Dissimilarity 1 − Sim with a zero diagonal (docs/science.md §1, EDGE). */
export function dissimilarity(sim: SquareMatrix): SquareMatrix {
  const { n } = sim;
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = i === j ? 0 : 1 - sim.data[i * n + j];
  return { n, data };
}
