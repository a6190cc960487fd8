/**
 * One CSV field, the single guard every CSV the app or the CLI writes goes through (chart CSVs in
 * src/ui/common/chart-export.ts, "Export orderings → CSV" and `cil-lab orders --format csv` in
 * core/protocols/export.ts). Pure.
 */

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
