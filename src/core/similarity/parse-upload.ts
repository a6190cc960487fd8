/**
 * An uploaded similarity source (docs/science.md §6 "Uploaded"): a class × class similarity matrix or a class ×
 * dimension embedding table, bytes in, a validated SquareMatrix out; pure, no DOM, no fs. upload-read.ts reads the
 * bytes into a table (with upload-json.ts and upload-text.ts); this file decides matrix or embeddings and matches
 * the classes. Every failure is a SimilarityError with one sentence saying what is wrong and where (1-based line and
 * column for text, `matrix[2][3]`-style paths for JSON, 0-based element indices for .npy).
 */
import type { SquareMatrix } from '../orderings/types';
import { cosineSimilarity } from './cosine';
import { tooManyClasses, tooManyValues } from './upload-limits';
import { readAny } from './upload-read';
import { capitalise, normaliseName, plural, quoteList, type RawTable, type SimilarityUploadKind } from './upload-table';
import { SYMMETRY_TOLERANCE, SimilarityError, checkSimilarity, formatValue } from './validate';
import type { SimilarityCheck } from './validate';

export type { SimilarityUploadKind } from './upload-table';

export interface SimilarityUpload {
  /** What the file held. */
  kind: SimilarityUploadKind;
  /** The class×class similarity matrix, validated, in the order of `classNames`. */
  matrix: SquareMatrix;
  /** The classes, in matrix order: the given `classNames` if any, else the names in the file, else absent. */
  classNames?: string[];
  /** Repairs and suspicious things, one sentence each. */
  warnings: string[];
}

function describeNonFinite(x: number): string {
  return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
}

// ───────────────────────────── entry point ─────────────────────────────

/**
 * Read an uploaded similarity matrix or embedding table.
 * - JSON: a bare 2-D list; `{"matrix" | "embeddings": [[…]], "classes"?: […]}` (`class_names`, `classNames`, `names`,
 *   `labels` also name the classes); or `{"<class>": [embedding…], …}`, always embeddings.
 * - CSV/TSV/text: numeric lines, delimiter tab, comma, semicolon or whitespace (`np.savetxt`'s default), from the
 *   extension else the first line; `#` and blank lines skipped; quoted fields; an optional header line and first
 *   column of class names are detected.
 * - .npy versions 1–3: f2/f4/f8, i1–i8, u1–u8, either byte order, C or Fortran order, 2-D. `.npz` is refused with a
 *   hint to use `np.save`.
 * Matrix or embeddings: a JSON key decides; else a square table symmetric within 1e-6 is a matrix, a square
 * asymmetric one with a unit diagonal an error (a broken matrix), anything else (a square table without unit
 * diagonal is warned about) embeddings, turned into a matrix by cosine; matrices go through checkSimilarity.
 * Classes: a file that names its classes has its rows picked and reordered to `classNames` (exact names, else
 * ignoring case, spaces, underscores and hyphens); missing classes are an error naming them, extra ones dropped
 * (warned). Without names its row count must equal `classNames.length`.
 * @param fileName used for its extension (.json, .csv, .tsv, .txt, .npy); unknown extensions are sniffed.
 * @param bytes the file's bytes (or its text).
 * @param classNames the experiment's classes, in order; the result follows this order.
 */
export function parseSimilarityUpload(fileName: string, bytes: Uint8Array | ArrayBuffer | string, classNames?: readonly string[]): SimilarityUpload {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  if (classNames !== undefined) {
    if (classNames.length === 0) throw new SimilarityError('The list of classes is empty.');
    const seen = new Set<string>();
    for (const c of classNames) {
      if (seen.has(c)) throw new SimilarityError(`The class ${JSON.stringify(c)} is listed twice in the experiment's classes.`);
      seen.add(c);
    }
  }
  const table = readAny(fileName, ext, bytes, classNames);
  return interpret(table, classNames);
}

// ───────────────────────────── interpretation ─────────────────────────────

/** Re-throw a SimilarityError that names a table cell with the cell's place in the file appended. */
function rethrowWithPlace(e: unknown, table: RawTable): never {
  if (e instanceof SimilarityError && e.location.row !== undefined && table.source !== '.npy') {
    const { row, column } = e.location;
    const place = table.where(row, column);
    throw new SimilarityError(`${e.message.replace(/\.$/, '')}, at ${place} of the file.`, { ...e.location, ...table.locate(row, column) });
  }
  throw e;
}

/** Worst asymmetry of a square table. */
function worstAsymmetry(t: RawTable): { diff: number; i: number; j: number } {
  const n = t.nRows;
  let diff = 0;
  let wi = 0;
  let wj = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const d = Math.abs(t.values[i * n + j] - t.values[j * n + i]);
      if (d > diff) {
        diff = d;
        wi = i;
        wj = j;
      }
    }
  return { diff, i: wi, j: wj };
}

/** Indices of `wanted` among `fileNames` (exact match first, then normalised); errors name what is missing. */
function matchClasses(fileNames: string[], wanted: readonly string[], table: RawTable, warnings: string[]): number[] {
  const exact = new Map<string, number>();
  const loose = new Map<string, number[]>();
  fileNames.forEach((name, i) => {
    if (exact.has(name))
      throw new SimilarityError(
        `The class ${JSON.stringify(name)} appears twice in the file (${table.where(exact.get(name)!)} and ${table.where(i)}).`,
        table.locate(i),
      );
    exact.set(name, i);
    const key = normaliseName(name);
    loose.set(key, [...(loose.get(key) ?? []), i]);
  });
  const order: number[] = [];
  const missing: string[] = [];
  let looseMatches = 0;
  let example = '';
  for (const w of wanted) {
    const e = exact.get(w);
    if (e !== undefined) {
      order.push(e);
      continue;
    }
    const l = loose.get(normaliseName(w));
    if (l && l.length === 1) {
      order.push(l[0]);
      looseMatches++;
      if (!example) example = `${JSON.stringify(w)} ↔ ${JSON.stringify(fileNames[l[0]])}`;
      continue;
    }
    missing.push(w);
  }
  if (missing.length > 0)
    throw new SimilarityError(
      `The file has no entry for ${missing.length === 1 ? 'the class' : `${missing.length} of the ${wanted.length} classes:`} ${quoteList(missing)}` +
        ` (the file's classes are ${quoteList(fileNames, 6)}).`,
    );
  const used = new Map<number, string>();
  wanted.forEach((w, k) => {
    const i = order[k];
    if (used.has(i))
      throw new SimilarityError(
        `The classes ${JSON.stringify(used.get(i))} and ${JSON.stringify(w)} both match the file's class ${JSON.stringify(fileNames[i])}.`,
      );
    used.set(i, w);
  });
  if (looseMatches > 0)
    warnings.push(`${plural(looseMatches, 'class name')} matched the file only after ignoring case, spaces, underscores and hyphens (e.g. ${example}).`);
  if (fileNames.length > wanted.length)
    warnings.push(`The file has ${fileNames.length} classes; the ${wanted.length} of this experiment were used and the rest ignored.`);
  return order;
}

function interpret(table: RawTable, classNames?: readonly string[]): SimilarityUpload {
  const warnings = [...table.warnings];
  const { nRows, nCols, values } = table;
  tooManyValues(nRows, nCols);

  // Non-finite values, named where they are in the file.
  for (let i = 0; i < nRows; i++)
    for (let j = 0; j < nCols; j++) {
      const x = values[i * nCols + j];
      if (!Number.isFinite(x))
        throw new SimilarityError(`${capitalise(table.where(i, j))} is ${describeNonFinite(x)}; every value must be a finite number.`, table.locate(i, j));
    }

  let kind: SimilarityUploadKind;
  if (table.declared) kind = table.declared;
  else if (nRows === nCols && nRows > 1) {
    const asym = worstAsymmetry(table);
    const { rowNames, columnNames } = table;
    const labelsAreDimensions = rowNames !== undefined && columnNames !== undefined && !columnNames.some((c) => rowNames.includes(c));
    if (labelsAreDimensions)
      kind = 'embeddings'; // column labels that name no class are dimension labels
    else if (asym.diff <= SYMMETRY_TOLERANCE) kind = 'matrix';
    else {
      const a = values[asym.i * nCols + asym.j];
      const b = values[asym.j * nCols + asym.i];
      // A unit diagonal is the signature of a similarity matrix: then asymmetry is an error, not a hint of embeddings.
      let unitDiagonal = true;
      for (let i = 0; i < nRows; i++) if (Math.abs(values[i * nCols + i] - 1) > SYMMETRY_TOLERANCE) unitDiagonal = false;
      if (unitDiagonal) {
        throw new SimilarityError(
          `The ${nRows}×${nCols} similarity matrix is not symmetric: ${table.where(asym.i, asym.j)} is ${formatValue(a)} but ${table.where(asym.j, asym.i)} is ${formatValue(b)}.`,
          table.locate(asym.i, asym.j),
        );
      }
      kind = 'embeddings';
      warnings.push(
        `The ${nRows}×${nCols} table is not symmetric (${table.where(asym.i, asym.j)} is ${formatValue(a)} but ${table.where(asym.j, asym.i)} is ${formatValue(b)}), ` +
          `so it was read as ${nRows} embeddings of dimension ${nCols}; if it is meant as a similarity matrix, make it symmetric.`,
      );
    }
  } else kind = 'embeddings';

  return kind === 'matrix' ? asMatrix(table, warnings, classNames) : asEmbeddings(table, warnings, classNames);
}

function asMatrix(table: RawTable, warnings: string[], classNames?: readonly string[]): SimilarityUpload {
  const { nRows: n, nCols } = table;
  if (n !== nCols)
    throw new SimilarityError(
      `The ${table.declared ? '"matrix"' : 'table'} has ${plural(n, 'row')} of ${plural(nCols, 'value')}; a similarity matrix must be square (${n}×${n}).`,
    );
  if (!classNames) tooManyClasses(n, 'classes');
  let values = table.values;
  let names = table.rowNames;
  let placeTable = table; // where cells of `values` are in the file (columns may get permuted below)
  const cols = table.columnNames;
  if (cols && !names) names = cols;
  else if (cols && names && cols.some((c, k) => c !== names![k])) {
    // Same classes in another order along the columns: permute the columns to follow the rows.
    const colIndex = new Map(cols.map((c, k) => [c, k] as const));
    const onlyRows = names.filter((r) => !colIndex.has(r));
    const rowSet = new Set(names);
    const onlyCols = cols.filter((c) => !rowSet.has(c));
    if (onlyRows.length || onlyCols.length || colIndex.size !== cols.length)
      throw new SimilarityError(
        `The header's class names and the first column's class names differ (${onlyCols.length ? `${quoteList(onlyCols, 3)} only in the header` : ''}` +
          `${onlyCols.length && onlyRows.length ? '; ' : ''}${onlyRows.length ? `${quoteList(onlyRows, 3)} only in the first column` : ''}).`,
      );
    const permuted = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) permuted[i * n + k] = values[i * n + colIndex.get(names[k])!];
    values = permuted;
    const fileColumn = (k?: number) => (k === undefined ? undefined : colIndex.get(names![k])!);
    placeTable = { ...table, where: (i, k) => table.where(i, fileColumn(k)), locate: (i, k) => table.locate(i, fileColumn(k)) };
    warnings.push('The header lists the classes in a different order from the first column; the columns were reordered to match the rows.');
  }

  let check: SimilarityCheck;
  try {
    check = checkSimilarity({ n, data: values }, names ? undefined : classNames?.length, names);
  } catch (e) {
    rethrowWithPlace(e, placeTable);
  }
  warnings.push(...check.warnings);

  if (names && classNames) {
    const order = matchClasses(names, classNames, table, warnings);
    const k = order.length;
    const data = new Float64Array(k * k);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) data[a * k + b] = check.matrix.data[order[a] * n + order[b]];
    return { kind: 'matrix', matrix: { n: k, data }, classNames: [...classNames], warnings };
  }
  return { kind: 'matrix', matrix: check.matrix, classNames: classNames ? [...classNames] : names ? [...names] : undefined, warnings };
}

function asEmbeddings(table: RawTable, warnings: string[], classNames?: readonly string[]): SimilarityUpload {
  const { nRows, nCols, values } = table;
  const names = table.rowNames;
  let order: number[];
  if (names && classNames) order = matchClasses(names, classNames, table, warnings);
  else {
    if (classNames && nRows !== classNames.length) {
      const transposeHint =
        nCols === classNames.length
          ? table.source === '.npy'
            ? ' If each column is a class, save the transpose (np.save(path, E.T)).'
            : ' If each column is a class, transpose the table.'
          : '';
      throw new SimilarityError(
        `The file has ${plural(nRows, 'row')} of ${plural(nCols, 'value')} (${plural(nRows, 'embedding')}) but there ${classNames.length === 1 ? 'is 1 class' : `are ${classNames.length} classes`}; it needs one row per class.${transposeHint}`,
      );
    }
    order = Array.from({ length: nRows }, (_, i) => i);
  }
  tooManyClasses(order.length, 'embeddings to compare');
  const rows = order.map((i) => values.subarray(i * nCols, (i + 1) * nCols));
  order.forEach((i, k) => {
    if (rows[k].every((x) => x === 0))
      throw new SimilarityError(
        `${capitalise(table.where(i))}${names ? ` (${names[i]})` : ''} is all zeros, so it has no direction and its cosine similarity is undefined.`,
        table.locate(i),
      );
  });
  if (nCols === 1) warnings.push('The embeddings have a single dimension, so every cosine similarity is +1 or −1.');
  const outNames = classNames ? [...classNames] : names ? [...names] : undefined;
  // Non-finite values and zero rows were ruled out above, with their place in the file: this cannot throw.
  return { kind: 'embeddings', matrix: cosineSimilarity(rows, outNames), classNames: outNames, warnings };
}
