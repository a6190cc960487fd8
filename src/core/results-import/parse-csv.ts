/**
 * CSV (or tab-separated) results: a header row, then one run per line (parsed with d3-dsv).
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
 * skipped.
 */
import { csvParseRows, dsvFormat, tsvParseRows } from 'd3-dsv';
import { parseOrderText } from './parse-order';
import type { ParsedFile, RawRow } from './types';

const COLUMNS = {
  method: ['method', 'strategy', 'model', 'model_name', 'learner'],
  order: ['tasks', 'order', 'class_order', 'ordering', 'classes'],
  final: ['final_accuracy', 'final_acc', 'final', 'acc', 'accuracy', 'last_accuracy', 'top1'],
  aia: ['aia', 'average_incremental_accuracy', 'avg_acc', 'avg_accuracy', 'average_accuracy'],
  seed: ['seed'],
  matrix: ['matrix', 'matrix_json', 'accuracy_matrix'],
} as const;

const norm = (h: string) => h.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** Physical lines grouped into records (a quoted cell may contain a newline). */
function records(text: string): { line: number; text: string }[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const out: { line: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    let rec = lines[i];
    const start = i + 1;
    while ((rec.match(/"/g)?.length ?? 0) % 2 === 1 && i + 1 < lines.length) rec += `\n${lines[++i]}`;
    out.push({ line: start, text: rec });
  }
  return out;
}

export function parseCsv(text: string, knownNames: readonly string[] = []): ParsedFile {
  const recs = records(text).filter((r) => r.text.trim() !== '' && !r.text.trimStart().startsWith('#'));
  const file: ParsedFile = { format: 'csv', rows: [], problems: [], notes: [] };
  if (recs.length === 0) {
    file.problems.push({ where: 'the file', line: 0, reason: 'the file is empty' });
    return file;
  }
  const head = recs[0].text;
  const parseRow: (s: string) => string[] = head.includes('\t')
    ? (s) => tsvParseRows(s)[0] ?? []
    : head.includes(';') && !head.includes(',')
      ? (s) => dsvFormat(';').parseRows(s)[0] ?? []
      : (s) => csvParseRows(s)[0] ?? [];
  if (head.includes('\t')) file.notes.push('tab-separated');
  const header = parseRow(head).map(norm);
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
      reason: `the header (${header.join(', ') || 'empty'}) has no ${missing}; expected columns: method, order, final_accuracy [, aia] [, seed] [, matrix]`,
    });
    return file;
  }
  for (const rec of recs.slice(1)) {
    const cells = parseRow(rec.text);
    const where = `line ${rec.line}`;
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
