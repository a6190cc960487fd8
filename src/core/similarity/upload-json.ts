/**
 * An uploaded similarity file in JSON (parse-upload.ts says which forms) → RawTable, every failure a SimilarityError
 * naming the place (`matrix[2][3]`-style paths; line and column for a syntax error).
 */
import { placeJsonError } from '../formats/json-errors';
import { capitalise, plural, type RawTable, type SimilarityUploadKind } from './upload-table';
import { SimilarityError } from './validate';

export function readJson(text: string): RawTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const at = placeJsonError(text, e);
    const where = at.line !== undefined ? ` (line ${at.line}, column ${at.column})` : '';
    const hint = /(?<![A-Za-z"])(?:NaN|-?Infinity)(?![A-Za-z"])/.test(text)
      ? " It contains NaN or Infinity, which JSON does not allow (Python's json.dump writes them for non-finite values)."
      : '';
    throw new SimilarityError(`The file is not valid JSON: ${at.reason}${where}.${hint}`, at.line ? { line: at.line } : {});
  }

  if (Array.isArray(value))
    return jsonRows(
      value,
      '',
      undefined,
      undefined,
      (i) => `row ${i}`,
      (i, j) => `entry [${i}][${j}]`,
    );
  if (value === null || typeof value !== 'object')
    throw new SimilarityError(
      `The JSON must be a 2-D list or an object with "matrix" or "embeddings"; it is ${value === null ? 'null' : `a ${typeof value}`}.`,
    );
  const obj = value as Record<string, unknown>;
  const hasMatrix = 'matrix' in obj;
  const hasEmbeddings = 'embeddings' in obj;
  if (hasMatrix && hasEmbeddings) throw new SimilarityError('The JSON object has both "matrix" and "embeddings"; keep only one.');
  if (hasMatrix || hasEmbeddings) {
    const key = hasMatrix ? 'matrix' : 'embeddings';
    const rows = obj[key];
    if (!Array.isArray(rows)) throw new SimilarityError(`"${key}" must be a 2-D list of numbers; it is ${typeOfJson(rows)}.`);
    const namesKey = ['classes', 'class_names', 'classNames', 'names', 'labels'].find((k) => k in obj);
    let names: string[] | undefined;
    if (namesKey !== undefined) {
      const raw = obj[namesKey];
      if (!Array.isArray(raw)) throw new SimilarityError(`"${namesKey}" must be a list of class names; it is ${typeOfJson(raw)}.`);
      raw.forEach((s, i) => {
        if (typeof s !== 'string') throw new SimilarityError(`${namesKey}[${i}] is ${typeOfJson(s)}; class names must be strings.`);
      });
      names = raw as string[];
      if (names.length !== rows.length)
        throw new SimilarityError(`"${namesKey}" has ${plural(names.length, 'name')} but "${key}" has ${plural(rows.length, 'row')}.`);
    }
    return jsonRows(rows, key, names, key);
  }
  // { "<class>": [embedding…], … }
  const keys = Object.keys(obj);
  if (keys.length === 0) throw new SimilarityError('The JSON object is empty: it names no classes.');
  const rows = keys.map((k) => {
    const r = obj[k];
    if (!Array.isArray(r))
      throw new SimilarityError(
        `${JSON.stringify(k)} is ${typeOfJson(r)}; an object of class names must map each name to a list of numbers (its embedding), or use "matrix" / "embeddings".`,
      );
    return r;
  });
  return jsonRows(
    rows,
    '',
    keys,
    'embeddings',
    (i) => JSON.stringify(keys[i]),
    (i, j) => `${JSON.stringify(keys[i])}[${j}]`,
  );
}

function typeOfJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v === 'number' ? 'the number' : `a ${typeof v}`} ${String(v)}`;
}

function jsonRows(
  rows: unknown[],
  key: string,
  names: string[] | undefined,
  declared: SimilarityUploadKind | undefined,
  rowPath: (i: number) => string = (i) => `${key}[${i}]`,
  cellPath: (i: number, j: number) => string = (i, j) => `${key}[${i}][${j}]`,
): RawTable {
  const what = key ? `"${key}"` : 'The JSON list';
  if (rows.length === 0) throw new SimilarityError(`${what} is empty: it has no rows.`);
  const first = rows[0];
  if (!Array.isArray(first))
    throw new SimilarityError(
      `${capitalise(rowPath(0))} is ${typeOfJson(first)}; ${key ? `"${key}"` : 'the JSON'} must be a 2-D list (one list of numbers per class).`,
      { row: 0 },
    );
  const nCols = first.length;
  if (nCols === 0) throw new SimilarityError(`${capitalise(rowPath(0))} is an empty list.`, { row: 0 });
  const nRows = rows.length;
  const values = new Float64Array(nRows * nCols);
  for (let i = 0; i < nRows; i++) {
    const r = rows[i];
    if (!Array.isArray(r)) throw new SimilarityError(`${capitalise(rowPath(i))} is ${typeOfJson(r)}, not a list of numbers.`, { row: i });
    if (r.length !== nCols)
      throw new SimilarityError(`${capitalise(rowPath(i))} has ${plural(r.length, 'value')} but ${rowPath(0)} has ${nCols}; every row needs the same length.`, {
        row: i,
      });
    for (let j = 0; j < nCols; j++) {
      const x = r[j];
      if (typeof x !== 'number') throw new SimilarityError(`${capitalise(cellPath(i, j))} is ${typeOfJson(x)}, not a number.`, { row: i, column: j });
      values[i * nCols + j] = x;
    }
  }
  return {
    source: 'JSON',
    nRows,
    nCols,
    values,
    rowNames: names,
    declared,
    where: (i, j) => (j === undefined ? rowPath(i) : cellPath(i, j)),
    locate: (i, j) => ({ row: i, column: j }),
    warnings: [],
  };
}
