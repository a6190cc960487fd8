/**
 * An uploaded similarity file as delimited text — CSV, TSV, or whitespace-separated as `np.savetxt` writes — →
 * RawTable. The text is read by the project's one CSV reader (formats/csv.ts: delimiter from the extension, else
 * the first line; `#` and blank lines skipped; fields may be "quoted"); this file finds the header and the column of
 * class names, and reads the numbers, every failure a SimilarityError naming the line and column.
 */
import { readDelimited, type DelimitedRecord } from '../formats/csv';
import { capitalise, normaliseName, plural, type RawTable } from './upload-table';
import { SimilarityError } from './validate';

const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const NON_FINITE_RE = /^[+-]?(?:nan|inf|infinity)$/i;
const DECIMAL_COMMA_RE = /^[+-]?\d+,\d+$/;
const NAME_HEADER_RE = /^(?:|class|classes|class_?name|class name|name|names|label|labels|id|index)$/i;

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
export function readTable(text: string, ext: string, classNames?: readonly string[]): RawTable {
  const { delimiter, records } = readDelimited(text, { delimiter: ext === 'tsv' || ext === 'tab' ? '\t' : undefined, whitespace: true, trim: true });
  if (records.length === 0) throw new SimilarityError('The file has no data lines (only blank or # comment lines).');
  const source = delimiter === '\t' ? 'TSV' : delimiter === ' ' ? 'text table' : 'CSV';
  const bad = records.find((r) => r.quoteError);
  if (bad)
    throw new SimilarityError(
      bad.quoteError === 'unterminated' ? `Line ${bad.line} has an unterminated quote (").` : `Line ${bad.line} has text after a closing quote (").`,
      { line: bad.line },
    );
  const lines: DelimitedRecord[] = records;
  const warnings: string[] = [];

  // Header?
  const firstCells = lines[0].cells;
  let header: DelimitedRecord | undefined;
  const laterHaveNonIntegers = () => lines.slice(1).some((l) => l.cells.some((c) => NUMBER_RE.test(c) && !/^[+-]?\d+$/.test(c)));
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

  const where = (i: number, j?: number) => (j === undefined ? `line ${data[i].line}` : `line ${data[i].line}, column ${j + offset + 1}`);
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
    else throw new SimilarityError(`The header (line ${header.line}) has ${plural(h.length, 'cell')} but the data lines have ${width}.`, { line: header.line });
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
