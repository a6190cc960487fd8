/**
 * A rectangular numeric table read from an uploaded similarity file (JSON, CSV/TSV/text or .npy), before it is
 * read as a similarity matrix or as embeddings (parse-upload.ts), and the small text helpers of the messages.
 *
 * Layering: pure TS, no imports.
 */

export type SimilarityUploadKind = 'matrix' | 'embeddings';

/** A rectangular numeric table read from a file, before it is interpreted. */
export interface RawTable {
  /** What the file is, for messages: 'JSON', 'CSV', '.npy', … */
  source: string;
  nRows: number;
  nCols: number;
  /** Row-major nRows×nCols. */
  values: Float64Array;
  rowNames?: string[];
  /** Column labels (CSV header); used as class names only when the table is a matrix. */
  columnNames?: string[];
  declared?: SimilarityUploadKind;
  /** Where row i (and column j) is in the file, e.g. 'line 5, column 3', 'matrix[2][3]'. */
  where: (i: number, j?: number) => string;
  /** The error location for row i (and column j). */
  locate: (i: number, j?: number) => { row?: number; column?: number; line?: number };
  warnings: string[];
}

/** Capitalise a place that starts a sentence ('line 5, column 3' → 'Line 5, …'); code paths stay as they are. */
export function capitalise(s: string): string {
  return /^[a-z]+ /.test(s) ? s[0].toUpperCase() + s.slice(1) : s;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function quoteList(names: readonly string[], max = 8): string {
  const shown = names.slice(0, max).map((s) => JSON.stringify(s));
  return names.length > max ? `${shown.join(', ')} and ${names.length - max} more` : shown.join(', ');
}

/** Name normalisation for matching: case, spaces, underscores and hyphens ignored. */
export function normaliseName(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}
