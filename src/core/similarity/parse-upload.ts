/**
 * An uploaded similarity source (SCIENCE.md §6, "Uploaded"): a class×class similarity matrix or a class×dimension
 * embedding table, as JSON, CSV/TSV (or whitespace-separated text, as `np.savetxt` writes by default) or NumPy
 * `.npy`. Bytes in, a validated SquareMatrix out — pure, no DOM, no fs.
 *
 * Formats
 * - JSON: a bare 2-D list; `{"matrix": [[…]], "classes"?: […]}`; `{"embeddings": [[…]], "classes"?: […]}`
 *   (`class_names`, `classNames`, `names`, `labels` are accepted for `classes`); or `{"<class>": [embedding…], …}`,
 *   which is always read as embeddings.
 * - CSV/TSV/text: numeric lines; delimiter tab, comma, semicolon or whitespace (from the extension, else the first
 *   line). `#` lines and blank lines are skipped; fields may be "quoted". An optional header line and an optional
 *   first column of class names are detected (see `readTable`).
 * - .npy: format versions 1, 2 and 3, parsed here by hand (the header is a tiny Python dict literal; no npm package
 *   needed): dtypes f2/f4/f8, i1/i2/i4/i8, u1/u2/u4/u8, either byte order, C or Fortran order, 2-D shapes.
 *   `.npz` (a zip) is refused with a hint to use `np.save`.
 *
 * Matrix or embeddings? A JSON object that says `matrix` / `embeddings` decides. Otherwise a square table that is
 * symmetric within 1e-6 is a similarity matrix; a square table with a unit diagonal that is not symmetric is an
 * error (a broken similarity matrix); anything else — including a square table that is not symmetric and has no unit
 * diagonal (warned), or a table whose header labels name none of its row classes (dimension labels) — is an N×D
 * embedding table, turned into a matrix by cosine similarity (cosine.ts).
 * Matrices go through checkSimilarity (validate.ts: diagonal set to 1, tiny asymmetry averaged away, warnings).
 *
 * Classes: when the file names its classes and `classNames` is given, rows (and columns) are picked and reordered
 * to follow `classNames`; names match exactly, else ignoring case, spaces, underscores and hyphens; missing
 * classes are an error that names them; extra classes in the file are dropped (warned). Without names in the file,
 * its row count must equal `classNames.length`.
 *
 * Every failure is a SimilarityError with one sentence saying what is wrong and where (1-based line and column for
 * text files, `matrix[2][3]`-style paths for JSON, 0-based element indices for .npy).
 */
import type { SquareMatrix } from '../orderings/types';
import { cosineSimilarity } from './cosine';
import { SYMMETRY_TOLERANCE, SimilarityError, checkSimilarity, formatValue } from './validate';
import type { SimilarityCheck } from './validate';

export type SimilarityUploadKind = 'matrix' | 'embeddings';

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

/** A rectangular numeric table read from a file, before it is interpreted. */
interface RawTable {
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

const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const NON_FINITE_RE = /^[+-]?(?:nan|inf|infinity)$/i;
const DECIMAL_COMMA_RE = /^[+-]?\d+,\d+$/;
const NAME_HEADER_RE = /^(?:|class|classes|class_?name|class name|name|names|label|labels|id|index)$/i;

/** Capitalise a place that starts a sentence ('line 5, column 3' → 'Line 5, …'); code paths stay as they are. */
function capitalise(s: string): string {
  return /^[a-z]+ /.test(s) ? s[0].toUpperCase() + s.slice(1) : s;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function quoteList(names: readonly string[], max = 8): string {
  const shown = names.slice(0, max).map((s) => JSON.stringify(s));
  return names.length > max ? `${shown.join(', ')} and ${names.length - max} more` : shown.join(', ');
}

/** Name normalisation for matching: case, spaces, underscores and hyphens ignored. */
function normaliseName(s: string): string {
  return s.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}

function describeNonFinite(x: number): string {
  return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
}

// ───────────────────────────── entry point ─────────────────────────────

/**
 * Read an uploaded similarity matrix or embedding table.
 * @param fileName used for its extension (.json, .csv, .tsv, .txt, .npy); unknown extensions are sniffed.
 * @param bytes the file's bytes (or its text).
 * @param classNames the experiment's classes, in order; the result follows this order.
 */
export function parseSimilarityUpload(
  fileName: string,
  bytes: Uint8Array | ArrayBuffer | string,
  classNames?: readonly string[],
): SimilarityUpload {
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

function readAny(fileName: string, ext: string, input: Uint8Array | ArrayBuffer | string, classNames?: readonly string[]): RawTable {
  if (typeof input === 'string') return readText(fileName, ext, input, classNames);
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.length === 0) throw new SimilarityError(`The file ${JSON.stringify(fileName)} is empty.`);
  if (startsWith(bytes, NPY_MAGIC)) return readNpy(bytes);
  if (ext === 'npz' || startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]))
    throw new SimilarityError(
      'The file is a .npz (zip) archive, which is not supported; save one array with np.save("similarity.npy", array).',
    );
  if (ext === 'npy')
    throw new SimilarityError('The file is named .npy but does not start with the NumPy magic string "\\x93NUMPY"; it is not a .npy file.');
  return readText(fileName, ext, decodeText(bytes), classNames);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** Offset of the first byte that does not start a valid UTF-8 sequence, or −1. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const extra = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (extra < 0) return i;
    for (let k = 1; k <= extra; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return i;
    i += extra + 1;
  }
  return -1;
}

function decodeText(bytes: Uint8Array): string {
  if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes);
  if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes);
  const nul = bytes.indexOf(0);
  if (nul >= 0)
    throw new SimilarityError(
      `The file looks binary (byte ${nul} is NUL) and is not a .npy file; upload JSON, CSV/TSV or a .npy array.`,
    );
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new SimilarityError(
      `The file is not UTF-8 text${at >= 0 ? ` (byte ${at} is invalid)` : ''} and is not a .npy file; upload JSON, CSV/TSV or a .npy array.`,
    );
  }
}

function readText(fileName: string, ext: string, text: string, classNames?: readonly string[]): RawTable {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new SimilarityError(`The file ${JSON.stringify(fileName)} is empty.`);
  if (ext === 'json') return readJson(text);
  if (['csv', 'tsv', 'tab', 'txt', 'dat', 'ssv'].includes(ext)) return readTable(text, ext, classNames);
  const first = text.trimStart()[0];
  return first === '[' || first === '{' ? readJson(text) : readTable(text, ext, classNames);
}

// ───────────────────────────── JSON ─────────────────────────────

function lineColumnAt(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < pos && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  return { line, column: pos - last };
}

/**
 * Offset of the first JSON syntax error in `t` (−1 if none): a small recursive-descent checker, used only after
 * JSON.parse failed, because not every engine says where (Node 20's V8 often does not).
 */
function jsonErrorOffset(t: string): number {
  let i = 0;
  const NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < t.length && (t[i] === ' ' || t[i] === '\t' || t[i] === '\n' || t[i] === '\r')) i++;
  };
  const str = () => {
    i++; // opening quote
    while (i < t.length) {
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x5c) {
        const e = t[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) {
            i += 2;
            fail();
          }
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) {
          i++;
          fail();
        }
        i += 2;
        continue;
      }
      if (c < 0x20) fail();
      i++;
    }
    fail();
  };
  const value = (): void => {
    ws();
    const c = t[i];
    if (c === '{') {
      i++;
      ws();
      if (t[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (t[i] !== '"') fail();
        str();
        ws();
        if (t[i] !== ':') fail();
        i++;
        value();
        ws();
        if (t[i] === ',') {
          i++;
          continue;
        }
        if (t[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (t[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (t[i] === ',') {
          i++;
          continue;
        }
        if (t[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '"') return str();
    for (const lit of ['true', 'false', 'null'])
      if (t.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    NUM.lastIndex = i;
    if (NUM.exec(t)) {
      i = NUM.lastIndex;
      return;
    }
    fail();
  };
  try {
    value();
    ws();
    if (i < t.length) fail();
    return -1;
  } catch (e) {
    return typeof e === 'number' ? e : -1; // a RangeError (absurdly deep nesting): no position
  }
}

function readJson(text: string): RawTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    let where = '';
    let line: number | undefined;
    const lc = /line (\d+) column (\d+)/.exec(raw);
    const pos = /position (\d+)/.exec(raw);
    if (lc) {
      line = Number(lc[1]);
      where = ` (line ${lc[1]}, column ${lc[2]})`;
    } else {
      const offset = pos ? Number(pos[1]) : jsonErrorOffset(text);
      if (offset >= 0) {
        const at = lineColumnAt(text, offset);
        line = at.line;
        where = ` (line ${at.line}, column ${at.column})`;
      }
    }
    const reason = raw
      .replace(/^JSON\.parse: /, '')
      .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
      .replace(/\s*(?:in JSON )?at position \d+.*$/s, '')
      .replace(/\s*at line \d+ column \d+.*$/s, '');
    const hint = /(?<![A-Za-z"])(?:NaN|-?Infinity)(?![A-Za-z"])/.test(text)
      ? ' It contains NaN or Infinity, which JSON does not allow (Python\'s json.dump writes them for non-finite values).'
      : '';
    throw new SimilarityError(`The file is not valid JSON: ${reason}${where}.${hint}`, line ? { line } : {});
  }

  if (Array.isArray(value)) return jsonRows(value, '', undefined, undefined, (i) => `row ${i}`, (i, j) => `entry [${i}][${j}]`);
  if (value === null || typeof value !== 'object')
    throw new SimilarityError(
      `The JSON must be a 2-D list or an object with "matrix" or "embeddings"; it is ${value === null ? 'null' : `a ${typeof value}`}.`,
    );
  const obj = value as Record<string, unknown>;
  const hasMatrix = 'matrix' in obj;
  const hasEmbeddings = 'embeddings' in obj;
  if (hasMatrix && hasEmbeddings)
    throw new SimilarityError('The JSON object has both "matrix" and "embeddings"; keep only one.');
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
        if (typeof s !== 'string')
          throw new SimilarityError(`${namesKey}[${i}] is ${typeOfJson(s)}; class names must be strings.`);
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
    if (!Array.isArray(r))
      throw new SimilarityError(`${capitalise(rowPath(i))} is ${typeOfJson(r)}, not a list of numbers.`, { row: i });
    if (r.length !== nCols)
      throw new SimilarityError(
        `${capitalise(rowPath(i))} has ${plural(r.length, 'value')} but ${rowPath(0)} has ${nCols}; every row needs the same length.`,
        { row: i },
      );
    for (let j = 0; j < nCols; j++) {
      const x = r[j];
      if (typeof x !== 'number')
        throw new SimilarityError(`${capitalise(cellPath(i, j))} is ${typeOfJson(x)}, not a number.`, { row: i, column: j });
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

// ───────────────────────────── CSV / TSV / text ─────────────────────────────

interface TextLine {
  line: number;
  cells: string[];
}

function splitDelimited(text: string, delimiter: string, line: number): string[] {
  const out: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let wasQuoted = false;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      wasQuoted = true;
      field = '';
      i++;
      continue;
    }
    if (ch === delimiter) {
      out.push(wasQuoted ? field : field.trim());
      field = '';
      wasQuoted = false;
      i++;
      continue;
    }
    field += ch;
    i++;
  }
  if (quoted) throw new SimilarityError(`Line ${line} has an unterminated quote (").`, { line });
  out.push(wasQuoted ? field : field.trim());
  return out;
}

function splitWhitespace(text: string, line: number): string[] {
  const out: string[] = [];
  const re = /"((?:[^"]|"")*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[2] !== undefined && m[2].includes('"')) throw new SimilarityError(`Line ${line} has an unterminated quote (").`, { line });
    out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
  }
  return out;
}

function isNumberCell(s: string): boolean {
  return NUMBER_RE.test(s) || NON_FINITE_RE.test(s);
}

/** Column labels 0, 1, …, k−1 as pandas writes them for a DataFrame without column names. */
function isRangeHeader(cells: string[]): boolean {
  return cells.length >= 2 && cells.every((c, i) => c === String(i));
}

/**
 * A numeric table from text.
 * - Header: the first line is a header when a cell other than the first is not a number or is empty, when its
 *   first cell is empty, or when it is exactly 0, 1, …, k−1 (pandas' default column labels; after an optional
 *   name cell) while later lines hold non-integers.
 * - Name column: the first column holds class names when every data line's first cell is not a number, when the
 *   header's first cell is empty or a word like "class"/"name"/"label", or when its cells are exactly the
 *   experiment's class names (e.g. MNIST's "0"…"9").
 */
function readTable(text: string, ext: string, classNames?: readonly string[]): RawTable {
  const rawLines = text.split(/\r\n|\n|\r/);
  const content: { line: number; text: string }[] = [];
  rawLines.forEach((t, k) => {
    const s = t.trim();
    if (s !== '' && !s.startsWith('#')) content.push({ line: k + 1, text: t });
  });
  if (content.length === 0) throw new SimilarityError('The file has no data lines (only blank or # comment lines).');

  let delimiter: string;
  if (ext === 'tsv' || ext === 'tab') delimiter = '\t';
  else {
    const t = content[0].text;
    delimiter = t.includes('\t') ? '\t' : t.includes(';') ? ';' : t.includes(',') ? ',' : ' ';
  }
  const source = delimiter === '\t' ? 'TSV' : delimiter === ' ' ? 'text table' : 'CSV';
  const lines: TextLine[] = content.map(({ line, text: t }) => ({
    line,
    cells: delimiter === ' ' ? splitWhitespace(t, line) : splitDelimited(t, delimiter, line),
  }));
  const warnings: string[] = [];

  // Header?
  const firstCells = lines[0].cells;
  let header: TextLine | undefined;
  const laterHaveNonIntegers = () =>
    lines.slice(1).some((l) => l.cells.some((c) => NUMBER_RE.test(c) && !/^[+-]?\d+$/.test(c)));
  if (firstCells[0] === '' || firstCells.slice(1).some((c) => !isNumberCell(c))) header = lines[0];
  else if (lines.length > 1 && (isRangeHeader(firstCells) || (!isNumberCell(firstCells[0]) && isRangeHeader(firstCells.slice(1)))) && laterHaveNonIntegers()) {
    header = lines[0];
    warnings.push(`Line ${lines[0].line} (${firstCells.slice(0, 3).join(', ')}, …) was read as column labels, not data.`);
  }
  const data = header ? lines.slice(1) : lines;
  if (data.length === 0) throw new SimilarityError(`The file has a header (line ${lines[0].line}) but no data lines.`, { line: lines[0].line });

  // Ragged?
  const width = data[0].cells.length;
  for (const l of data)
    if (l.cells.length !== width)
      throw new SimilarityError(
        `Line ${l.line} has ${plural(l.cells.length, 'value')} but line ${data[0].line} has ${width}; every line needs the same number of values.`,
        { line: l.line },
      );

  // Name column?
  const firstColumn = data.map((l) => l.cells[0]);
  let nameColumn = firstColumn.every((c) => c !== '' && !isNumberCell(c));
  if (!nameColumn && header && header.cells.length === width && NAME_HEADER_RE.test(header.cells[0]) && width > 1) nameColumn = true;
  if (!nameColumn && classNames && width > 1) {
    const wanted = new Set(classNames.map(normaliseName));
    const distinct = new Set(firstColumn.map(normaliseName));
    nameColumn = distinct.size === firstColumn.length && firstColumn.every((c) => wanted.has(normaliseName(c)));
  }
  let rowNames = nameColumn ? firstColumn : undefined;
  if (nameColumn && firstColumn.every((c, i) => c === String(i))) {
    const matchesClasses = classNames !== undefined && firstColumn.every((c) => classNames.includes(c));
    if (!matchesClasses) {
      rowNames = undefined;
      warnings.push(`The first column (${firstColumn.slice(0, 3).join(', ')}, …) was read as a row index, not as class names.`);
    }
  }
  const offset = nameColumn ? 1 : 0;
  const nCols = width - offset;
  if (nCols === 0) throw new SimilarityError(`Line ${data[0].line} has class names but no numbers.`, { line: data[0].line });
  const nRows = data.length;

  const where = (i: number, j?: number) =>
    j === undefined ? `line ${data[i].line}` : `line ${data[i].line}, column ${j + offset + 1}`;
  const locate = (i: number, j?: number) => ({ line: data[i].line, row: i, column: j });

  const values = new Float64Array(nRows * nCols);
  for (let i = 0; i < nRows; i++) {
    const cells = data[i].cells;
    for (let j = 0; j < nCols; j++) {
      const c = cells[j + offset];
      if (NUMBER_RE.test(c)) {
        values[i * nCols + j] = Number(c);
        continue;
      }
      const at = capitalise(where(i, j));
      if (c === '') throw new SimilarityError(`${at} is empty; every cell needs a number.`, locate(i, j));
      if (NON_FINITE_RE.test(c)) throw new SimilarityError(`${at} is "${c}"; every value must be a finite number.`, locate(i, j));
      const hint = DECIMAL_COMMA_RE.test(c) ? ' (decimal commas are not supported: write 0.5, not 0,5)' : '';
      throw new SimilarityError(`${at} is ${JSON.stringify(c.length > 40 ? `${c.slice(0, 40)}…` : c)}, not a number${hint}.`, locate(i, j));
    }
  }

  let columnNames: string[] | undefined;
  if (header) {
    const h = header.cells;
    if (h.length === width) columnNames = h.slice(offset);
    else if (h.length === nCols) columnNames = h.slice();
    else
      throw new SimilarityError(
        `The header (line ${header.line}) has ${plural(h.length, 'cell')} but the data lines have ${width}.`,
        { line: header.line },
      );
  }
  return {
    source,
    nRows,
    nCols,
    values,
    rowNames,
    columnNames,
    where,
    locate,
    warnings,
  };
}

// ───────────────────────────── .npy ─────────────────────────────

const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/**
 * A 2-D .npy array (format v1.0, v2.0, v3.0; https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
 * magic, major, minor, header length (uint16 LE in v1, uint32 LE in v2/v3), an ASCII (v1/v2) or UTF-8 (v3) dict
 * literal {'descr': …, 'fortran_order': …, 'shape': (…), }, padding, then the raw data.
 */
function readNpy(bytes: Uint8Array): RawTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 10) throw new SimilarityError(`The .npy file is truncated: it has ${bytes.length} bytes, fewer than its fixed preamble.`);
  const major = bytes[6];
  const minor = bytes[7];
  if (major < 1 || major > 3)
    throw new SimilarityError(`The .npy file has format version ${major}.${minor}; versions 1.0, 2.0 and 3.0 are supported.`);
  const lenSize = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenSize) throw new SimilarityError('The .npy file is truncated inside its header length.');
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = 8 + lenSize;
  const dataStart = headerStart + headerLen;
  if (dataStart > bytes.length)
    throw new SimilarityError(
      `The .npy file is truncated: its header says it is ${headerLen} bytes long, but only ${bytes.length - headerStart} bytes follow.`,
    );
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(headerStart, dataStart));

  if (/['"]descr['"]\s*:\s*\[/.test(header))
    throw new SimilarityError('The .npy array has a structured (record) dtype; save a plain 2-D float array instead.');
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(header)?.[1];
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined)
    throw new SimilarityError(
      `The .npy header cannot be read (need 'descr', 'fortran_order' and 'shape'): ${JSON.stringify(header.trim().slice(0, 120))}.`,
    );
  const shape = shapeText
    .split(',')
    .map((s) => s.trim().replace(/L$/, ''))
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : Number.NaN));
  if (shape.some((d) => !Number.isSafeInteger(d)))
    throw new SimilarityError(`The .npy header has an unreadable shape (${shapeText.trim()}).`);
  if (shape.length !== 2) {
    const shown = `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
    throw new SimilarityError(
      `The .npy array has shape ${shown}; it must be 2-D: classes × classes (a similarity matrix) or classes × dimensions (embeddings).`,
    );
  }
  const [nRows, nCols] = shape;
  if (nRows === 0 || nCols === 0) throw new SimilarityError(`The .npy array is empty: its shape is (${nRows}, ${nCols}).`);

  const dt = /^([<>|=])([a-zA-Z])(\d+)$/.exec(descr);
  const kindName: Record<string, string> = { O: 'Python objects (pickled)', U: 'strings', S: 'bytes', c: 'complex numbers', b: 'booleans', M: 'dates', m: 'time deltas', V: 'raw bytes' };
  if (!dt) throw new SimilarityError(`The .npy dtype ${JSON.stringify(descr)} is not supported; save float32 or float64.`);
  const [, order, kind, sizeText] = dt;
  const size = Number(sizeText);
  const supported = (kind === 'f' && [2, 4, 8].includes(size)) || ((kind === 'i' || kind === 'u') && [1, 2, 4, 8].includes(size));
  if (!supported)
    throw new SimilarityError(
      `The .npy dtype ${JSON.stringify(descr)}${kindName[kind] ? ` holds ${kindName[kind]}` : ''} and is not supported; save float32 or float64 (e.g. array.astype("float32")).`,
    );
  const little = order !== '>'; // '|' (one byte) and '=' (native; numpy writes '<' on every platform it supports)

  const count = nRows * nCols;
  const need = count * size;
  const have = bytes.length - dataStart;
  if (have < need)
    throw new SimilarityError(
      `The .npy file is truncated: a (${nRows}, ${nCols}) array of ${descr} needs ${need} bytes of data but the file has ${have}.`,
    );
  const warnings: string[] = [];
  if (have > need) warnings.push(`The .npy file has ${have - need} unexpected bytes after its data; they were ignored.`);

  const read = (k: number): number => {
    const at = dataStart + k * size;
    if (kind === 'f') {
      if (size === 8) return view.getFloat64(at, little);
      if (size === 4) return view.getFloat32(at, little);
      return halfToNumber(view.getUint16(at, little));
    }
    if (kind === 'i') {
      if (size === 1) return view.getInt8(at);
      if (size === 2) return view.getInt16(at, little);
      if (size === 4) return view.getInt32(at, little);
      return Number(view.getBigInt64(at, little));
    }
    if (size === 1) return view.getUint8(at);
    if (size === 2) return view.getUint16(at, little);
    if (size === 4) return view.getUint32(at, little);
    return Number(view.getBigUint64(at, little));
  };

  const values = new Float64Array(count);
  const isFortran = fortran === 'True';
  let inexact = false;
  for (let i = 0; i < nRows; i++)
    for (let j = 0; j < nCols; j++) {
      const x = read(isFortran ? j * nRows + i : i * nCols + j);
      if (size === 8 && kind !== 'f' && !Number.isSafeInteger(x)) inexact = true;
      values[i * nCols + j] = x;
    }
  if (inexact) warnings.push('Some 64-bit integers in the .npy array are beyond 2^53 and were rounded to the nearest double.');

  return {
    source: '.npy',
    nRows,
    nCols,
    values,
    where: (i, j) => (j === undefined ? `row ${i} of the array` : `element (${i}, ${j}) of the array`),
    locate: (i, j) => ({ row: i, column: j }),
    warnings,
  };
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
    warnings.push(
      `${plural(looseMatches, 'class name')} matched the file only after ignoring case, spaces, underscores and hyphens (e.g. ${example}).`,
    );
  if (fileNames.length > wanted.length)
    warnings.push(`The file has ${fileNames.length} classes; the ${wanted.length} of this experiment were used and the rest ignored.`);
  return order;
}

function interpret(table: RawTable, classNames?: readonly string[]): SimilarityUpload {
  const warnings = [...table.warnings];
  const { nRows, nCols, values } = table;

  // Non-finite values, named where they are in the file.
  for (let i = 0; i < nRows; i++)
    for (let j = 0; j < nCols; j++) {
      const x = values[i * nCols + j];
      if (!Number.isFinite(x))
        throw new SimilarityError(
          `${capitalise(table.where(i, j))} is ${describeNonFinite(x)}; every value must be a finite number.`,
          table.locate(i, j),
        );
    }

  let kind: SimilarityUploadKind;
  if (table.declared) kind = table.declared;
  else if (nRows === nCols && nRows > 1) {
    const asym = worstAsymmetry(table);
    const { rowNames, columnNames } = table;
    const labelsAreDimensions =
      rowNames !== undefined && columnNames !== undefined && !columnNames.some((c) => rowNames.includes(c));
    if (labelsAreDimensions) kind = 'embeddings'; // column labels that name no class are dimension labels
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
  const rows = order.map((i) => values.subarray(i * nCols, (i + 1) * nCols));
  order.forEach((i, k) => {
    if (rows[k].every((x) => x === 0))
      throw new SimilarityError(
        `${capitalise(table.where(i))}${names ? ` (${names[i]})` : ''} is all zeros, so it has no direction and its cosine similarity is undefined.`,
        table.locate(i),
      );
  });
  if (nCols === 1)
    warnings.push('The embeddings have a single dimension, so every cosine similarity is +1 or −1.');
  const outNames = classNames ? [...classNames] : names ? [...names] : undefined;
  // Non-finite values and zero rows were ruled out above, with their place in the file: this cannot throw.
  return { kind: 'embeddings', matrix: cosineSimilarity(rows, outNames), classNames: outNames, warnings };
}
