/**
 * The one reader of delimited text (CSV, TSV, semicolon-separated, and whitespace-separated text as
 * `np.savetxt` writes it) for every file the app reads: uploaded similarity tables (similarity/upload-text.ts) and
 * imported results (results-import/parse-csv.ts). Fields are split by d3-dsv (RFC 4180: a field is quoted when it
 * starts with a quote, `""` is a quote inside it, and it may hold delimiters and line breaks); this module adds what
 * d3-dsv does not do: line numbers, skipping blank and `#` comment lines, guessing the delimiter, whitespace
 * separation, and noticing a quote that is never closed. Writing: `csvField`, the single guard every CSV the app
 * or the CLI writes goes through (chart CSVs, "Export orderings → CSV", `cil-lab orders --format csv`).
 *
 * Layering: pure TS, imports only d3-dsv.
 */
import { dsvFormat } from 'd3-dsv';

/** ' ' stands for runs of spaces and tabs (np.savetxt's default). */
export type Delimiter = ',' | ';' | '\t' | ' ';

export interface DelimitedRecord {
  /** 1-based line of the file where the record starts (a quoted field may run over several lines). */
  line: number;
  cells: string[];
  /**
   * What is wrong with the record's quotes, if anything: 'unterminated' — it opens a quote that is never closed (its
   * cells then run to the end of the file), or, in text separated by whitespace, a field has a quote inside it;
   * 'text after quote' — a quoted field goes on after its closing quote (`"a"b,1`), which d3-dsv would silently cut.
   */
  quoteError?: 'unterminated' | 'text after quote';
}

export interface DelimitedText {
  delimiter: Delimiter;
  /** Every record but blank lines and lines starting with `#` (after spaces), in file order. */
  records: DelimitedRecord[];
}

export interface ReadDelimitedOptions {
  /** The delimiter; when absent it is guessed from the first record: a tab, else a semicolon, else a comma, else
   * (with `whitespace`) spaces and tabs, else a comma. */
  delimiter?: Delimiter;
  /** Whether a line with neither tab, semicolon nor comma is whitespace-separated. */
  whitespace?: boolean;
  /** Trim spaces around every cell. */
  trim?: boolean;
}

const WHITESPACE_CELL = /"((?:[^"]|"")*)"|(\S+)/g;

/**
 * Whether `text` ends inside a quoted field (a quote opens a field only at its start, as in d3-dsv), and whether a
 * quoted field goes on after its closing quote.
 */
function scanQuotes(text: string, delimiter: Delimiter): { open: boolean; textAfterQuote: boolean } {
  let quoted = false;
  let atStart = true;
  let justClosed = false;
  let textAfterQuote = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') i++;
        else {
          quoted = false;
          justClosed = true;
        }
      }
      continue;
    }
    const separates = delimiter === ' ' ? ch === ' ' || ch === '\t' || ch === '\n' : ch === delimiter || ch === '\n';
    if (justClosed && !separates && delimiter !== ' ') textAfterQuote = true;
    justClosed = false;
    if (separates) atStart = true;
    else if (ch === '"' && atStart) quoted = true;
    else atStart = false;
  }
  return { open: quoted, textAfterQuote };
}

function splitWhitespace(text: string): { cells: string[]; stray: boolean } {
  const cells: string[] = [];
  let stray = false;
  for (const m of text.matchAll(WHITESPACE_CELL)) {
    if (m[2] !== undefined && m[2].includes('"')) stray = true;
    cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
  }
  return { cells, stray };
}

export function sniffDelimiter(line: string, whitespace: boolean): Delimiter {
  if (line.includes('\t')) return '\t';
  if (line.includes(';')) return ';';
  if (line.includes(',') || !whitespace) return ',';
  return ' ';
}

/** Read delimited text into records of cells, with their line numbers. Never throws. */
export function readDelimited(text: string, options: ReadDelimitedOptions = {}): DelimitedText {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const skip = (s: string) => {
    const t = s.trim();
    return t === '' || t.startsWith('#');
  };
  const first = lines.find((l) => !skip(l));
  const delimiter = options.delimiter ?? sniffDelimiter(first ?? '', options.whitespace ?? false);
  const format = delimiter === ' ' ? undefined : dsvFormat(delimiter);
  const records: DelimitedRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (skip(lines[i])) continue;
    const line = i + 1;
    let rec = lines[i];
    let quotes = rec.includes('"') ? scanQuotes(rec, delimiter) : { open: false, textAfterQuote: false };
    while (quotes.open && i + 1 < lines.length) {
      rec += `\n${lines[++i]}`;
      quotes = scanQuotes(rec, delimiter);
    }
    let cells: string[];
    let stray = false;
    if (format) cells = format.parseRows(rec)[0] ?? [];
    else ({ cells, stray } = splitWhitespace(rec));
    if (options.trim) cells = cells.map((c) => c.trim());
    const quoteError = quotes.open || stray ? 'unterminated' : quotes.textAfterQuote ? 'text after quote' : undefined;
    records.push(quoteError ? { line, cells, quoteError } : { line, cells });
  }
  return { delimiter, records };
}

export type CsvCell = string | number | boolean | bigint | null | undefined;

/**
 * One CSV field (RFC 4180): numbers as JavaScript prints them (full precision, so a value reads back exactly), empty
 * for null/undefined/NaN, and text quoted when it holds a comma, a quote or a line break (quotes doubled). Text that a
 * spreadsheet would run as a formula (starting with = + @ or a tab/CR, or - when it is not a number) gets a leading
 * apostrophe: class names come from share links, and a link from a stranger must not run a formula when its CSV is
 * opened (OWASP "CSV injection").
 */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isNaN(value) ? '' : String(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  let s = String(value);
  if (/^[=+@\t\r]/.test(s) || (s.startsWith('-') && !/^-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s))) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
