/**
 * CSV (or tab- or semicolon-separated) results: a header row, then one run per line (read by formats/csv.ts, the
 * project's one CSV reader, on d3-dsv).
 *
 *   method,order,final_accuracy,aia,seed
 *   ewc,"3 1 | 0 2 | 5 4",71.2,80.4,0
 *
 * Columns (names compared ignoring case, spaces, dashes; the first alias found wins):
 *   method          method | strategy | model | model_name | learner            (optional: the default method)
 *   order           tasks | order | class_order | ordering | classes             (required; "tasks" first, so the
 *                   app's own `orders --format csv` export, which has both, is read by its task lists)
 *   final accuracy  final_accuracy | final_acc | final | acc | accuracy | last_accuracy | top1
 *   aia             aia | average_incremental_accuracy | avg_acc | avg_accuracy | average_accuracy
 *   seed            seed
 *   matrix          matrix | matrix_json | accuracy_matrix   (R as JSON, e.g. "[[0.9,0],[0.6,0.8]]")
 * Either a final-accuracy or a matrix column is required. Line numbers are the file's physical lines (a quoted
 * cell may span lines; the row is then numbered by its first line). Blank lines and lines starting with "#" are
 * skipped. A quote that is never closed is reported on the line where it opens.
 */
import { readDelimited } from '../formats/csv';
import { RUN_FIELD_ALIASES } from './column-aliases';
import { parseOrderText } from './parse-order';
import type { ParsedFile, RawRow } from './types';

const COLUMNS = {
  ...RUN_FIELD_ALIASES,
  matrix: ['matrix', 'matrix_json', 'accuracy_matrix'],
} as const;

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

export function parseCsv(text: string, knownNames: readonly string[] = []): ParsedFile {
  const { delimiter, records: recs } = readDelimited(text);
  const file: ParsedFile = { format: 'csv', rows: [], problems: [], notes: [] };
  if (recs.length === 0) {
    file.problems.push({ where: 'the file', line: 0, reason: 'the file is empty' });
    return file;
  }
  if (delimiter === '\t') file.notes.push('tab-separated');
  const header = recs[0].cells.map(norm);
  const col = (names: readonly string[]) => {
    for (const n of names) {
      const i = header.indexOf(n);
      if (i >= 0) return i;
    }
    return -1;
  };
  const at = Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, col(names)])) as Record<keyof typeof COLUMNS, number>;
  if (at.order < 0 || (at.final < 0 && at.matrix < 0)) {
    const missing = [at.order < 0 ? 'an order column ("order" or "tasks")' : '', at.final < 0 && at.matrix < 0 ? 'an accuracy column ("final_accuracy")' : '']
      .filter(Boolean)
      .join(' and ');
    file.problems.push({
      where: `line ${recs[0].line}`,
      line: recs[0].line,
      reason: `the header (${header.slice(0, 12).join(', ') || 'empty'}${header.length > 12 ? `, … ${header.length} columns in all` : ''}) lacks ${missing}; expected columns: method, order, final_accuracy [, aia] [, seed] [, matrix]`,
    });
    return file;
  }
  for (const rec of recs.slice(1)) {
    const { cells } = rec;
    const where = `line ${rec.line}`;
    if (rec.quoteError) {
      const reason = rec.quoteError === 'unterminated' ? 'a quote (") opens here and is never closed' : 'a quoted cell goes on after its closing quote (")';
      file.problems.push({ where, line: rec.line, reason });
      continue;
    }
    const cell = (i: number) => (i >= 0 && i < cells.length ? cells[i] : undefined);
    const orderText = cell(at.order);
    if (orderText === undefined || orderText.trim() === '') {
      file.problems.push({ where, line: rec.line, reason: 'the order is missing' });
      continue;
    }
    let order;
    try {
      order = parseOrderText(orderText, knownNames);
    } catch (e) {
      file.problems.push({ where, line: rec.line, reason: (e as Error).message });
      continue;
    }
    const row: RawRow = { where, line: rec.line, order };
    const method = cell(at.method)?.trim();
    if (method) row.method = method;
    const final = cell(at.final);
    if (final !== undefined && final.trim() !== '') row.final = final;
    const aia = cell(at.aia);
    if (aia !== undefined && aia.trim() !== '') row.aia = aia;
    const seed = cell(at.seed);
    if (seed !== undefined && seed.trim() !== '') row.seed = seed;
    const matrix = cell(at.matrix);
    if (matrix !== undefined && matrix.trim() !== '') row.matrix = matrix;
    file.rows.push(row);
  }
  return file;
}
